import type { Counter } from '@opentelemetry/api';
import { jobsMeter } from '@jobs/observability';

/** How a search's first page was answered: every provider in, some failed, a free estimate, refused. */
export type SearchAnswerOutcome = 'complete' | 'partial' | 'estimate' | 'plan_required';

/**
 * `searches_started_total`, `searches_answered_total` (sync searches, first pages) and
 * `async_searches_finished_total` (by terminal status). Each use case holds its own instance:
 * the SDK hands every instrument of the same name the same storage.
 */
export class SearchMetrics {
  private readonly started: Counter;
  private readonly answered: Counter;
  private readonly asyncFinished: Counter;

  constructor() {
    const meter = jobsMeter();
    this.started = meter.createCounter('searches_started_total', {
      description: 'Sync searches fanned out to providers (first pages), by strategy.',
    });
    this.answered = meter.createCounter('searches_answered_total', {
      description:
        'Sync searches answered (first pages, handed to billing or ' +
        'answered as an estimate or refusal), by strategy and ' +
        'outcome.',
    });
    this.asyncFinished = meter.createCounter('async_searches_finished_total', {
      description: 'Async searches that reached a terminal status (completed, partial, failed).',
    });
  }

  searchStarted(strategy: string): void {
    this.started.add(1, { strategy });
  }

  searchAnswered(strategy: string, outcome: SearchAnswerOutcome): void {
    this.answered.add(1, { strategy, outcome });
  }

  asyncSearchFinished(status: string): void {
    this.asyncFinished.add(1, { status });
  }
}

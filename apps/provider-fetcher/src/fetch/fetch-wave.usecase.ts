import { Injectable } from '@nestjs/common';
import { Topics, type ProviderFetchRequested, type ProviderRecordsFetched } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { ResumablePaging } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';
import { annotateStage } from '@jobs/observability';

type Ask = ProviderFetchRequested.Value['providers'][number];
type Batch = ProviderRecordsFetched.FetchedBatch;

/** Waves in flight in this process (this one included) up to which the fetcher counts as lightly loaded. */
const LIGHT_LOAD_WAVES = 2;
/** How long the last partner out may follow the others before they go without it (light load only). */
const LAST_ONE_GRACE_MS = 20;

/**
 * Calls every partner of one wave of a search side by side, each within the search's deadline,
 * and hands the wave to dedupe: one produce, one merge and one answer per wave instead of one per
 * provider. A provider that fails or misses the deadline is reported as such; it never fails the
 * search and never costs anything.
 *
 * A wave that is not all in by half of its remaining budget does not hold back the partners that
 * answered: they go then, in one message, and every later answer as it comes (the stragglers cut
 * off at the deadline together). Waiting for the slowest partner would start their merge only
 * after the deadline, and the orchestrator's deadline sweeper answers without whatever has not
 * arrived by then (750 ms later): one partner past `timeout_ms` would cost every partner that
 * answered in time its jobs, reported as `provider_timeout`. This way an answer's merge starts no
 * later than half the budget before the deadline, or as soon as the answer came.
 *
 * Lightly loaded (at most LIGHT_LOAD_WAVES waves in flight here), a wave of three or more whose
 * last partner is still out LAST_ONE_GRACE_MS after the others also goes without it: dedupe
 * merges the others while the slowest partner is still answering, and after it only that
 * partner's records, so a lone search is answered that much sooner after its slowest partner.
 * Under load the wave stays one message: a second merge and answer per search would take CPU
 * that concurrent searches are waiting for.
 */
@Injectable()
export class FetchWaveUseCase {
  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
  ) {}

  private wavesInFlight = 0;

  async execute(message: ProviderFetchRequested.Value): Promise<void> {
    this.wavesInFlight++;
    try {
      await this.fetchWave(message, this.wavesInFlight <= LIGHT_LOAD_WAVES);
    } finally {
      this.wavesInFlight--;
    }
  }

  private async fetchWave(message: ProviderFetchRequested.Value, light: boolean): Promise<void> {
    const now = Date.now();
    const flushAt = now + Math.max(0, message.deadline_at - now) / 2;
    const sent = { messages: 0, records: 0 };
    const calls = message.providers.map((ask) => {
      const call: { batch?: Batch; sent: boolean; done: Promise<void> } = { sent: false, done: Promise.resolve() };
      call.done = this.fetch(message, ask).then((batch) => void (call.batch = batch));
      return call;
    });
    // what is in and not yet sent, in the order the providers were asked
    const flush = async () => {
      const ready = calls.filter((call) => call.batch && !call.sent);
      if (ready.length === 0) return;
      for (const call of ready) call.sent = true;
      const batches = ready.map((call) => call.batch!);
      sent.messages += 1;
      sent.records += batches.reduce((sum, b) => sum + b.records.length, 0);
      await this.publisher.publish(Topics.ProviderRecordsFetched, { v: 1, search_id: message.search_id, batches });
    };
    // the whole wave in one message, unless it is not all in by flushAt (or, lightly loaded, its
    // last partner is late)
    const timers: NodeJS.Timeout[] = [];
    const after = (ms: number) => new Promise<void>((resolve) => timers.push(setTimeout(resolve, ms)));
    const waits: Promise<unknown>[] = [Promise.all(calls.map((call) => call.done)), after(flushAt - Date.now())];
    if (light && calls.length >= 3) waits.push(allButOneIn(calls).then(() => after(LAST_ONE_GRACE_MS)));
    await Promise.race(waits);
    timers.forEach(clearTimeout);
    await flush();
    // then each answer as it comes; those that end in the same turn (the deadline's timeouts) together
    while (calls.some((call) => !call.sent)) {
      const waiting = calls.filter((call) => !call.batch);
      if (waiting.length > 0) await Promise.race(waiting.map((call) => call.done));
      await new Promise<void>((resolve) => setImmediate(resolve));
      await flush();
    }
    annotateStage({
      'search.id': message.search_id,
      'wave.providers': calls.length,
      'wave.messages': sent.messages,
      'records.out': sent.records,
    });
  }

  private async fetch(message: ProviderFetchRequested.Value, ask: Ask): Promise<Batch> {
    const started = Date.now();
    // paged from where the search's previous page of this provider ended (its first page by default)
    const paging: ResumablePaging = { start: ask.from ?? null };
    const { outcome, records } = await this.calls.call(
      ask.provider,
      { filters: message.filters, want: message.want, paging },
      message.deadline_at,
      { search_id: message.search_id },
    );
    return {
      provider: ask.provider,
      outcome,
      latency_ms: Date.now() - started,
      fetched_at: new Date().toISOString(),
      records: message.count_only ? [] : records,
      // where a later page continues: unchanged after a failure, so it can be asked again
      next:
        outcome === 'ok'
          ? paging.next
            ? { kind: 'pages', page: paging.next }
            : null
          : { kind: 'pages', page: ask.from ?? null },
      // what the provider says matches the whole query (its first page read): a dry run's estimate counts every page
      // from it
      ...(outcome === 'ok' && paging.totals?.[0] !== undefined ? { total: paging.totals[0] } : {}),
    };
  }
}

/** Resolves once every call of the wave but one has ended. */
function allButOneIn(calls: ReadonlyArray<{ done: Promise<void> }>): Promise<void> {
  return new Promise((resolve) => {
    let ended = 0;
    for (const call of calls) void call.done.then(() => ++ended === calls.length - 1 && resolve());
  });
}

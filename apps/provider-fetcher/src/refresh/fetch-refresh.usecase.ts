import { Injectable } from '@nestjs/common';
import { Topics, type FetchOutcome, type RefreshFetchRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { ProviderCalls } from '../calls/provider-calls.js';

/**
 * Reads one provider's current listing for one refresh scope, up to `want` records, within the
 * deadline, and hands it to dedupe. `complete` only when the provider answered and the listing
 * ended before `want` (read to its end): only then may dedupe judge absences. A failure or a
 * timeout carries no records and is never complete, so it never closes a job.
 */
@Injectable()
export class FetchRefreshUseCase {
  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: RefreshFetchRequested.Value): Promise<void> {
    const started = Date.now();
    // the own crawler also lists recently closed openings with their reason
    const filters = message.provider === 'own_index' ? { ...message.scope.filters, include_closed: true } : message.scope.filters;
    const { outcome, records } = await this.calls.call(message.provider, { filters, want: message.want }, message.deadline_at, { refresh_id: message.refresh_id, scope: message.scope.key });
    await this.publisher.publish(Topics.RefreshRecordsFetched, {
      v: 1,
      refresh_id: message.refresh_id,
      scope: message.scope,
      provider: message.provider,
      outcome,
      complete: isComplete(outcome, records.length, message.want),
      latency_ms: Date.now() - started,
      fetched_at: new Date().toISOString(),
      records,
    });
  }
}

/** A listing was read to its end: the provider answered and had fewer records than asked for. */
export function isComplete(outcome: FetchOutcome, records: number, want: number): boolean {
  return outcome === 'ok' && records < want;
}

import { ValueType, type Counter, type Histogram } from '@opentelemetry/api';
import { jobsMeter, secondsHistogram } from '@jobs/observability';

/** How one attempt left its delivery, as the metrics label it. */
export type AttemptLabel = 'delivered' | 'retrying' | 'gave_up' | 'refused';

/** From the delivery's status after the attempt (DeliveryStore.finish). */
export function attemptLabel(status: string): AttemptLabel {
  switch (status) {
    case 'succeeded':
      return 'delivered';
    case 'pending':
      return 'retrying';
    case 'refused':
      return 'refused';
    default:
      return 'gave_up';
  }
}

/**
 * Bounds (seconds) of the delivery lag histogram: the shared latency buckets' range (to 30 s), then
 * minutes to an hour, where a backlog or a stopped dispatcher puts it. The event freshness SLO is
 * read at 10 s (deploy/prometheus).
 */
export const DELIVERY_LAG_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/** `webhook_delivery_attempts_total` and `webhook_delivery_seconds`, by outcome; `webhook_delivery_lag_seconds`. */
export class DeliveryMetrics {
  private readonly attempts: Counter;
  private readonly seconds: Histogram;
  private readonly lag: Histogram;

  constructor() {
    const meter = jobsMeter();
    this.attempts = meter.createCounter('webhook_delivery_attempts_total', {
      description: 'Webhook delivery attempts, by outcome (delivered, retrying, gave_up, refused).',
    });
    this.seconds = secondsHistogram(
      meter,
      'webhook_delivery_seconds',
      'Time of one webhook attempt (signing and the POST), by outcome.',
    );
    this.lag = meter.createHistogram('webhook_delivery_lag_seconds', {
      description:
        "Seconds from an event's creation to the start of its first " +
        'delivery attempt (original deliveries): how fresh events ' +
        'reach customers, whatever their endpoints answer.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: DELIVERY_LAG_BUCKETS_SECONDS },
    });
  }

  /**
   * An attempt starts: the first one of an original delivery says how long the event took to
   * reach its endpoint's door (replays resend old events on request; retries measure the endpoint).
   */
  started(claim: { kind: string; attempt: number; eventCreatedAt: Date }, startedAt: Date): void {
    if (claim.kind !== 'original' || claim.attempt !== 1) return;
    this.lag.record(Math.max(0, (startedAt.getTime() - claim.eventCreatedAt.getTime()) / 1000));
  }

  record(status: string, seconds: number): void {
    const attributes = { outcome: attemptLabel(status) };
    this.attempts.add(1, attributes);
    this.seconds.record(seconds, attributes);
  }
}

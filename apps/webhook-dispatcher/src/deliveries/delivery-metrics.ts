import type { Counter, Histogram } from '@opentelemetry/api';
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

/** `webhook_delivery_attempts_total` and `webhook_delivery_seconds`, by outcome. */
export class DeliveryMetrics {
  private readonly attempts: Counter;
  private readonly seconds: Histogram;

  constructor() {
    const meter = jobsMeter();
    this.attempts = meter.createCounter('webhook_delivery_attempts_total', { description: 'Webhook delivery attempts, by outcome (delivered, retrying, gave_up, refused).' });
    this.seconds = secondsHistogram(meter, 'webhook_delivery_seconds', 'Time of one webhook attempt (signing and the POST), by outcome.');
  }

  record(status: string, seconds: number): void {
    const attributes = { outcome: attemptLabel(status) };
    this.attempts.add(1, attributes);
    this.seconds.record(seconds, attributes);
  }
}

import type { Counter } from '@opentelemetry/api';
import type { ChargePlan } from '@jobs/billing-rules';
import { jobsMeter } from '@jobs/observability';

/** What a charge pays for: a sync search page, an async search chunk, a watch event, one job. */
export type ChargeKind = 'search' | 'async' | 'event' | 'job';

/**
 * `billing_charges_total`, `billing_credits_charged_total`, `billing_already_paid_jobs_total`, by kind;
 * `billing_paid_jobs_reread_total`, `billing_unlocked_charge_stale_total`.
 */
export class ChargeMetrics {
  private readonly charges: Counter;
  private readonly credits: Counter;
  private readonly alreadyPaid: Counter;
  private readonly reread: Counter;
  private readonly stale: Counter;

  constructor() {
    const meter = jobsMeter();
    this.charges = meter.createCounter('billing_charges_total', {
      description:
        'Charges decided (once per charge, redeliveries excluded), by ' +
        'kind and outcome (charged, insufficient_credits, expired: ' +
        'reached after its asker stopped waiting, nothing charged).',
    });
    this.credits = meter.createCounter('billing_credits_charged_total', {
      description: 'Credits taken from accounts, by kind.',
    });
    this.alreadyPaid = meter.createCounter('billing_already_paid_jobs_total', {
      description: 'Jobs returned free because the account had paid for them before, by kind.',
    });
    this.stale = meter.createCounter('billing_unlocked_charge_stale_total', {
      description:
        "Unlocked charges (the sync search's page) whose write found " +
        'the account changed since their read (or their answer_by ' +
        'passed while they waited for its lock), and read again.',
    });
    this.reread = meter.createCounter('billing_paid_jobs_reread_total', {
      description:
        'Charges that met another charge of the account committed ' +
        "between their snapshot and the account's lock, and read its " +
        'paid jobs again.',
    });
  }

  /** A charge read its paid jobs again after the account's lock (another charge committed in between). */
  paidReadAgain(): void {
    this.reread.add(1);
  }

  /** An unlocked charge found the account changed since its read: it reads again. */
  unlockedAttemptStale(): void {
    this.stale.add(1);
  }

  /** After the charge's transaction committed. */
  record(kind: ChargeKind, plan: ChargePlan): void {
    if (plan.kind === 'insufficient_credits') {
      this.charges.add(1, { kind, outcome: 'insufficient_credits' });
      return;
    }
    this.charges.add(1, { kind, outcome: 'charged' });
    this.credits.add(plan.creditsCharged, { kind });
    this.alreadyPaid.add(plan.alreadyPaid, { kind });
  }

  /** A charge refused because its asker stopped waiting (nothing written). */
  recordExpired(kind: ChargeKind): void {
    this.charges.add(1, { kind, outcome: 'expired' });
  }
}

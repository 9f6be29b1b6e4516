/** One job of a page and what it costs this account. */
export interface ChargeLine {
  jobId: string;
  reason: 'charged' | 'already_paid';
  credits: 0 | 1;
}

export interface ChargeInput {
  /** The page's jobs, in the order they would be returned. */
  jobIds: readonly string[];
  /** Jobs this account paid for before (any endpoint, any time). */
  alreadyPaid: ReadonlySet<string>;
  creditsRemaining: number;
  /** `waterfall.max_credits`: a hard cap on what this one request may charge. */
  maxCredits: number | null;
  /** Test keys are never charged. */
  mode: 'live' | 'test';
}

export type ChargePlan =
  | { kind: 'ok'; lines: ChargeLine[]; creditsCharged: number; alreadyPaid: number }
  | { kind: 'insufficient_credits'; creditsNeeded: number };

/**
 * The billing rules for one page: a job is charged once per account, ever (re-reads are free
 * and logged already_paid); `max_credits` caps the request and the results stop at the cap;
 * an account that cannot pay for the page it asked for gets 402 with what is missing.
 */
export function planCharges(input: ChargeInput): ChargePlan {
  const unique = [...new Set(input.jobIds)];
  if (input.mode === 'test') return { kind: 'ok', lines: [], creditsCharged: 0, alreadyPaid: 0 };

  const cap = input.maxCredits ?? Number.POSITIVE_INFINITY;
  const lines: ChargeLine[] = [];
  let charged = 0;
  let alreadyPaid = 0;
  for (const jobId of unique) {
    if (input.alreadyPaid.has(jobId)) {
      lines.push({ jobId, reason: 'already_paid', credits: 0 });
      alreadyPaid += 1;
      continue;
    }
    if (charged >= cap) break; // results stop at the cap
    lines.push({ jobId, reason: 'charged', credits: 1 });
    charged += 1;
  }
  if (charged > input.creditsRemaining) {
    return { kind: 'insufficient_credits', creditsNeeded: charged - input.creditsRemaining };
  }
  return { kind: 'ok', lines, creditsCharged: charged, alreadyPaid };
}

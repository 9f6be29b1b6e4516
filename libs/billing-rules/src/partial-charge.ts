import type { ChargeInput, ChargeLine } from './charge-plan.js';

/** Why a partial charge collected only a prefix of its jobs. */
export type PartialStop = 'credits' | 'max_credits';

export interface PartialChargePlan {
  kind: 'ok';
  /** The collected prefix: charged or already-paid lines, in the jobs' order. */
  lines: ChargeLine[];
  creditsCharged: number;
  alreadyPaid: number;
  /** null when every job was collected. */
  stopped: PartialStop | null;
}

/**
 * The billing rules for jobs collected a part at a time (async searches, rule 4: charged as
 * collected): jobs are taken in order, already-paid jobs free (logged already_paid), new jobs 1
 * credit each while the account has credits and `maxCredits` (what the search may still charge)
 * allows. It never refuses: it collects the longest prefix it can and says what stopped it, so
 * the caller can hold the rest (out of credits) or end the search (at its cap). Test keys are
 * never charged and collect everything.
 */
export function planPartialCharges(input: ChargeInput): PartialChargePlan {
  const unique = [...new Set(input.jobIds)];
  if (input.mode === 'test') return { kind: 'ok', lines: [], creditsCharged: 0, alreadyPaid: 0, stopped: null };
  const cap = input.maxCredits ?? Number.POSITIVE_INFINITY;
  const lines: ChargeLine[] = [];
  let charged = 0;
  let alreadyPaid = 0;
  let stopped: PartialStop | null = null;
  for (const jobId of unique) {
    if (input.alreadyPaid.has(jobId)) {
      lines.push({ jobId, reason: 'already_paid', credits: 0 });
      alreadyPaid += 1;
      continue;
    }
    if (charged >= cap) {
      stopped = 'max_credits';
      break;
    }
    if (charged >= input.creditsRemaining) {
      stopped = 'credits';
      break;
    }
    lines.push({ jobId, reason: 'charged', credits: 1 });
    charged += 1;
  }
  return { kind: 'ok', lines, creditsCharged: charged, alreadyPaid, stopped };
}

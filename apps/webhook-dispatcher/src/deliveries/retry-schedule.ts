/**
 * When a failed delivery is tried again (interface.md, Delivery 5): 1 m, 5 m, 30 m, 2 h, 6 h,
 * 12 h and 24 h after the FIRST failed attempt, each multiplied by WEBHOOK_RETRY_SCALE, then
 * never again. Pure.
 *
 * A retry slot whose time has already passed when an attempt fails (a dispatcher that was down
 * for hours, a receiver that answered after 10 s under a tiny scale) is skipped rather than
 * fired back to back: the next retry is the first slot still ahead; if none is ahead but the
 * 24 h slot was never used, that last retry happens at once.
 */
import { WEBHOOK_RETRY_SCHEDULE_MS } from '@jobs/contracts';

export interface RetryState {
  /** Schedule slots used so far, 0..7. */
  retrySlot: number;
  /** When the first attempt failed; null before any failure. */
  firstFailedAt: Date | null;
}

export type AfterFailure =
  | { kind: 'retry'; dueAt: Date; retrySlot: number; firstFailedAt: Date }
  | { kind: 'give_up'; retrySlot: number; firstFailedAt: Date };

export function retryDelayMs(slot: number, scale: number): number {
  const base = WEBHOOK_RETRY_SCHEDULE_MS[slot];
  if (base === undefined) throw new RangeError(`no retry slot ${slot}`);
  return Math.round(base * scale);
}

/** The state after an attempt that failed at `failedAt`. */
export function afterFailure(state: RetryState, failedAt: Date, scale: number): AfterFailure {
  if (!(scale > 0)) throw new RangeError('WEBHOOK_RETRY_SCALE must be positive');
  const firstFailedAt = state.firstFailedAt ?? failedAt;
  const slots = WEBHOOK_RETRY_SCHEDULE_MS.length;
  if (state.retrySlot >= slots) return { kind: 'give_up', retrySlot: state.retrySlot, firstFailedAt };
  for (let slot = state.retrySlot; slot < slots; slot++) {
    const dueAt = new Date(firstFailedAt.getTime() + retryDelayMs(slot, scale));
    if (dueAt.getTime() > failedAt.getTime()) return { kind: 'retry', dueAt, retrySlot: slot + 1, firstFailedAt };
  }
  return { kind: 'retry', dueAt: failedAt, retrySlot: slots, firstFailedAt };
}

import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { WorldBoardAts } from '@jobs/sim-world';
import { SIM_OPTIONS, type SimOptions } from '../config/sim-options.js';

/**
 * How a board fails: a 503, no answer until the simulator's timeout, a 200 that is not the ATS's
 * format, or its answer with one item that names its id and nothing else (`unreadable_item`).
 */
export const BOARD_FAIL_MODES = ['none', 'error', 'timeout', 'garbage', 'unreadable_item'] as const;
export type BoardFailMode = (typeof BOARD_FAIL_MODES)[number];

/**
 * The failure set on each board through the control API (none by default). Held answers are
 * released when the client goes away or the application shuts down.
 */
@Injectable()
export class BoardBehaviourService implements OnModuleDestroy {
  private readonly modes = new Map<string, BoardFailMode>();
  private readonly pending = new Set<() => void>();
  private closing = false;

  constructor(@Inject(SIM_OPTIONS) private readonly options: SimOptions) {}

  failOf(ats: WorldBoardAts, board: string): BoardFailMode {
    return this.modes.get(key(ats, board)) ?? 'none';
  }

  setFail(ats: WorldBoardAts, board: string, mode: BoardFailMode): void {
    if (mode === 'none') this.modes.delete(key(ats, board));
    else this.modes.set(key(ats, board), mode);
  }

  /** Resolves after the simulator's timeout, or earlier when the client aborts or the app closes. */
  holdUntilTimeout(signal: AbortSignal): Promise<void> {
    if (this.closing || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        this.pending.delete(finish);
        resolve();
      };
      const timer = setTimeout(finish, this.options.timeoutMs);
      signal.addEventListener('abort', finish, { once: true });
      this.pending.add(finish);
    });
  }

  onModuleDestroy(): void {
    this.closing = true;
    for (const release of [...this.pending]) release();
  }
}

function key(ats: WorldBoardAts, board: string): string {
  return `${ats}/${board.toLowerCase()}`;
}

/** A board's breaker settings: how many failed reads in a row open it, and how long it stays open. */
export interface BoardBreakerSettings {
  threshold: number;
  cooldownMs: number;
}

export const DEFAULT_BOARD_BREAKER: BoardBreakerSettings = { threshold: 3, cooldownMs: 5 * 60_000 };

interface BoardCircuit {
  failures: number;
  openUntil: number;
}

/**
 * One circuit breaker per board (`ats:board`): a board that keeps failing is not asked while
 * open, and its failures never count against any other board or the own crawler's other reads.
 * After the cool-down one read goes through (half-open): a good one closes the breaker, a failed
 * one opens it again.
 */
export class BoardBreakers {
  private readonly circuits = new Map<string, BoardCircuit>();

  constructor(
    private readonly settings: BoardBreakerSettings = DEFAULT_BOARD_BREAKER,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the board may be read now; when not, until when its breaker is open. */
  admit(board: string): { ok: true } | { ok: false; openUntil: number } {
    const circuit = this.circuits.get(board);
    if (!circuit || circuit.failures < this.settings.threshold || this.now() >= circuit.openUntil) return { ok: true };
    return { ok: false, openUntil: circuit.openUntil };
  }

  succeeded(board: string): void {
    this.circuits.delete(board);
  }

  /** Counts a failed read; true when it opened (or re-opened) the board's breaker. */
  failed(board: string): boolean {
    const circuit = this.circuits.get(board) ?? { failures: 0, openUntil: 0 };
    circuit.failures += 1;
    this.circuits.set(board, circuit);
    if (circuit.failures < this.settings.threshold) return false;
    circuit.openUntil = this.now() + this.settings.cooldownMs;
    return true;
  }

  /** Boards whose breaker is open now. */
  openCount(): number {
    const now = this.now();
    let open = 0;
    for (const c of this.circuits.values()) if (c.failures >= this.settings.threshold && now < c.openUntil) open += 1;
    return open;
  }
}

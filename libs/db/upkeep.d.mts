// Types of upkeep.mjs (plain ESM so the set-up runs it before any TypeScript build).
export declare const UPKEEP_CHECK_MS: number;
export declare const UPKEEP_MIN_GAP_MS: number;
export declare const UPKEEP_GROWTH_FACTOR: number;

export interface TableCounters {
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
}

export type UpkeepAction = { table: string; statement: 'vacuum_analyze' | 'analyze' };

export interface UpkeepLog {
  info(message: string): void;
  warn(message: string): void;
}

/** What autovacuum would do now with its default thresholds. */
export declare function upkeepFor(counters: readonly TableCounters[]): UpkeepAction[];

/** The upkeep of one database, on a connection of the tables' owner. */
export declare class TableUpkeep {
  constructor(databaseUrl: string, log: UpkeepLog);
  /** One look at the counters and what they call for; `force` acts even where the server's autovacuum runs. */
  runOnce(force?: boolean): Promise<UpkeepAction[]>;
  /** Checks every `everyMs` (default UPKEEP_CHECK_MS) until `stop`. */
  start(everyMs?: number): void;
  stop(): Promise<void>;
}

import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';


/** How often the upkeep looks at the tables' counters (one cheap read of pg_stat_user_tables). */
export const UPKEEP_CHECK_MS = 60_000;

/**
 * A table is vacuumed or analyzed at most this often: statistics of a job store move slowly, and
 * sightings change a tenth of `canonical_jobs` a minute, which by the thresholds alone would
 * re-analyze it (0.5 s of PostgreSQL CPU) every minute.
 */
export const UPKEEP_MIN_GAP_MS = 10 * 60_000;

/** PostgreSQL's own autovacuum defaults: act past threshold + scale x live rows. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

export interface TableCounters {
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
}

export type UpkeepAction = { table: string; statement: 'vacuum_analyze' | 'analyze' };

/**
 * What autovacuum would do now with its default settings: `VACUUM (ANALYZE)` a table whose dead
 * rows passed 50 + 20 % of its live ones, `ANALYZE` one whose changes since its last analysis
 * passed 50 + 10 %.
 */
export function upkeepFor(counters: readonly TableCounters[]): UpkeepAction[] {
  return counters.flatMap((c): UpkeepAction[] => {
    if (c.dead > VACUUM_THRESHOLD + VACUUM_SCALE * c.live) return [{ table: c.table, statement: 'vacuum_analyze' }];
    if (c.modifiedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * c.live) return [{ table: c.table, statement: 'analyze' }];
    return [];
  });
}

/**
 * Stands in for the server's autovacuum where it is off (this machine's CI configuration sets
 * `autovacuum = off`), on every table of the schema as autovacuum would: there a refresh pass
 * left 13 dead rows per live one in `canonical_jobs` and the planner, with no statistics at all,
 * read tens of thousands of dead index entries per own index query (p95 61 ms at `limit` 100
 * against 35 ms on the same store analyzed); and the outbox, where every message every service
 * sends is a row inserted and deleted, grew by a dead row a message for good (43,000 dead beside
 * 250 live after one store fill), which each relay's orphan check read. One replica of one
 * service does it for the database, as the server's launcher would. Where autovacuum runs, this
 * does nothing. `SKIP_LOCKED` lets a replica pass over a table another replica (or the server)
 * is already vacuuming.
 */
@Injectable()
export class StoreUpkeep implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await untraced(() => this.runOnce()).catch((error: unknown) => this.logger.warn({ err: error }, 'store upkeep failed; trying again later'));
    return UPKEEP_CHECK_MS;
  });
  private serverVacuums?: boolean;
  /** When this replica last vacuumed or analyzed each table. */
  private readonly lastActed = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaService,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('store-upkeep', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start(UPKEEP_CHECK_MS);
  }

  /** One look at the counters and what they call for; `force` acts even where the server's autovacuum runs (tests). */
  async runOnce(force = false): Promise<UpkeepAction[]> {
    if (!force && (this.serverVacuums ??= await this.autovacuumIsOn())) return [];
    const counters = await this.prisma.$queryRaw<Array<{ table: string; live: bigint; dead: bigint; modified: bigint }>>`
      SELECT relname AS table, n_live_tup AS live, n_dead_tup AS dead, n_mod_since_analyze AS modified
      FROM pg_stat_user_tables WHERE schemaname = current_schema()`;
    const now = Date.now();
    const actions = upkeepFor(counters.map((c) => ({ table: c.table, live: Number(c.live), dead: Number(c.dead), modifiedSinceAnalyze: Number(c.modified) }))).filter(
      (action) => now - (this.lastActed.get(action.table) ?? -Infinity) >= UPKEEP_MIN_GAP_MS,
    );
    for (const action of actions) {
      this.lastActed.set(action.table, now);
      const startedAt = Date.now();
      // a name from the server's own catalog, quoted as an identifier
      const table = `"${action.table.replaceAll('"', '""')}"`;
      await this.prisma.$executeRawUnsafe(action.statement === 'vacuum_analyze' ? `VACUUM (ANALYZE, SKIP_LOCKED) ${table}` : `ANALYZE (SKIP_LOCKED) ${table}`);
      this.logger.info({ table: action.table, statement: action.statement, ms: Date.now() - startedAt }, 'store upkeep');
    }
    return actions;
  }

  private async autovacuumIsOn(): Promise<boolean> {
    const [row] = await this.prisma.$queryRaw<Array<{ autovacuum: string }>>`SHOW autovacuum`;
    const on = row?.autovacuum === 'on';
    this.logger.info({ autovacuum: row?.autovacuum }, on ? 'store upkeep: the server vacuums and analyzes, nothing to do here' : 'store upkeep: the server does not vacuum, dedupe stands in on the schema\'s tables');
    return on;
  }
}

// Stands in for PostgreSQL's autovacuum where a server runs with it off (this machine's CI
// configuration sets `autovacuum = off`), on every table of the schema as autovacuum would: there
// a refresh pass left 13 dead rows per live one in `canonical_jobs` and the planner, with no
// statistics at all, read tens of thousands of dead index entries per own index query; and the
// outbox, where every message is a row inserted and deleted, grew by a dead row a message for
// good, which each relay's orphan check read. VACUUM and ANALYZE need the tables' owner, so the
// local set-up runs this with the migrations' role (scripts/stack), not a service: a service's
// role may only read and write rows. Where autovacuum runs, it does nothing. Plain ESM, like
// migrator.mjs: the set-up runs it before any TypeScript build.
import pg from 'pg';

/** How often the upkeep looks at the tables' counters (one cheap read of pg_stat_user_tables). */
export const UPKEEP_CHECK_MS = 60_000;

/**
 * A table is vacuumed or analyzed at most this often: statistics of a job store move slowly, and
 * sightings change a tenth of `canonical_jobs` a minute, which by the thresholds alone would
 * re-analyze it, a full pass over a large table, every minute.
 */
export const UPKEEP_MIN_GAP_MS = 10 * 60_000;

/**
 * A table grown past this many times its rows at its last upkeep here is looked after at once,
 * within the gap: its statistics describe another table. A store just filled (the first refresh
 * pass, `bench/store-fill.ts`) was otherwise planned for by its empty or small self for up to
 * UPKEEP_MIN_GAP_MS, and the absences' update then walked a provider's every source instead of
 * the scope's companies.
 */
export const UPKEEP_GROWTH_FACTOR = 2;

/** PostgreSQL's own autovacuum defaults: act past threshold + scale x live rows. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;

/**
 * What autovacuum would do now with its default settings: `VACUUM (ANALYZE)` a table whose dead
 * rows passed 50 + 20 % of its live ones, `ANALYZE` one whose changes since its last analysis
 * passed 50 + 10 %.
 */
export function upkeepFor(counters) {
  return counters.flatMap((c) => {
    if (c.dead > VACUUM_THRESHOLD + VACUUM_SCALE * c.live) return [{ table: c.table, statement: 'vacuum_analyze' }];
    if (c.modifiedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * c.live)
      return [{ table: c.table, statement: 'analyze' }];
    return [];
  });
}

/**
 * The upkeep of one database, on a connection of the tables' owner. `runOnce` looks at the
 * counters and acts; `start` does it every UPKEEP_CHECK_MS until `stop`. `SKIP_LOCKED` lets it
 * pass over a table the server (or anyone else) is already vacuuming.
 */
export class TableUpkeep {
  /** @param {string} databaseUrl  @param {{ info(message: string): void, warn(message: string): void }} log */
  constructor(databaseUrl, log) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 1, idleTimeoutMillis: 10_000 });
    this.pool.on('error', () => {}); // an idle connection lost: the next check opens another
    this.log = log;
    /** When each table was last vacuumed or analyzed here, and its live rows then. */
    this.lastActed = new Map();
    this.serverVacuums = undefined;
    this.timer = undefined;
    this.running = undefined;
  }

  /** One look at the counters and what they call for; `force` acts even where the server's autovacuum runs (tests). */
  async runOnce(force = false) {
    if (!force && (this.serverVacuums ??= await this.autovacuumIsOn())) return [];
    const { rows } = await this.pool.query(
      'SELECT relname AS table, n_live_tup AS live, n_dead_tup AS ' +
        'dead, n_mod_since_analyze AS modified FROM ' +
        'pg_stat_user_tables WHERE schemaname = current_schema()',
    );
    const now = Date.now();
    const counters = rows.map((c) => ({
      table: c.table,
      live: Number(c.live),
      dead: Number(c.dead),
      modifiedSinceAnalyze: Number(c.modified),
    }));
    const live = new Map(counters.map((c) => [c.table, c.live]));
    const due = (table) => {
      const last = this.lastActed.get(table);
      return (
        !last ||
        now - last.at >= UPKEEP_MIN_GAP_MS ||
        live.get(table) > UPKEEP_GROWTH_FACTOR * last.live + ANALYZE_THRESHOLD
      );
    };
    const actions = upkeepFor(counters).filter((action) => due(action.table));
    for (const action of actions) {
      this.lastActed.set(action.table, { at: now, live: live.get(action.table) });
      const startedAt = Date.now();
      // a name from the server's own catalog, quoted as an identifier
      const table = `"${action.table.replaceAll('"', '""')}"`;
      await this.pool.query(
        action.statement === 'vacuum_analyze'
          ? `VACUUM (ANALYZE, SKIP_LOCKED) ${table}`
          : `ANALYZE (SKIP_LOCKED) ${table}`,
      );
      this.log.info(`table upkeep: ${action.statement} ${action.table} in ${Date.now() - startedAt} ms`);
    }
    return actions;
  }

  /** Checks every UPKEEP_CHECK_MS (the first after one interval) until `stop`. */
  start(everyMs = UPKEEP_CHECK_MS) {
    const tick = () => {
      this.running = this.runOnce()
        .catch((error) => this.log.warn(`table upkeep failed (${error.message}); trying again later`))
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(tick, everyMs);
        });
    };
    this.timer = setTimeout(tick, everyMs);
  }

  async stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.pool.end();
  }

  async autovacuumIsOn() {
    const { rows } = await this.pool.query('SHOW autovacuum');
    const on = rows[0]?.autovacuum === 'on';
    this.log.info(
      on
        ? 'table upkeep: the server vacuums and analyzes, nothing to do here'
        : 'table upkeep: the server does not vacuum; the set-up stands ' + "in on the schema's tables",
    );
    return on;
  }
}

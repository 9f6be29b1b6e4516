/**
 * What every service benchmark needs from the running stack: where it is (env, defaulting to the
 * dev stack of `npm run up`), a fresh account of its own, and percentiles of its latencies.
 */
export const baseUrl = process.env['BASE_URL'] ?? 'http://127.0.0.1:8080';
export const adminUrl = process.env['ADMIN_URL'] ?? 'http://127.0.0.1:8081';
export const adminToken = process.env['ADMIN_TOKEN'] ?? 'dev-admin-token';

export interface BenchAccountSettings {
  plan: string;
  credits: number;
  rate_limit?: { limit: number; window_seconds: number };
}

/** Creates an account through the admin API; its id and live key. */
export async function createBenchAccount(
  settings: BenchAccountSettings,
): Promise<{ accountId: string; liveKey: string }> {
  const created = await fetch(`${adminUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  if (created.status !== 201) throw new Error(`account creation answered ${created.status}: ${await created.text()}`);
  const body = (await created.json()) as Record<string, unknown>;
  return { accountId: String(body['account_id']), liveKey: String(body['live_key']) };
}

/** The p-th percentile (nearest rank, rounding down) of values sorted ascending; 0 when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * The stack database's owner role (the one that ran the migrations): DATABASE_URL when set, else
 * `postgres` on the server and database of a service's connection string. A service's own role
 * may read and write only its tables; a benchmark reads the whole store and vacuums it.
 */
export function ownerDatabaseUrl(serviceUrl: string | undefined): string | undefined {
  if (process.env['DATABASE_URL']) return process.env['DATABASE_URL'];
  if (!serviceUrl) return undefined;
  const url = new URL(serviceUrl);
  url.username = 'postgres';
  url.password = '';
  return url.toString();
}

/**
 * This machine's PostgreSQL runs with `autovacuum = off` (its CI configuration), so the store's
 * tables, rewritten by every refresh pass and every search's sightings, pile up dead rows and
 * stale statistics within minutes, and every query then reads through them: a server in
 * production vacuums them continuously. Benchmarks call this before each measured level, so they
 * measure the stack, not the bloat; it does nothing where autovacuum runs. Returns a line for
 * the report.
 *
 * Only tables holding rows: statistics taken of an empty table say it is empty, and a service's
 * prepared statements planned on them keep their plan (for an empty table) while the table grows,
 * until its next analysis. Autovacuum never analyzes a table nothing was written to; a whole
 * database's `VACUUM (ANALYZE)` would leave the webhook tables "empty" for a `webhooks` run after
 * this benchmark, whose claims would then read every delivery and attempt until the table upkeep
 * analyzed them.
 */
export async function vacuumIfAutovacuumIsOff(databaseUrl: string | undefined): Promise<string> {
  if (!databaseUrl) return 'no DATABASE_URL: store not vacuumed';
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { autovacuum } = (await db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]!;
    if (autovacuum === 'on') return 'autovacuum on: nothing to do';
    const started = performance.now();
    const { rows } = await db.query<{ name: string }>(
      'SELECT quote_ident(relname) AS name FROM pg_stat_user_tables ' +
        'WHERE schemaname = current_schema() AND n_live_tup + n_dead_tup > 0 ORDER BY relname',
    );
    if (rows.length > 0) await db.query(`VACUUM (ANALYZE) ${rows.map((row) => row.name).join(', ')}`);
    return (
      `autovacuum off on this server: VACUUM (ANALYZE) of the stack ` +
      `database's ${rows.length} tables holding rows in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s ` +
      `before measuring`
    );
  } finally {
    await db.end();
  }
}

/** The median (nearest rank, rounding down) of values in any order; 0 when empty. */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

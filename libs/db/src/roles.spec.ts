// Integration test against the real PostgreSQL (DATABASE_URL's server): the grants the migrations
// make are exactly the matrix of roles.mjs, every table has one owner, and a service role writing
// another service's table is refused. The server's local connections are trusted (no passwords).
import pg from 'pg';
import {
  PRIVILEGES,
  SERVICE_ROLES,
  SHARED_PRIVILEGES,
  TABLE_GRANTS,
  type DatabaseService,
  serviceDatabaseUrl,
  serviceUrlVariable,
  setRolePasswords,
} from '../roles.mjs';
import { throwawayDatabase, type ThrowawayDatabase } from './testing/index.js';

const services = Object.keys(SERVICE_ROLES) as DatabaseService[];

/** `table -> sorted privileges` a service's role should hold. */
function expectedGrants(service: DatabaseService): Record<string, string[]> {
  const { owns, shares, reads } = TABLE_GRANTS[service];
  const grants: Record<string, string[]> = {};
  for (const table of owns) grants[table] = [...PRIVILEGES.owns];
  for (const table of shares) grants[table] = [...SHARED_PRIVILEGES[table]];
  for (const table of reads) grants[table] = [...PRIVILEGES.reads];
  return Object.fromEntries(Object.entries(grants).map(([table, privileges]) => [table, privileges.sort()]));
}

async function asRole<T>(
  db: ThrowawayDatabase,
  service: DatabaseService,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: serviceDatabaseUrl(db.url, service) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The SQLSTATE a statement fails with (inside a transaction rolled back either way), or 'ok'. */
async function outcome(client: pg.Client, sql: string): Promise<string> {
  await client.query('BEGIN');
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.query('ROLLBACK');
  }
}

const PERMISSION_DENIED = '42501';

describe('service roles and table grants', () => {
  let db: ThrowawayDatabase;

  beforeAll(async () => {
    db = await throwawayDatabase('roles');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('grant each role exactly the tables roles.mjs declares, with the declared privileges', async () => {
    const rows = await db.prisma.$queryRaw<Array<{ grantee: string; table_name: string; privilege_type: string }>>`
      SELECT grantee, table_name, privilege_type FROM information_schema.role_table_grants
      WHERE table_schema = current_schema() AND grantee = ANY(${Object.values(SERVICE_ROLES)}::text[])`;
    for (const service of services) {
      const held: Record<string, string[]> = {};
      for (const row of rows.filter((r) => r.grantee === SERVICE_ROLES[service]))
        (held[row.table_name] ??= []).push(row.privilege_type);
      for (const privileges of Object.values(held)) privileges.sort();
      expect({ service, grants: held }).toEqual({ service, grants: expectedGrants(service) });
    }
  });

  it('give every table of the schema one owning service, or name it shared', async () => {
    const tables = (
      await db.prisma.$queryRaw<Array<{ name: string }>>`
        SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <>
          '_prisma_migrations'`
    ).map((t) => t.name);
    const owners = new Map<string, string[]>();
    for (const service of services)
      for (const table of TABLE_GRANTS[service].owns) owners.set(table, [...(owners.get(table) ?? []), service]);
    for (const table of Object.keys(SHARED_PRIVILEGES)) owners.set(table, [...(owners.get(table) ?? []), 'shared']);
    expect(tables.sort().map((table) => [table, owners.get(table)?.length ?? 0])).toEqual(
      tables.map((table) => [table, 1]),
    );
    expect([...owners.keys()].sort()).toEqual(tables);
  });

  it(
    "refuse a service role writing another service's table: the " + 'gateway the ledger, billing the API keys',
    async () => {
      const ledgerLine =
        `INSERT INTO ledger_entries (id, account_id, request_id, ` +
        `operation, credits, reason) VALUES ('led_x', 'acc_x', ` +
        `'req_x', 'jobs.search', 1, 'charged')`;
      const apiKey =
        `INSERT INTO api_keys (id, account_id, mode, key_hash, ` +
        `key_prefix) VALUES ('key_x', 'acc_x', 'live', 'h', ` +
        `'svc_live_x')`;
      expect(await asRole(db, 'gateway', (c) => outcome(c, ledgerLine))).toBe(PERMISSION_DENIED);
      expect(await asRole(db, 'gateway', (c) => outcome(c, `UPDATE accounts SET credits_remaining = 1`))).toBe(
        PERMISSION_DENIED,
      );
      expect(await asRole(db, 'billing', (c) => outcome(c, apiKey))).toBe(PERMISSION_DENIED);
      expect(await asRole(db, 'dedupe', (c) => outcome(c, `DELETE FROM paid_jobs`))).toBe(PERMISSION_DENIED);
      expect(await asRole(db, 'gateway', (c) => outcome(c, 'CREATE TABLE scratch (x int)'))).toBe(PERMISSION_DENIED);
      // the owners may; the account row comes first (the keys' foreign key)
      const account =
        `INSERT INTO accounts (id, plan, credits_remaining, ` +
        `credits_reset_at, rate_limit_limit, ` +
        `rate_limit_window_seconds, updated_at) VALUES ('acc_x', ` +
        `'pro', 1, now(), 10, 1, now())`;
      expect(await asRole(db, 'billing', (c) => outcome(c, `${account}; ${ledgerLine}`))).toBe('ok');
      await db.prisma.$executeRawUnsafe(account);
      expect(await asRole(db, 'gateway', (c) => outcome(c, apiKey))).toBe('ok');
      // inserts that draw on a sequence
      const outbox = `INSERT INTO outbox_messages (topic, key, value) VALUES ('t', 'k', '{}')`;
      for (const service of ['billing', 'dedupe', 'search-orchestrator'] as const)
        expect(await asRole(db, service, (c) => outcome(c, outbox))).toBe('ok');
      expect(await asRole(db, 'gateway', (c) => outcome(c, outbox))).toBe(PERMISSION_DENIED);
    },
  );

  it('set a role password only from a URL of that role', async () => {
    expect(await setRolePasswords(db.url, {})).toEqual([]);
    // a trusted local URL carries no password: nothing to set
    expect(
      await setRolePasswords(db.url, { [serviceUrlVariable('billing')]: serviceDatabaseUrl(db.url, 'billing') }),
    ).toEqual([]);
    await expect(
      setRolePasswords(db.url, { DATABASE_URL_BILLING: serviceDatabaseUrl(db.url, 'gateway').replace('@', ':pw@') }),
    ).rejects.toThrow(/connects as "jobs_gateway"; billing's role is jobs_billing/);
  });
});

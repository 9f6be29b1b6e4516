// Table ownership against the running stack's PostgreSQL: every service connects as its own
// role (SERVICE_DATABASE_URLS, what the stack gives each service), and PostgreSQL refuses a role
// that writes another service's table. That each role can do all its service does is what the
// rest of the e2e suite shows, run against services on these roles.
import pg from 'pg';

const urls = new Map(
  (process.env['SERVICE_DATABASE_URLS'] ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=', 2) as [string, string]),
);

function urlOf(service: string): string {
  const url = urls.get(service);
  if (!url) throw new Error(`SERVICE_DATABASE_URLS names no ${service}: run the e2e tests through scripts/stack.mjs`);
  return url;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The statement's outcome inside a transaction that is rolled back either way: 'ok' or its error. */
async function attempt(client: pg.Client, sql: string): Promise<string> {
  await client.query('BEGIN');
  try {
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.query('ROLLBACK');
  }
}

describe('table ownership, enforced by PostgreSQL', () => {
  const clients: pg.Client[] = [];
  let gateway: pg.Client;
  let billing: pg.Client;

  beforeAll(async () => {
    gateway = await connect(urlOf('gateway'));
    billing = await connect(urlOf('billing'));
    clients.push(gateway, billing);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
  });

  it('every service that uses the database is connected as its own role', async () => {
    const owner = await connect(process.env['DATABASE_URL']!);
    clients.push(owner);
    const roles = [...urls.values()].map((url) => decodeURIComponent(new URL(url).username));
    expect(roles.sort()).toEqual([
      'jobs_billing',
      'jobs_dedupe',
      'jobs_gateway',
      'jobs_search_orchestrator',
      'jobs_webhook_dispatcher',
    ]);
    const { rows } = await owner.query<{ usename: string }>(
      'SELECT DISTINCT usename FROM pg_stat_activity WHERE datname ' +
        '= current_database() AND usename = ANY($1::text[])',
      [roles],
    );
    expect(rows.map((r) => r.usename).sort()).toEqual(roles);
  });

  it("refuses the gateway's role a write of the ledger, and billing's role a write of the API keys", async () => {
    expect(
      await attempt(
        gateway,
        `INSERT INTO ledger_entries (id, account_id, request_id, ` +
          `operation, credits, reason) VALUES ('led_own', 'acc_own', ` +
          `'req_own', 'jobs.search', 1, 'charged')`,
      ),
    ).toBe('permission denied for table ledger_entries');
    expect(await attempt(gateway, 'UPDATE accounts SET credits_remaining = credits_remaining + 1')).toBe(
      'permission denied for table accounts',
    );
    expect(
      await attempt(
        billing,
        `INSERT INTO api_keys (id, account_id, mode, key_hash, ` +
          `key_prefix) VALUES ('key_own', 'acc_own', 'live', 'own', ` +
          `'svc_live_own')`,
      ),
    ).toBe('permission denied for table api_keys');
    expect(await attempt(billing, 'DELETE FROM webhook_events')).toBe('permission denied for table webhook_events');
    // endpoint secrets are the dispatcher's: the gateway reads them for its list and asks it for the rest
    expect(await attempt(gateway, "UPDATE webhook_endpoint_secrets SET rotation_id = 'own'")).toBe(
      'permission denied for table webhook_endpoint_secrets',
    );
  });

  it('lets each role read the read models it keeps and write its own tables', async () => {
    for (const table of ['accounts', 'ledger_entries', 'webhook_events', 'refresh_passes', 'webhook_endpoint_secrets'])
      expect(await attempt(gateway, `SELECT count(*) FROM ${table}`)).toBe('ok');
    expect(await attempt(gateway, "UPDATE api_keys SET label = label WHERE id = 'key_none'")).toBe('ok');
    expect(
      await attempt(billing, 'UPDATE accounts SET credits_remaining = credits_remaining ' + "WHERE id = 'acc_none'"),
    ).toBe('ok');
    expect(await attempt(billing, 'SELECT count(*) FROM api_keys')).toBe('permission denied for table api_keys');
  });
});

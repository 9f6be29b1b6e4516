// Table ownership, enforced by PostgreSQL: one login role per service that uses the database,
// granted its own tables, the shared messaging tables it uses, and reads of other services'
// tables it keeps as read models. The roles and grants are made by the migrations
// (prisma/migrations/*_service_roles); this file declares the same matrix for the services'
// connection strings, the set-up scripts, the docs and the spec that compares it with the
// database. Plain ESM, like migrator.mjs: the set-up runs it before any TypeScript build.
import pg from 'pg';

/** The login role of each service that connects to PostgreSQL (provider-fetcher and provider-sim do not). */
export const SERVICE_ROLES = Object.freeze({
  gateway: 'jobs_gateway',
  'search-orchestrator': 'jobs_search_orchestrator',
  dedupe: 'jobs_dedupe',
  billing: 'jobs_billing',
  'webhook-dispatcher': 'jobs_webhook_dispatcher',
});

/** What a service may do on a table it owns, on a shared table, and on a read model. */
export const PRIVILEGES = Object.freeze({
  owns: Object.freeze(['SELECT', 'INSERT', 'UPDATE', 'DELETE']),
  reads: Object.freeze(['SELECT']),
});

/**
 * The shared messaging tables and what their writers may do: the outbox's relay claims rows
 * (`FOR UPDATE`) and deletes them once sent; a processed-message mark is inserted and read, never
 * changed, and deleted once no message can come again (`ProcessedMarksPruner` of billing).
 */
export const SHARED_PRIVILEGES = Object.freeze({
  outbox_messages: Object.freeze(['SELECT', 'INSERT', 'UPDATE', 'DELETE']),
  processed_messages: Object.freeze(['SELECT', 'INSERT', 'DELETE']),
});

/**
 * Per service: the tables it owns (only it writes them), the shared tables it writes, and the
 * tables of others it reads. docs/architecture.md "Table ownership" is this table in words.
 */
export const TABLE_GRANTS = Object.freeze({
  gateway: {
    owns: ['api_keys', 'crawler_boards'],
    shares: [],
    // the account a key belongs to (plan, rate limit, balance); the admin API's refresh status;
    // the dashboard's ledger, usage, webhook deliveries and async searches; the account's webhook endpoints
    reads: [
      'accounts',
      'crawler_board_reads',
      'refresh_requests',
      'refresh_passes',
      'refresh_sweeps',
      'store_verification',
      'ledger_entries',
      'webhook_events',
      'webhook_deliveries',
      'webhook_attempts',
      'webhook_endpoint_secrets',
      'async_searches',
    ],
  },
  'search-orchestrator': {
    owns: ['watches', 'async_searches', 'async_search_legs', 'async_search_results'],
    shares: ['outbox_messages'],
    // the balance of a search billing never answered
    reads: ['accounts'],
  },
  dedupe: {
    owns: [
      'companies',
      'canonical_jobs',
      'job_sources',
      'canonical_job_keys',
      'company_hiring_states',
      'refresh_passes',
      'refresh_sweeps',
      'refresh_owed_reads',
      'refresh_requests',
      'store_verification',
      'crawler_board_reads',
    ],
    shares: ['outbox_messages'],
    // a dry run's estimate leaves out the jobs the account already paid for; the boards the own crawler reads
    reads: ['paid_jobs', 'crawler_boards'],
  },
  billing: {
    owns: ['accounts', 'paid_jobs', 'ledger_entries', 'held_watch_events', 'stopped_watches', 'watch_stops'],
    shares: ['outbox_messages', 'processed_messages'],
    reads: [],
  },
  'webhook-dispatcher': {
    owns: [
      'webhook_events',
      'webhook_deliveries',
      'webhook_attempts',
      'webhook_endpoint_secrets',
      'webhook_endpoint_queues',
    ],
    shares: [],
    // an event of an account that no longer exists is not stored
    reads: ['accounts'],
  },
});

/**
 * The connection string of a service's role on the database of `adminUrl` (same server, port,
 * database and parameters; no password: the local set-up's PostgreSQL trusts loopback).
 */
export function serviceDatabaseUrl(adminUrl, service) {
  const role = SERVICE_ROLES[service];
  if (!role)
    throw new Error(`${service} has no database role; services with one: ${Object.keys(SERVICE_ROLES).join(', ')}`);
  const url = new URL(adminUrl);
  url.username = role;
  url.password = '';
  return url.toString();
}

/**
 * `DATABASE_URL_SEARCH_ORCHESTRATOR` for `search-orchestrator`: where the set-up finds a service's own connection
 * string.
 */
export const serviceUrlVariable = (service) => `DATABASE_URL_${service.toUpperCase().replaceAll('-', '_')}`;

/**
 * Gives each service role the password of its connection string, for servers that ask for one
 * (a deployment: each service's Secret holds its URL; `migrate.mjs deploy` passes them here as
 * DATABASE_URL_<SERVICE>). A URL must name its service's role; one without a password is left
 * alone (the local set-up's loopback is trusted). Answers the roles given a password.
 */
export async function setRolePasswords(adminUrl, env = process.env) {
  const given = Object.keys(SERVICE_ROLES).flatMap((service) => {
    const text = env[serviceUrlVariable(service)];
    if (!text) return [];
    const url = new URL(text);
    const role = SERVICE_ROLES[service];
    if (decodeURIComponent(url.username) !== role) {
      throw new Error(
        `${serviceUrlVariable(service)} connects as ` +
          `"${decodeURIComponent(url.username)}"; ${service}'s role is ` +
          `${role}`,
      );
    }
    return url.password ? [{ role, password: decodeURIComponent(url.password) }] : [];
  });
  if (given.length === 0) return [];
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const { role, password } of given)
      await client.query(
        `ALTER ROLE ${client.escapeIdentifier(role)} LOGIN PASSWORD ${client.escapeLiteral(password)}`,
      );
  } finally {
    await client.end();
  }
  return given.map((g) => g.role);
}

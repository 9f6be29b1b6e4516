// The PostgreSQL side of the migrator: the database URL, connections, creating and dropping a
// database, and readable errors.
import pg from 'pg';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/jobs';
export const CONNECT_TIMEOUT_MS = 10_000;

/** Error with a one-line message meant for humans; `details` holds engine logs / raw errors. */
export class MigrationError extends Error {
  constructor(message, { cause, details } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = 'MigrationError';
    this.details = details ?? '';
  }
}

export function databaseUrlFromEnv(env = process.env) {
  return env['DATABASE_URL'] || DEFAULT_DATABASE_URL;
}

/** The URL without its password, for messages. */
export function redactUrl(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid DATABASE_URL>';
  }
}

export function databaseNameOf(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new MigrationError(`DATABASE_URL is not a valid URL: ${redactUrl(url)}`);
  }
  if (!/^postgres(ql)?:$/.test(u.protocol))
    throw new MigrationError(`DATABASE_URL must be a postgresql:// URL, got ${u.protocol}//…`);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!name) throw new MigrationError(`DATABASE_URL has no database name: ${redactUrl(url)}`);
  return name;
}

export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

export const quoteIdent = (name) => `"${name.replaceAll('"', '""')}"`;

export function describePgError(err) {
  if (err?.code === 'ECONNREFUSED')
    return `connection refused (${err.address ?? ''}:${err.port ?? ''}); is PostgreSQL running?`;
  if (err?.code) return `${err.message} [${err.code}]`;
  if (err instanceof AggregateError && err.errors?.length) return describePgError(err.errors[0]);
  return err?.message ?? String(err);
}

export async function withPgClient(url, fn) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {}); // surfaced through the failing query instead
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates the database named in `url` if it does not exist (connecting to the `postgres`
 * maintenance database of the same server). Returns true when it was created.
 */
export async function ensureDatabase(url, { maintenanceDatabase = 'postgres' } = {}) {
  const name = databaseNameOf(url);
  try {
    await withPgClient(url, async () => {});
    return false;
  } catch (err) {
    if (err?.code !== '3D000') {
      throw new MigrationError(`cannot connect to ${redactUrl(url)}: ${describePgError(err)}`, { cause: err });
    }
  }
  const adminUrl = withDatabase(url, maintenanceDatabase);
  try {
    await withPgClient(adminUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
    return true;
  } catch (err) {
    // created concurrently by someone else: 42P04, or 23505 when both passed the existence check
    if (err?.code === '42P04' || err?.code === '23505') return false;
    throw new MigrationError(`cannot create database "${name}" via ${redactUrl(adminUrl)}: ${describePgError(err)}`, {
      cause: err,
    });
  }
}

/** Drops the database named in `url` (terminating its connections). For tests and tooling. */
export async function dropDatabase(url, { maintenanceDatabase = 'postgres' } = {}) {
  const name = databaseNameOf(url);
  await withPgClient(withDatabase(url, maintenanceDatabase), (c) =>
    c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

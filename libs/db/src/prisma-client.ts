import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client.js';

// The generated client (prisma/schema.prisma → ./generated/prisma, gitignored; produced by the
// `prisma-generate` target): PrismaClient, the Prisma namespace, model types and enums.
export * from './generated/prisma/client.js';

export interface PrismaClientOptions {
  /** Max pg connections of this client's pool (per process). Default 10. */
  poolSize?: number;
  /** Fail a connection attempt after this long. Default 5000 ms. */
  connectionTimeoutMillis?: number;
  /** Close pooled connections idle for this long. Default 30000 ms. */
  idleTimeoutMillis?: number;
  /** Server-side statement_timeout for every query. Default: none. */
  statementTimeoutMillis?: number;
  /**
   * Prisma client log levels (printed by Prisma to stdout). Default: none — errors are thrown to
   * the caller, which matters because expected P2002s (exactly-once inserts) must not spam logs.
   */
  log?: ('query' | 'info' | 'warn' | 'error')[];
}

export const DEFAULT_POOL_SIZE = 10;

/**
 * A PrismaClient on PostgreSQL through the pg driver adapter (no native engine). Prisma
 * connects lazily; call `$connect()` to fail fast and `$disconnect()` to end the pool.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): PrismaClient {
  return new PrismaClient(prismaClientSettings(databaseUrl, options));
}

/**
 * What every PrismaClient of the services is built with (createPrismaClient, PrismaService).
 * `errorFormat: 'minimal'`: with the default format the client captures a call site (`new
 * Error()`, a stack walk) on every query, only to print a code frame in the message of an error,
 * a cost every query pays. Errors keep their code and meta.
 */
export function prismaClientSettings(
  databaseUrl: string,
  options: PrismaClientOptions = {},
  adapter: PrismaPg = createPgAdapter(databaseUrl, options),
) {
  return { adapter, errorFormat: 'minimal' as const, ...(options.log ? { log: options.log } : {}) };
}

/** The driver adapter createPrismaClient() uses, for classes that extend PrismaClient. */
export function createPgAdapter(databaseUrl: string, options: PrismaClientOptions = {}): PrismaPg {
  return pooledAdapter(createPgPool(databaseUrl, options), preparedStatementNames());
}

/** The pg pool behind a client's adapter: its connections, timeouts and session settings. */
export function createPgPool(databaseUrl: string, options: PrismaClientOptions = {}): pg.Pool {
  if (!databaseUrl) throw new Error('@jobs/db: a PostgreSQL connection string (DATABASE_URL) is required');
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isInteger(poolSize) || poolSize < 1)
    throw new Error(`@jobs/db: poolSize must be a positive integer, got ${poolSize}`);
  return new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 30_000,
    // No JIT: the services' statements run for milliseconds, and where the planner overestimates
    // a statement's cost (a table without fresh statistics) compiling it takes longer than
    // running it. Sessions in UTC: Prisma's pg adapter sends a Date as a timestamp without zone
    // and reads a timestamptz's text as UTC whatever offset it carries, so on a server whose
    // time zone is not UTC every stored and read moment would be off by that offset.
    options: '-c jit=off -c TimeZone=UTC',
    ...(options.statementTimeoutMillis !== undefined ? { statement_timeout: options.statementTimeoutMillis } : {}),
  });
}

/** Prisma's adapter on `pool` (ended with the client), its statements named by `names`. */
function pooledAdapter(pool: pg.Pool, names: StatementNames): PrismaPg {
  return new PrismaPg(pool, { statementNameGenerator: names, disposeExternalPool: true });
}

type StatementNames = (query: { sql: string }) => string;

/** Whatever runs a raw read: a client, a transaction's client, or `PooledStatements`. */
export interface SqlReader {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
}

/**
 * Raw statements sent by `pg` itself on the pool of a client's adapter (same connections, same
 * statement names), for the few hot statements where Prisma's raw query path costs more than the
 * statement (a search's load of its canonical jobs and its known-listings read). Called like
 * `$queryRaw`/`$executeRaw` (a tagged template or a `Prisma.Sql`); rows come as pg parses them
 * (jsonb as objects, timestamps as Dates, bigint and numeric as strings). Outside any
 * transaction: each statement commits on its own, so a statement that must share a transaction
 * goes through that transaction's client.
 */
export class PooledStatements implements SqlReader {
  constructor(
    private readonly pool: pg.Pool,
    private readonly names: StatementNames,
  ) {}

  async $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
    return (await this.run(query, values)).rows as T;
  }

  /** The number of rows the statement changed (or returned). */
  async $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number> {
    return (await this.run(query, values)).rowCount ?? 0;
  }

  private run(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Promise<pg.QueryResult> {
    const sql = isSql(query) ? query : sqlOf(query, values);
    const name = this.names({ sql: sql.text });
    return this.pool.query(
      name ? { name, text: sql.text, values: sql.values } : { text: sql.text, values: sql.values },
    );
  }
}

const isSql = (query: TemplateStringsArray | Prisma.Sql): query is Prisma.Sql => query instanceof Prisma.Sql;
const sqlOf = (strings: TemplateStringsArray, values: unknown[]): Prisma.Sql =>
  Prisma.sql(strings, ...(values as Prisma.Sql['values']));

/** A client's adapter and a `PooledStatements` on the same pool. */
export function pooledClientParts(
  databaseUrl: string,
  options: PrismaClientOptions = {},
): { adapter: PrismaPg; statements: PooledStatements } {
  const pool = createPgPool(databaseUrl, options);
  const names = preparedStatementNames();
  return { adapter: pooledAdapter(pool, names), statements: new PooledStatements(pool, names) };
}

/** How many distinct statements one client prepares at most (per connection of its pool). */
export const PREPARED_STATEMENTS_MAX = 200;

/**
 * Names for the adapter's statements, so that `pg` prepares each once per connection and
 * PostgreSQL parses and plans it once (then reuses a generic plan where it costs no more than a
 * custom one): the services run the same few statements over and over, and for the small ones
 * (a batch's known listings, a charge's reads) parsing and planning cost the server more than
 * running them.
 * The name is a digest of the SQL text. A statement whose text varies with its input would make
 * ever more of them; past `max` distinct texts the rest run unnamed, as before.
 */
export function preparedStatementNames(max = PREPARED_STATEMENTS_MAX): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < max) {
      name = `p${createHash('sha1').update(sql).digest('base64url')}`;
      names.set(sql, name);
    }
    // unnamed: pg runs it as an unnamed statement, parsed and planned each time
    return name as string;
  };
}

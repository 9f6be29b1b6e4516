// The database and the build: the Prisma client and migrations (as the owner role, which also
// makes the services' roles), a fresh test database, each service's own connection string, the
// table upkeep where the server does not vacuum, and the Nx build of every project.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { SERVICE_ROLES, serviceDatabaseUrl, serviceUrlVariable, type DatabaseService } from '@jobs/db/roles';
import { TableUpkeep } from '@jobs/db/upkeep';
import { run, say } from './process.ts';
import type { StackSettings } from './settings.ts';

/** Generates the client, drops the database of a fresh run, and applies the migrations as the owner. */
export async function prepareDatabase(databaseUrl: string, fresh: boolean): Promise<void> {
  await run('node', ['scripts/db/generate.mjs']);
  if (fresh) await dropDatabase(databaseUrl);
  await run('node', ['scripts/db/migrate.mjs', 'deploy'], { env: { DATABASE_URL: databaseUrl } });
}

/** The test profile starts from an empty database every run; `deploy` creates it again. */
async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  say(`database ${name} dropped for a fresh run`);
}

const hasRole = (service: string): service is DatabaseService => Object.hasOwn(SERVICE_ROLES, service);

/**
 * The DATABASE_URL a service runs with: its own role (which may write only the tables the service
 * owns, libs/db/roles.mjs) on the run's database, without a password, or DATABASE_URL_<SERVICE>
 * when set (a server that asks for passwords: the migration gives the role that URL's password);
 * none for a service without a database.
 */
export function serviceDatabaseUrlOf(service: string, ownerUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  return hasRole(service) ? (env[serviceUrlVariable(service)] ?? serviceDatabaseUrl(ownerUrl, service)) : undefined;
}

/** `gateway=postgresql://jobs_gateway@…,billing=…`: what each service connects as, for the e2e tests. */
export function serviceDatabaseUrls(ownerUrl: string, env: NodeJS.ProcessEnv): string {
  return Object.keys(SERVICE_ROLES)
    .map((service) => `${service}=${serviceDatabaseUrlOf(service, ownerUrl, env)}`)
    .join(',');
}

/**
 * Where the server's autovacuum is off, the stack vacuums and analyzes the schema's tables as it
 * would (libs/db/upkeep.mjs), as the tables' owner; what it did goes to `table-upkeep.log`.
 */
export function startTableUpkeep(settings: StackSettings, ownerUrl: string): TableUpkeep {
  mkdirSync(settings.logDir, { recursive: true });
  const logFile = join(settings.logDir, 'table-upkeep.log');
  const upkeep = new TableUpkeep(ownerUrl, {
    info: (message) => appendFileSync(logFile, `${new Date().toISOString()} ${message}\n`),
    warn: (message) => say(message),
  });
  upkeep.start();
  return upkeep;
}

export async function build(): Promise<void> {
  say('building every project and bundling each service (nx run-many -t build bundle; cached after the first run) ...');
  await run('nx', ['run-many', '-t', 'build', 'bundle', '--output-style=static'], {
    quiet: true,
    heartbeat: 'still building',
  }).catch((e: Error) => {
    process.stdout.write(`${e.message}\n`);
    throw new Error('build failed');
  });
  say('build done');
}

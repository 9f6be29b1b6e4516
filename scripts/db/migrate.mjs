#!/usr/bin/env node
// Database migrations without Prisma's native schema engine (logic: libs/db/migrator.mjs).
//
//   node scripts/db/migrate.mjs deploy          apply pending migrations (creates the database if missing)
//   node scripts/db/migrate.mjs create <name>   write prisma/migrations/<timestamp>_<name>/ from the schema diff
//   node scripts/db/migrate.mjs diff            print the SQL `create` would write, write nothing
//   node scripts/db/migrate.mjs resolve --rolled-back|--applied <migration>
//                                               after a failed deploy, like `prisma migrate resolve`
//
// Database: env DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/jobs: the owner (admin)
// role, which creates the tables and the services' roles. `deploy` also gives each service role the
// password of DATABASE_URL_<SERVICE> when set (a deployment's per-service Secrets; libs/db/roles.mjs).
// `create`/`diff` replay the migrations on a temporary shadow database on the same server.
// DB_MIGRATE_DEBUG=1 streams the schema engine's logs to stderr.
import { relative } from 'node:path';
import {
  createMigration,
  databaseUrlFromEnv,
  deployMigrations,
  diffMigrationsToSchema,
  MigrationError,
  redactUrl,
  resolveMigration,
  ROOT,
} from '../../libs/db/migrator.mjs';
import { setRolePasswords } from '../../libs/db/roles.mjs';

const USAGE =
  'usage: node scripts/db/migrate.mjs <deploy | create <name> | diff | resolve --rolled-back|--applied <migration>>\n' +
  '  env DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/jobs), DB_MIGRATE_DEBUG=1 for engine logs';

async function main(argv) {
  const [command, ...rest] = argv;
  const databaseUrl = databaseUrlFromEnv();
  switch (command) {
    case 'deploy': {
      if (rest.length) throw new MigrationError(`unexpected arguments: ${rest.join(' ')}\n${USAGE}`);
      const started = Date.now();
      const { createdDatabase, applied, total } = await deployMigrations({ databaseUrl });
      if (createdDatabase) console.log(`[db] created database ${redactUrl(databaseUrl)}`);
      for (const name of applied) console.log(`[db] applied migration ${name}`);
      if (applied.length === 0) console.log(`[db] migrations up to date (${total} applied)`);
      else console.log(`[db] ${applied.length} migration(s) applied in ${Date.now() - started} ms (${total} applied)`);
      const passwords = await setRolePasswords(databaseUrl);
      if (passwords.length > 0) console.log(`[db] passwords set for ${passwords.join(', ')}`);
      return 0;
    }
    case 'create': {
      if (rest.length !== 1) throw new MigrationError(`create takes exactly one name\n${USAGE}`);
      const created = await createMigration(rest[0], { databaseUrl });
      if (!created) {
        console.log('[db] no schema changes: prisma/schema.prisma matches prisma/migrations, nothing written');
        return 0;
      }
      console.log(`[db] created ${relative(ROOT, created.dir)}/migration.sql`);
      console.log('[db] review it, then run: node scripts/db/migrate.mjs deploy');
      return 0;
    }
    case 'diff': {
      const sql = await diffMigrationsToSchema({ databaseUrl });
      process.stdout.write(sql ?? '-- no schema changes\n');
      return 0;
    }
    case 'resolve': {
      const [flag, name] = rest;
      if (rest.length !== 2 || (flag !== '--rolled-back' && flag !== '--applied'))
        throw new MigrationError(`resolve takes --rolled-back|--applied <migration>\n${USAGE}`);
      await resolveMigration(flag.slice(2), name, { databaseUrl });
      console.log(`[db] migration ${name} marked as ${flag.slice(2)}`);
      return 0;
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(USAGE);
      return command ? 0 : 1;
    default:
      throw new MigrationError(`unknown command "${command}"\n${USAGE}`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const message = err instanceof MigrationError ? err.message : (err?.stack ?? String(err));
  console.error(`[db] error: ${message}`);
  if (/failed migrations in the target database/.test(message)) {
    console.error(
      '[db] fix the database by hand, then: node ' +
        'scripts/db/migrate.mjs resolve --rolled-back <migration>  ' +
        '(or --applied)',
    );
  }
  if (err?.details && process.env['DB_MIGRATE_DEBUG'] === undefined) {
    console.error('[db] last schema-engine log lines:');
    console.error(
      err.details
        .split('\n')
        .slice(-10)
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  }
  process.exitCode = 1;
}

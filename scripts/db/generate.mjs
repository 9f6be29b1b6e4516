#!/usr/bin/env node
// Generates the Prisma client (prisma/schema.prisma → libs/db/src/generated/prisma), quietly, and
// only when the inputs changed since the last generation. The stamp (a SHA-256 of the schema, the
// config and the Prisma versions) lives inside the gitignored generated folder, so a fresh clone
// or a deleted folder always regenerates.
//
//   node scripts/db/generate.mjs [--force]
//
// `prisma generate` does not need the native schema engine, but the CLI insists on resolving one:
// PRISMA_SCHEMA_ENGINE_BINARY is pointed at an existing file (this script) unless already set.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schemaPath = join(root, 'prisma', 'schema.prisma');
const configPath = join(root, 'prisma.config.ts');
const generatedDir = join(root, 'libs', 'db', 'src', 'generated');
const clientEntry = join(generatedDir, 'prisma', 'client.ts');
const stampPath = join(generatedDir, '.schema-hash');
const require = createRequire(import.meta.url);

function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`, { paths: [root] }), 'utf8')).version;
  } catch {
    return 'missing';
  }
}

function inputsHash() {
  const h = createHash('sha256');
  for (const file of [schemaPath, configPath, fileURLToPath(import.meta.url)]) {
    h.update(file.slice(root.length))
      .update('\0')
      .update(existsSync(file) ? readFileSync(file) : '')
      .update('\0');
  }
  h.update(`prisma@${versionOf('prisma')} @prisma/client@${versionOf('@prisma/client')}`);
  return h.digest('hex');
}

const force = process.argv.includes('--force');
const hash = inputsHash();
if (!force && existsSync(clientEntry) && existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === hash) {
  if (process.env['DB_GENERATE_VERBOSE']) console.log('[db] prisma client up to date');
  process.exit(0);
}

let prismaCli;
try {
  prismaCli = require.resolve('prisma/build/index.js', { paths: [root] });
} catch {
  console.error('[db] the `prisma` CLI is not installed (devDependency); run `npm install` at the repository root');
  process.exit(1);
}

const started = Date.now();
const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', relative(root, schemaPath)], {
  cwd: root,
  encoding: 'utf8',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env['PRISMA_SCHEMA_ENGINE_BINARY'] || fileURLToPath(import.meta.url),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    PRISMA_GENERATE_NO_HINTS: '1',
    CHECKPOINT_DISABLE: '1',
    NO_COLOR: '1',
  },
});
if (result.error || result.status !== 0) {
  console.error(`[db] prisma generate failed (exit ${result.status ?? result.error?.message})`);
  process.stderr.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  process.exit(1);
}
if (!existsSync(clientEntry)) {
  console.error(`[db] prisma generate succeeded but ${relative(root, clientEntry)} is missing`);
  process.stderr.write(result.stdout ?? '');
  process.exit(1);
}
mkdirSync(generatedDir, { recursive: true });
writeFileSync(stampPath, `${hash}\n`);
console.log(`[db] prisma client generated in ${Date.now() - started} ms`);

// Prisma's schema engine (its WASM build) driven through the pg driver adapter, with the adapter
// fixes the engine needs.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import {
  CONNECT_TIMEOUT_MS,
  databaseNameOf,
  describePgError,
  dropDatabase,
  MigrationError,
  quoteIdent,
  withDatabase,
  withPgClient,
} from './pg-databases.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCHEMA_PATH = join(ROOT, 'prisma', 'schema.prisma');

const require = createRequire(import.meta.url);

let engineModule;

/**
 * Loads @prisma/schema-engine-wasm. Its entry point does `import * as wasm from
 * './schema_engine_bg.wasm'` (ESM-WASM integration: an ExperimentalWarning on Node 24 and not
 * supported by Jest's VM modules), so the module is instantiated here from the bytes instead,
 * exactly the way that entry point does it. No Node flag is needed.
 */
export function loadSchemaEngine() {
  engineModule ??= (async () => {
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
    // The engine arms 10 s timers (timeouts around its queries) that it never clears: unref them so
    // they cannot keep the process alive after the work is done (withSchemaEngine keeps the event
    // loop alive while an engine call is pending instead).
    const imports = { ...glue };
    for (const name of Object.keys(glue).filter((n) => n.startsWith('__wbg_setTimeout_'))) {
      imports[name] = (...args) => {
        const timer = glue[name](...args);
        timer?.unref?.();
        return timer;
      };
    }
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return glue;
  })();
  engineModule.catch(() => (engineModule = undefined));
  return engineModule;
}

/** The engine's error (an Error, a JSON string or an object) as readable text. */
function engineErrorText(err) {
  return stripSpanTrace(engineErrorRaw(err));
}

/** Drops the Rust span trace (`   0: schema_engine_wasm::…`, `at …rs:242`, `with k=v`) the engine appends. */
function stripSpanTrace(text) {
  return String(text)
    .split('\n')
    .filter((l) => !/^\s+\d+: \S+::/.test(l) && !/^\s+at \S+\.rs:\d+/.test(l) && !/^\s+with \w+=/.test(l))
    .join('\n')
    .trim();
}

function engineErrorRaw(err) {
  let raw = err instanceof Error ? err.message : err;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (raw && typeof raw === 'object') {
    const code = raw.error_code ?? raw.errorCode ?? raw.code;
    const msg = raw.message ?? raw.meta?.message ?? raw.error ?? JSON.stringify(raw);
    return code ? `${code}: ${msg}` : String(msg);
  }
  return String(raw);
}

// ── pg driver-adapter fixes, for the schema engine only (the application runtime is untouched) ──
//
// 1. The engine's schema describer selects catalog columns of Postgres' internal single-byte
//    type "char" (pg_constraint.contype, …), which @prisma/adapter-pg 7.10 rejects
//    ("Column type 'char' could not be deserialized from the database"), so every diff that
//    inspects a database (e.g. --from-migrations) fails. Such catalog-only types are reported to
//    the adapter as `text`; pg already hands their values over as strings.
// 2. The adapter's executeScript() splits a script on every ';' (breaking string literals and
//    function bodies) and runs the pieces one by one (a failure leaves half a migration behind).
//    Migrations are sent as ONE simple-protocol query instead, as the native engine does:
//    Postgres runs it atomically in an implicit transaction.
// 3. The adapter's shadow database is dropped while its own pool still holds connections (and
//    leaks on failure); the shadow database is managed here instead.
const CATALOG_TYPES_AS_TEXT = new Set([
  18, // "char"
  22, // int2vector
  24, // regproc
  28, // xid
  30, // oidvector
  194, // pg_node_tree
  1033, // aclitem
  2205, // regclass
  2206, // regtype
]);
const TEXT_OID = 25;

function catalogTypesAsText(result) {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const f of r?.fields ?? []) if (CATALOG_TYPES_AS_TEXT.has(f.dataTypeID)) f.dataTypeID = TEXT_OID;
  }
  return result;
}

class SchemaEnginePgClient extends pg.Client {
  // pg.Pool#query uses the callback form, a checked-out PoolClient the promise form.
  query(config, values, callback) {
    const wrap = (cb) => (err, res) => cb(err, err ? res : catalogTypesAsText(res));
    if (typeof callback === 'function') return super.query(config, values, wrap(callback));
    if (typeof values === 'function') return super.query(config, wrap(values));
    const out = super.query(config, values);
    return out && typeof out.then === 'function' ? out.then(catalogTypesAsText) : out;
  }
}

function poolConfig(url, extra = {}) {
  return {
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    Client: SchemaEnginePgClient,
    ...extra,
  };
}

/** Runs the whole script as one simple-protocol query (see 2. above). */
function withWholeScriptExecution(adapter) {
  adapter.executeScript = async function executeScript(script) {
    try {
      await this.client.query(script);
    } catch (err) {
      this.onError(err);
    }
  };
  return adapter;
}

/** Disposes an adapter at most once, even if the engine already did. */
function trackDispose(adapter, open) {
  const dispose = adapter.dispose.bind(adapter);
  let done;
  adapter.dispose = () => {
    open.delete(adapter);
    return (done ??= dispose());
  };
  open.add(adapter);
  return adapter;
}

/** `{ factory, close }`: the factory for SchemaEngine.new(); close() ends whatever it left open. */
function migrationAdapterFactory(url) {
  const main = new PrismaPg(poolConfig(url));
  const open = new Set();
  const factory = bindMigrationAwareSqlAdapterFactory({
    adapterName: main.adapterName,
    provider: main.provider,
    connect: async () => trackDispose(withWholeScriptExecution(await main.connect()), open),
    connectToShadowDb: async () => {
      const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
      await withPgClient(url, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
      const shadowUrl = withDatabase(url, name);
      try {
        const adapter = withWholeScriptExecution(await new PrismaPg(poolConfig(shadowUrl)).connect());
        const dispose = adapter.dispose.bind(adapter);
        adapter.dispose = async () => {
          try {
            await dispose(); // ends the shadow pool
          } finally {
            await dropDatabase(shadowUrl, { maintenanceDatabase: databaseNameOf(url) });
          }
        };
        return trackDispose(adapter, open);
      } catch (err) {
        await dropDatabase(shadowUrl, { maintenanceDatabase: databaseNameOf(url) }).catch(() => {});
        throw err;
      }
    },
  });
  const close = async () => {
    const errors = [];
    for (const adapter of [...open]) await adapter.dispose().catch((e) => errors.push(e));
    if (errors.length) throw errors[0];
  };
  return { factory, close };
}

/**
 * Runs `fn(engine)` with a schema engine bound to `url` through the pg adapter, then frees it.
 * Engine logs are buffered and attached to errors (or streamed to stderr with DB_MIGRATE_DEBUG=1).
 */
export async function withSchemaEngine(url, { schemaPath = SCHEMA_PATH } = {}, fn) {
  const { SchemaEngine } = await loadSchemaEngine();
  const schema = await readSchema(schemaPath);
  const logs = [];
  const debug = !!process.env['DB_MIGRATE_DEBUG'];
  const onLog = (line) => {
    if (debug) process.stderr.write(`[schema-engine] ${line}\n`);
    logs.push(String(line));
    if (logs.length > 50) logs.shift();
  };
  const { factory, close } = migrationAdapterFactory(url);
  const keepAlive = setInterval(() => {}, 60_000); // see loadSchemaEngine()
  let engine;
  try {
    engine = await SchemaEngine.new({ datamodels: [[relative(ROOT, schemaPath), schema]] }, onLog, factory);
    return await fn(engine);
  } catch (err) {
    if (err instanceof MigrationError) throw err;
    throw new MigrationError(engineErrorText(err) || describePgError(err?.cause ?? err), {
      cause: err,
      details: logs.join('\n'),
    });
  } finally {
    try {
      engine?.free();
    } catch {
      /* already freed */
    }
    await close().catch(() => {});
    clearInterval(keepAlive);
  }
}

export async function readSchema(schemaPath) {
  try {
    return await readFile(schemaPath, 'utf8');
  } catch (err) {
    throw new MigrationError(`cannot read the Prisma schema ${schemaPath}: ${err.message}`, { cause: err });
  }
}

// The local stack: infrastructure, database, build, services, and the test run.
// Called by scripts/run.sh (which provides Node 24 and the npm packages):
//   node scripts/stack.mjs up     everything, then stay in the foreground until Ctrl-C
//   node scripts/stack.mjs test   the same set-up on separate ports, every check and test, then stop
//   node scripts/stack.mjs e2e    like test, but only the end-to-end tests
//   node scripts/stack.mjs serve  a fresh test stack (no checks, no demo account) kept up until SIGINT,
//                                 for scripts/faults.mjs, which brings its own infrastructure
//   node scripts/stack.mjs down   stop a broker and trace viewer left running by an earlier `up`
// Plain Node (no TypeScript build needed): it runs before anything is built.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync, createWriteStream, renameSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { limitRunTime } from './lib/time-limit.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2] ?? 'up';
const started = Date.now();

/** Two port blocks so that a running `npm run up` and `npm test` never meet. */
const PROFILES = {
  dev: { port: 8080, adminPort: 8081, simPort: 8090, healthBase: 9100, db: 'jobs', redisDb: 0, kafkaInstance: 'dev', kafkaPort: 19092, viewerPort: 9411 },
  test: { port: 18080, adminPort: 18081, simPort: 18090, healthBase: 19100, db: 'jobs_test', redisDb: 1, kafkaInstance: 'test', kafkaPort: 29092, otlpPort: 18095, viewerPort: 18094 },
};
/**
 * STACK_SLOT=1..9 gives a test run its own everything (ports 2N080.., database, Redis db,
 * Kafka instance), so several runs can share one machine.
 */
function slotProfile(slot) {
  const base = 20000 + slot * 1000;
  return { port: base + 80, adminPort: base + 81, simPort: base + 90, healthBase: base + 100, db: `jobs_test_s${slot}`, redisDb: 1 + slot, kafkaInstance: `s${slot}`, kafkaPort: base + 92, otlpPort: base + 95, viewerPort: base + 94 };
}
const slot = Number(process.env.STACK_SLOT ?? 0);
if (!Number.isInteger(slot) || slot < 0 || slot > 9) throw new Error('STACK_SLOT must be 1..9');
const profile = slot > 0 ? slotProfile(slot) : command === 'up' || command === 'down' ? PROFILES.dev : PROFILES.test;
const env = process.env;
const PORT = Number(env.PORT ?? profile.port);
const ADMIN_PORT = Number(env.ADMIN_PORT ?? profile.adminPort);
const SIM_PORT = Number(env.PROVIDER_SIM_PORT ?? profile.simPort);

/** Start order: the partner simulator first, the gateway (which waits for everyone) last. */
const BASE_SERVICES = [
  { name: 'provider-sim', port: SIM_PORT, env: { PROVIDER_SIM_PORT: String(SIM_PORT) } },
  { name: 'billing', port: profile.healthBase + 4 },
  { name: 'dedupe', port: profile.healthBase + 3 },
  { name: 'provider-fetcher', port: profile.healthBase + 2 },
  { name: 'search-orchestrator', port: profile.healthBase + 1 },
  { name: 'webhook-dispatcher', port: profile.healthBase + 5 },
  { name: 'gateway', port: PORT, env: { PORT: String(PORT), ADMIN_PORT: String(ADMIN_PORT) } },
];
/** Services that consume in a Kafka consumer group and may run as several replicas. */
const SCALABLE = ['billing', 'dedupe', 'provider-fetcher', 'search-orchestrator', 'webhook-dispatcher'];

/**
 * SCALE=dedupe=3,billing=2 runs that many replicas of a consumer (1..12: the partitions of its
 * input topics). Replica k > 1 is `<name>#k` (its log `<name>-k.log`), with health port
 * healthBase + 10 (k - 1) + the service's offset, and joins the same consumer group.
 */
function parseScale(text) {
  const scale = new Map();
  for (const part of (text ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, count] = part.split('=');
    const n = Number(count);
    if (!SCALABLE.includes(name) || !Number.isInteger(n) || n < 1 || n > 12) {
      throw new Error(`SCALE: "${part}" is not <consumer>=<1..12>; consumers: ${SCALABLE.join(', ')}`);
    }
    scale.set(name, n);
  }
  return scale;
}
const SCALE = parseScale(env.SCALE);
/** Replica i (0-based) of a service: the first keeps the service's name and port. */
const replicaOf = (service, i) => (i === 0 ? { ...service, id: service.name } : { ...service, id: `${service.name}#${i + 1}`, port: service.port + 10 * i });
const SERVICES = BASE_SERVICES.flatMap((service) => Array.from({ length: SCALE.get(service.name) ?? 1 }, (_, i) => replicaOf(service, i)));

const children = new Map();
let kafkaStartedHere = false;
let viewerStartedHere = false;
/** A trace viewer start still under way when something else fails: stop waits for it. */
let viewerStarting;
/** A broker start still under way when something else fails: stop waits for it, then stops it. */
let kafkaStarting;
let shuttingDown = false;
/**
 * Once every service is ready the stack supervises them: a service that dies is started again
 * (as a process supervisor or Kubernetes would); before that, a death fails the start-up.
 */
let supervising = false;
/** Restarts waiting for their delay, so a shutdown can cancel them. */
const pendingRestarts = new Map();
const logDir = join(ROOT, '.local', 'logs', profile.kafkaInstance);
/** The running services' pids (name -> pid), rewritten on every (re)start and exit, for the e2e tests. */
const pidsFile = join(ROOT, '.local', 'run', profile.kafkaInstance, 'pids.json');
/** The services' inspector ports (id -> port), for bench/profile.ts. */
const inspectFile = join(ROOT, '.local', 'run', profile.kafkaInstance, 'inspect.json');
/**
 * A dead service starts again after this long (a crash loop backs off from it, below): as a
 * kubelet restarts a container at once the first time, a crash costs its recovery no wait of
 * ours (it was 500 ms, 5-7 % of a restart's whole recovery under the fault tests' load).
 */
const RESTART_DELAY_MS = 100;
/** A service that dies again within this long after its start waits twice as long each time (up to 10 s). */
const CRASH_LOOP_WINDOW_MS = 10000;

function say(message) {
  const secs = ((Date.now() - started) / 1000).toFixed(1).padStart(5);
  process.stdout.write(`[stack ${secs}s] ${message}\n`);
}

/**
 * Runs a command to its end. `limitMs` bounds a step that must finish (a test phase): past it,
 * the command and everything it started are killed and the step fails, naming the limit.
 */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...env, ...options.env } });
    let output = '';
    // A quiet step still says it is alive: no silent minutes.
    const since = Date.now();
    const heartbeat = options.heartbeat ? setInterval(() => say(`${options.heartbeat} (${Math.round((Date.now() - since) / 1000)}s) ...`), 15000) : undefined;
    child.on('exit', () => clearInterval(heartbeat));
    const overLimit = limitRunTime(child, options.limitMs, () =>
      say(`${cmd} ${args.join(' ')} ran past its ${options.limitMs / 60_000} min limit: stopping it and everything it started`),
    );
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(output);
      else {
        const why = overLimit() ? `over its ${options.limitMs / 60_000} min limit` : (signal ?? `exit ${code}`);
        const error = new Error(`${cmd} ${args.join(' ')} failed (${why})${output ? `\n${output.trim()}` : ''}`);
        error.exitCode = code ?? 1;
        reject(error);
      }
    });
  });
}

function portOpen(host, port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitFor(what, check, timeoutMs, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

async function which(binary) {
  try {
    return (await run('bash', ['-c', `command -v ${binary}`], { quiet: true })).trim();
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------- infrastructure

async function ensurePostgres() {
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    say(`PostgreSQL from DATABASE_URL (${url.hostname}:${url.port || 5432})`);
    return env.DATABASE_URL;
  }
  if (!(await portOpen('127.0.0.1', 5432))) {
    if (await which('pg_ctlcluster')) {
      say('local PostgreSQL is installed but stopped; starting it ...');
      await run('bash', ['-c', 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | tail -n1) main start'], { quiet: true });
      await waitFor('PostgreSQL on 127.0.0.1:5432', () => portOpen('127.0.0.1', 5432), 30000);
    } else {
      throw new Error('no PostgreSQL: set DATABASE_URL or install the postgresql server package');
    }
  }
  say('PostgreSQL on 127.0.0.1:5432');
  return `postgresql://postgres@127.0.0.1:5432/${profile.db}`;
}

async function ensureRedis() {
  if (env.REDIS_URL) {
    say('Redis from REDIS_URL');
    return env.REDIS_URL;
  }
  if (!(await portOpen('127.0.0.1', 6379))) {
    if (await which('redis-server')) {
      say('local Redis is installed but stopped; starting it ...');
      await run('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], { quiet: true });
      await waitFor('Redis on 127.0.0.1:6379', () => portOpen('127.0.0.1', 6379), 15000);
    } else {
      throw new Error('no Redis: set REDIS_URL or install the redis-server package');
    }
  }
  say('Redis on 127.0.0.1:6379');
  return `redis://127.0.0.1:6379/${profile.redisDb}`;
}

function kafkaEnv() {
  return { KAFKA_INSTANCE: profile.kafkaInstance, KAFKA_PORT: String(profile.kafkaPort), KAFKA_CONTROLLER_PORT: String(profile.kafkaPort + 1) };
}

async function ensureKafka({ fresh }) {
  if (env.KAFKA_BROKERS) {
    say(`Kafka from KAFKA_BROKERS (${env.KAFKA_BROKERS})`);
    return env.KAFKA_BROKERS;
  }
  // A fresh run starts from empty topics too: messages left by an earlier run would name
  // accounts and searches the fresh database never had.
  if (fresh) await run('bash', ['deploy/kafka/kafka.sh', 'reset'], { env: kafkaEnv() });
  const wasRunning = await run('bash', ['deploy/kafka/kafka.sh', 'status'], { quiet: true, env: kafkaEnv() }).then(
    () => true,
    () => false,
  );
  await run('bash', ['deploy/kafka/kafka.sh', 'start'], { env: kafkaEnv() });
  kafkaStartedHere = !wasRunning;
  return `127.0.0.1:${profile.kafkaPort}`;
}

async function stopKafka() {
  if (!kafkaStartedHere) return;
  say('stopping the Kafka broker started by this run ...');
  await run('bash', ['deploy/kafka/kafka.sh', 'stop'], { env: kafkaEnv() }).catch((e) => say(`kafka stop: ${e.message}`));
}

// ---------------------------------------------------------------- trace viewer

/**
 * The trace viewer (Zipkin, deploy/zipkin/): `npm run up` starts it unless TRACE_VIEWER=0; a test
 * stack only when asked, TRACE_VIEWER=1 (the viewer's e2e spec starts it for itself otherwise).
 */
function viewerWanted() {
  const asked = (env.TRACE_VIEWER ?? '').trim().toLowerCase();
  if (['0', 'false', 'off', 'no'].includes(asked)) return false;
  if (['1', 'true', 'on', 'yes'].includes(asked)) return true;
  return command === 'up';
}
const TRACE_VIEWER_URL = `http://127.0.0.1:${profile.viewerPort}`;

function viewerEnv() {
  return { ZIPKIN_PORT: String(profile.viewerPort), ZIPKIN_INSTANCE: profile.kafkaInstance };
}

/** Starts the viewer; a viewer that will not start costs `up` its traces, not the API (a warning). */
async function ensureTraceViewer() {
  if (!viewerWanted()) {
    // A test stack's viewer spec starts the viewer itself: its jar is fetched now, beside the
    // broker's start, rather than inside a test.
    if (command !== 'up') await run('bash', ['deploy/zipkin/zipkin.sh', 'fetch'], { env: viewerEnv() });
    return false;
  }
  const wasRunning = await run('bash', ['deploy/zipkin/zipkin.sh', 'status'], { quiet: true, env: viewerEnv() }).then(
    () => true,
    () => false,
  );
  try {
    await run('bash', ['deploy/zipkin/zipkin.sh', 'start'], { env: viewerEnv() });
  } catch (error) {
    if (command !== 'up') throw error;
    say(`the trace viewer did not start (${error.message.split('\n')[0]}); going on without it`);
    return false;
  }
  viewerStartedHere = !wasRunning;
  return true;
}

async function stopTraceViewer() {
  if (!viewerStartedHere) return;
  await run('bash', ['deploy/zipkin/zipkin.sh', 'stop'], { env: viewerEnv() }).catch((e) => say(`trace viewer stop: ${e.message}`));
}

// ---------------------------------------------------------------- database and build

async function prepareDatabase(databaseUrl, fresh) {
  await run('node', ['scripts/db/generate.mjs']);
  if (fresh) await dropDatabase(databaseUrl);
  await run('node', ['scripts/db/migrate.mjs', 'deploy'], { env: { DATABASE_URL: databaseUrl } });
}

/** The test profile starts from an empty database every run; `deploy` creates it again. */
async function dropDatabase(databaseUrl) {
  const { default: pg } = await import('pg');
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

async function flushRedis(redisUrl) {
  const db = new URL(redisUrl).pathname.slice(1) || '0';
  const { hostname, port } = new URL(redisUrl);
  if (await which('redis-cli')) await run('redis-cli', ['-h', hostname, '-p', port || '6379', '-n', db, 'FLUSHDB'], { quiet: true });
}

async function build() {
  say('building every project and bundling each service (nx run-many -t build bundle; cached after the first run) ...');
  await run('nx', ['run-many', '-t', 'build', 'bundle', '--output-style=static'], { quiet: true, heartbeat: 'still building' }).catch((e) => {
    process.stdout.write(`${e.message}\n`);
    throw new Error('build failed');
  });
  say('build done');
}

// ---------------------------------------------------------------- services

/**
 * The webhook retry schedule's multiplier: 1 under `npm run up`, 0.001 for test stacks (`npm test`
 * and any STACK_SLOT), so the whole 24 h schedule takes about 86 s and e2e tests can watch it.
 */
function webhookRetryScale() {
  return env.WEBHOOK_RETRY_SCALE ?? (profile === PROFILES.dev ? '1' : '0.001');
}

function serviceEnv(infra) {
  return {
    NODE_ENV: command === 'up' ? 'development' : 'test',
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    KAFKA_BROKERS: infra.kafkaBrokers,
    ADMIN_TOKEN: env.ADMIN_TOKEN ?? 'dev-admin-token',
    WORLD_SEED: env.WORLD_SEED ?? '42',
    // the simulated market's size (provider-sim's defaults when unset), for benchmarks at scale
    ...(env.WORLD_SLOTS ? { WORLD_SLOTS: env.WORLD_SLOTS } : {}),
    ...(env.WORLD_COMPANIES ? { WORLD_COMPANIES: env.WORLD_COMPANIES } : {}),
    REFRESH_INTERVAL_MS: env.REFRESH_INTERVAL_MS ?? '60000',
    WEBHOOK_RETRY_SCALE: webhookRetryScale(),
    WEBHOOK_ALLOW_PRIVATE: env.WEBHOOK_ALLOW_PRIVATE ?? 'true',
    PROVIDER_SIM_URL: `http://127.0.0.1:${SIM_PORT}`,
    SERVICE_HEALTH_URLS: SERVICES.filter((s) => s.name !== 'gateway').map((s) => `${s.id}=http://127.0.0.1:${s.port}`).join(','),
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    ...traceEnv(),
  };
}

/**
 * `npm run up` sends every trace to its trace viewer (parent-based always-on: a search's trace is
 * whole), and to OTEL_EXPORTER_OTLP_ENDPOINT too when the operator sets one. With TRACE_VIEWER=0
 * and no endpoint nothing is recorded (parent-based always-off: ids still reach logs and headers).
 *
 * Test stacks send traces (OTLP/HTTP JSON) to the port where the trace e2e test runs its receiver,
 * and to their trace viewer's port (the viewer runs when asked: the viewer's spec, TRACE_VIEWER=1),
 * and sample only traces whose caller asked for it (a sampled `traceparent`): every other request
 * keeps its trace ids for logs and headers but records nothing, so the rest of the suite pays no
 * export cost (OTEL_TRACES_SAMPLER overrides that, e.g. to look at every test's trace).
 */
const OTLP_RECEIVER_PORT = env.OTEL_EXPORTER_OTLP_ENDPOINT || command === 'up' ? undefined : profile.otlpPort;
const ZIPKIN_SPANS_URL = `${TRACE_VIEWER_URL}/api/v2/spans`;

function traceEnv() {
  if (command === 'up') return viewerWanted() && !env.OTEL_EXPORTER_ZIPKIN_ENDPOINT ? { OTEL_EXPORTER_ZIPKIN_ENDPOINT: ZIPKIN_SPANS_URL } : {};
  return {
    ...(OTLP_RECEIVER_PORT ? { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${OTLP_RECEIVER_PORT}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } : {}),
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: env.OTEL_EXPORTER_ZIPKIN_ENDPOINT ?? ZIPKIN_SPANS_URL,
    OTEL_TRACES_SAMPLER: env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_off',
  };
}

function startService(service, infra) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${service.id.replace('#', '-')}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(
    'node',
    // The inspector stays closed unless someone sends SIGUSR1 (bench/profile.ts does, to take CPU
    // profiles of the running services); its port is then fixed, beside the service's own.
    // Each service runs from its bundle (scripts/bundle.mjs: one file, not 2,000 to resolve and
    // read), without --enable-source-maps: parsing the bundle's 7 MB map cost 0.6 s of CPU per
    // start. NODE_OPTIONS=--enable-source-maps brings the mapped stack traces back when wanted.
    // The heap's ceiling is set, not left to Node: Node 24 sizes it from the memory limit libuv
    // reads, and on a host whose cgroup (v1) reports no limit that read overflows to the 192 MB
    // floor (`--max-old-space-size-percentage` reads negative there): the gateway ran at its
    // ceiling. The young generation is capped at 16 MB a semi-space (as deploy/Dockerfile does):
    // sized from a 1 GB heap it is 64 MB, and V8 starts a full collection as soon as the old
    // generation's headroom falls below the young generation's size, which with ~41 MB live was
    // every 7 MB promoted: a mark-compact every three lone searches in the orchestrator, fetcher
    // and dedupe (17-50 ms of marking steps and a 5-20 ms pause on a search's path), 6 in 120
    // searches with the cap (bench/README.md).
    ['--disable-warning=TimeoutNegativeWarning', ...HEAP_FLAGS, `--inspect-port=127.0.0.1:${inspectPortOf(service)}`, '--import', '@jobs/observability/register', `apps/${service.name}/bundle/main.mjs`],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // INSTANCE_ID names the replica, the same after a restart: its consumers rejoin their groups
      // as the same static members and take their partitions back at once (docs/operations.md, "Fault tests").
      env: { ...env, ...serviceEnv(infra), ...service.env, HEALTH_PORT: String(service.port), OTEL_SERVICE_NAME: service.name, INSTANCE_ID: service.id.replace('#', '-') },
    },
  );
  const startedAt = Date.now();
  // Both streams go to one file, closed once the process and its pipes are done.
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.on('close', () => out.end());
  // Errors and warnings also reach the terminal, one compact line each.
  child.stderr.on('data', (d) => process.stderr.write(prefixLines(service.id, d)));
  child.stdout.on('data', (d) => {
    for (const line of String(d).split('\n')) {
      if (/"level":"(error|fatal)"/.test(line)) process.stderr.write(prefixLines(service.id, compactLog(line)));
    }
  });
  child.on('exit', (code, signal) => {
    if (children.get(service.id) === child) children.delete(service.id);
    writePids();
    if (shuttingDown) return;
    say(`${service.id} exited (${signal ?? `code ${code}`}); its log: ${logFile}`);
    if (supervising) scheduleRestart(service, infra, Date.now() - startedAt);
  });
  children.set(service.id, child);
  writePids();
  return logFile;
}

/** Starts a service that died again after a short delay, with the same command, environment and log. */
function scheduleRestart(service, infra, ranForMs) {
  const previous = pendingRestarts.get(service.id);
  const delay = ranForMs < CRASH_LOOP_WINDOW_MS && previous?.delay ? Math.min(previous.delay * 2, 10000) : RESTART_DELAY_MS;
  const timer = setTimeout(() => {
    if (shuttingDown || children.has(service.id)) return;
    say(`restarting ${service.id} (after ${delay} ms)`);
    startService(service, infra);
  }, delay);
  pendingRestarts.set(service.id, { timer, delay });
}

/** Where a service's inspector listens once opened by SIGUSR1: its port + 500 (free in every port block). */
const inspectPortOf = (service) => service.port + 500;
/** Each service's old-space ceiling and semi-space size (MB; 0 leaves it to Node), see startService. */
const SERVICE_HEAP_MB = Number(env.STACK_SERVICE_HEAP_MB ?? 1024);
const SERVICE_SEMI_SPACE_MB = Number(env.STACK_SERVICE_SEMI_SPACE_MB ?? 16);
const HEAP_FLAGS = [...(SERVICE_HEAP_MB > 0 ? [`--max-old-space-size=${SERVICE_HEAP_MB}`] : []), ...(SERVICE_SEMI_SPACE_MB > 0 ? [`--max-semi-space-size=${SERVICE_SEMI_SPACE_MB}`] : [])];

/** Written whole and renamed into place, so a reader never sees half a file. */
function writePids() {
  const pids = Object.fromEntries([...children].map(([name, child]) => [name, child.pid]));
  writeWhole(inspectFile, `${JSON.stringify(Object.fromEntries(SERVICES.filter((s) => children.has(s.id)).map((s) => [s.id, inspectPortOf(s)])), null, 2)}\n`);
  writeWhole(pidsFile, `${JSON.stringify(pids, null, 2)}\n`);
}

function writeWhole(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function compactLog(line) {
  try {
    const entry = JSON.parse(line);
    return `${entry.level}: ${entry.msg}${entry.err?.message ? ` (${entry.err.message})` : ''}\n`;
  } catch {
    return `${line}\n`;
  }
}

function prefixLines(name, data) {
  return String(data)
    .split('\n')
    .filter(Boolean)
    .map((l) => `  [${name}] ${l}\n`)
    .join('');
}

async function startServices(infra) {
  say(`starting ${SERVICES.length} services (logs in ${logDir.replace(ROOT + '/', '')}/) ...`);
  for (const service of SERVICES) startService(service, infra);
  await awaitReadiness();
  // GATEWAYS=2: a second gateway beside the first, as the replica phase runs (what a load balancer spreads over).
  if (Number(env.GATEWAYS ?? 1) >= 2) {
    SERVICES.push(GATEWAY_REPLICA);
    startService(GATEWAY_REPLICA, infra);
    await awaitReadiness(GATEWAY_REPLICA.port);
    say(`${GATEWAY_REPLICA.id} on http://127.0.0.1:${GATEWAY_REPLICA.port}`);
  }
  supervising = true;
  await firstRefreshPass();
}

/**
 * One refresh pass before anything else, awaited: a fresh store takes in the own crawler's whole
 * catalog (the own index answers searches from the store) and the partners' recent listings,
 * as a store that has been running would hold them. Later passes only re-verify.
 */
async function firstRefreshPass() {
  const admin = `http://127.0.0.1:${ADMIN_PORT}/admin`;
  const headers = { authorization: `Bearer ${env.ADMIN_TOKEN ?? 'dev-admin-token'}` };
  const started = Date.now();
  const answer = await fetch(`${admin}/refresh`, { method: 'POST', headers });
  if (answer.status !== 202) throw new Error(`POST /admin/refresh answered ${answer.status}`);
  const { refresh_id: refreshId } = await answer.json();
  say(`first refresh pass ${refreshId}: the own crawler's catalog into the store ...`);
  await waitFor(
    `refresh pass ${refreshId} to complete`,
    async () => {
      const res = await fetch(`${admin}/refresh/${refreshId}`, { headers, signal: AbortSignal.timeout(3000) }).catch(() => null);
      return res?.status === 200 && (await res.json()).status === 'completed';
    },
    10 * 60_000,
    500,
  );
  say(`first refresh pass done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/** Waits for a gateway's /readyz (every service's readiness); before supervision, a death fails it. */
async function awaitReadiness(port = PORT) {
  const readyz = `http://127.0.0.1:${port}/readyz`;
  let lastReport = '';
  let lastSaid = 0;
  await waitFor(
    `${readyz} to answer 200`,
    async () => {
      if (!supervising && children.size < SERVICES.length) throw new Error('a service exited during start-up; see its log above');
      try {
        const res = await fetch(readyz, { signal: AbortSignal.timeout(3000) });
        if (res.status === 200) return true;
        const body = await res.json().catch(() => ({}));
        const waiting = Object.entries(body.checks ?? {}).filter(([, ok]) => !ok).map(([k]) => k);
        lastReport = waiting.join(', ');
      } catch {
        lastReport = 'gateway not listening yet';
      }
      if (Date.now() - lastSaid > 5000) {
        lastSaid = Date.now();
        say(`waiting for readiness: ${lastReport}`);
      }
      return false;
    },
    // generous: a loaded 2-core machine has needed over 3 min for twelve processes to join their groups
    Number(env.STACK_READY_TIMEOUT_MS ?? 300000),
    500,
  );
  say(`every service is ready (${readyz} → 200)`);
}

async function stopServices() {
  for (const { timer } of pendingRestarts.values()) clearTimeout(timer);
  pendingRestarts.clear();
  if (children.size === 0) return removePidsFile();
  say(`stopping ${children.size} services (SIGTERM, then drain) ...`);
  const exits = [...children.values()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of children.values()) child.kill('SIGTERM');
  const timeout = sleep(25000).then(() => 'timeout');
  if ((await Promise.race([Promise.all(exits), timeout])) === 'timeout') {
    for (const [name, child] of children) {
      say(`${name} did not stop in time; killing it`);
      child.kill('SIGKILL');
    }
  }
  removePidsFile();
}

function removePidsFile() {
  rmSync(pidsFile, { force: true });
  rmSync(inspectFile, { force: true });
}

// ---------------------------------------------------------------- demo account

async function adminPost(path, body) {
  const res = await fetch(`http://127.0.0.1:${ADMIN_PORT}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${env.ADMIN_TOKEN ?? 'dev-admin-token'}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function seedDemoAccount() {
  const file = join(ROOT, '.local', 'demo-account.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const res = await fetch(`http://127.0.0.1:${PORT}/v1/account`, { headers: { authorization: `Bearer ${saved.live_key}` } }).catch(() => null);
    if (res?.status === 200) return saved;
  }
  const account = await adminPost('/accounts', { plan: 'pro', credits: 10000 });
  writeFileSync(file, JSON.stringify(account, null, 2));
  return account;
}

// ---------------------------------------------------------------- commands

async function setUp({ fresh }) {
  const kafka = ensureKafka({ fresh }); // the broker starts while the rest is prepared
  kafkaStarting = kafka.catch(() => {});
  const viewer = ensureTraceViewer(); // so does the trace viewer
  viewerStarting = viewer.catch(() => {});
  const databaseUrl = await ensurePostgres();
  const redisUrl = await ensureRedis();
  if (fresh) await flushRedis(redisUrl);
  await prepareDatabase(databaseUrl, fresh);
  await build();
  const kafkaBrokers = await kafka;
  const traceViewer = await viewer;
  return { databaseUrl, redisUrl, kafkaBrokers, traceViewer };
}

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  await stopServices();
  await kafkaStarting;
  await stopKafka();
  await viewerStarting;
  await stopTraceViewer();
  say(code === 0 ? 'stopped; nothing of ours is left running' : `stopped (exit ${code})`);
  process.exit(code);
}

async function up() {
  const infra = await setUp({ fresh: false });
  await startServices(infra);
  const demo = await seedDemoAccount();
  const base = `http://127.0.0.1:${PORT}/v1`;
  process.stdout.write(`
  The job-data API is up.

    base URL      ${base}
    admin API     http://127.0.0.1:${ADMIN_PORT}/admin   (Authorization: Bearer ${env.ADMIN_TOKEN ?? 'dev-admin-token'})
    demo live key ${demo.live_key}
    demo test key ${demo.test_key}
    dashboard     http://127.0.0.1:${PORT}/dashboard   (sign in with the demo live key)
    trace viewer  ${infra.traceViewer ? `${TRACE_VIEWER_URL}/zipkin/   (every answer's traceparent header names its trace)` : viewerWanted() ? 'did not start (see above)' : 'off (TRACE_VIEWER=0)'}

  Try it:

    curl -s ${base}/jobs/search \\
      -H 'Authorization: Bearer ${demo.live_key}' \\
      -H 'Content-Type: application/json' \\
      -d '{"filters":{"title_or":["engineer"]},"limit":5}'

  Logs: ${logDir.replace(ROOT + '/', '')}/<service>.log    Ctrl-C stops everything.
`);
  await new Promise(() => {}); // the signal handlers end the process
}

/** Where the e2e tests find the running stack (SERVICE_PORTS read when called: the replica phase adds some). */
function e2eEnv(infra) {
  return {
    BASE_URL: `http://127.0.0.1:${PORT}`,
    ADMIN_URL: `http://127.0.0.1:${ADMIN_PORT}`,
    ADMIN_TOKEN: env.ADMIN_TOKEN ?? 'dev-admin-token',
    KAFKA_BROKERS: infra.kafkaBrokers,
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    PROVIDER_SIM_URL: `http://127.0.0.1:${SIM_PORT}`,
    SERVICE_PORTS: SERVICES.map((s) => `${s.id}=${s.port}`).join(','),
    // Each gateway's admin port (its /metrics): the public port is SERVICE_PORTS'.
    GATEWAY_ADMIN_PORTS: SERVICES.filter((s) => s.name === 'gateway').map((s) => `${s.id}=${s.env.ADMIN_PORT}`).join(','),
    STACK_PIDS_FILE: pidsFile,
    STACK_LOG_DIR: logDir,
    WEBHOOK_RETRY_SCALE: webhookRetryScale(),
    ...(OTLP_RECEIVER_PORT ? { OTLP_RECEIVER_PORT: String(OTLP_RECEIVER_PORT) } : {}),
    // The test stack's trace viewer, and what its spec needs to start it when nobody asked before.
    TRACE_VIEWER_URL,
    ZIPKIN_PORT: String(profile.viewerPort),
    ZIPKIN_INSTANCE: profile.kafkaInstance,
  };
}

/** Replicas of every consumer in the replica phase of `npm test`. */
const REPLICA_PHASE_REPLICAS = 2;
/** The replica phase's second gateway: its public and admin ports follow the first's. */
const GATEWAY_REPLICA = {
  name: 'gateway',
  id: 'gateway#2',
  port: PORT + 2,
  env: { PORT: String(PORT + 2), ADMIN_PORT: String(ADMIN_PORT + 2) },
};
/** Each test phase takes a fraction of these on this machine, even loaded; past one, something hangs. */
const PHASE_LIMIT_MS = { unit: 40 * 60_000, e2e: 45 * 60_000, replicas: 15 * 60_000 };
/**
 * The outcome of the replica scenario run by the one-replica e2e phase
 * (apps/search-orchestrator/test/replica-scenario.ts), which the replica phase compares with.
 */
const replicaBaseline = join(dirname(pidsFile), 'replica-scenario.json');

/**
 * The replica phase: a second replica of every consumer joins the running stack (same database,
 * Kafka and consumer groups: the groups rebalance as under a scale-up, and on 2 cores starting
 * five processes is cheaper than restarting all), the gateway starts again so its /readyz awaits
 * the new replicas too, a second gateway starts beside it, then the `e2e-replicas` targets run.
 */
async function replicaPhase(infra) {
  const added = BASE_SERVICES.filter((service) => SCALABLE.includes(service.name)).flatMap((service) => {
    const running = SERVICES.filter((s) => s.name === service.name).length;
    return Array.from({ length: Math.max(0, REPLICA_PHASE_REPLICAS - running) }, (_, i) => replicaOf(service, running + i));
  });
  if (added.length > 0) {
    say(`replica phase: starting ${added.map((s) => s.id).join(', ')} ...`);
    SERVICES.splice(SERVICES.findIndex((s) => s.name === 'gateway'), 0, ...added);
    for (const service of added) startService(service, infra);
    // The gateway reads SERVICE_HEALTH_URLS at start: the supervisor starts it again with the new list.
    const gateway = children.get('gateway');
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
    await awaitReadiness();
  }
  // A second gateway beside the first, on ports of its own (what a load balancer would spread over).
  if (!SERVICES.some((s) => s.id === GATEWAY_REPLICA.id)) {
    say(`replica phase: starting ${GATEWAY_REPLICA.id} on ${GATEWAY_REPLICA.port} ...`);
    SERVICES.push(GATEWAY_REPLICA);
    startService(GATEWAY_REPLICA, infra);
    await awaitReadiness(GATEWAY_REPLICA.port);
  }
  // Without SCALE the e2e phase ran one replica each, so its scenario outcome must be there.
  if (SCALE.size === 0 && !existsSync(replicaBaseline)) throw new Error(`the one-replica phase left no ${replicaBaseline} to compare with`);
  say('replica specs against two replicas of every consumer ...');
  await run('nx', ['run-many', '-t', 'e2e-replicas', '--output-style=static', '--parallel=1'], { env: e2eEnv(infra), limitMs: PHASE_LIMIT_MS.replicas });
}

async function test({ e2eOnly }) {
  if (!e2eOnly) {
    // --skip-nx-cache: the test command proves the code as it is, never from a cached result
    // (Nx's cache can live outside the clone and be shared between checkouts).
    // pack-check: the client library packed and installed as a customer would (libs/client).
    say('lint, typecheck, unit tests and package checks of every project (nx run-many, cache skipped) ...');
    await run('nx', ['run-many', '-t', 'lint', 'typecheck', 'test', 'pack-check', '--output-style=static', '--skip-nx-cache'], { limitMs: PHASE_LIMIT_MS.unit });
  }
  const infra = await setUp({ fresh: true });
  await startServices(infra);
  rmSync(replicaBaseline, { force: true }); // an earlier run's outcome proves nothing about this one
  say('end-to-end tests against the running stack ...');
  // One e2e project at a time: they share the stack, and some change provider behaviour.
  await run('nx', ['run-many', '-t', 'e2e', '--output-style=static', '--parallel=1'], { env: e2eEnv(infra), limitMs: PHASE_LIMIT_MS.e2e });
  await replicaPhase(infra);
  await checkNoOffContractMessages(infra);
  say(`all tests passed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
}

/**
 * No message of the run broke its topic's contract. Producers do not check what they send: each
 * consumer parses every value and parks an off-contract one in `dead-letter` with an error that
 * begins `off-contract` (libs/kafka, TypedConsumer). So a producer that builds an off-contract
 * message fails the test run here, whichever test made it send. Dead letters of other causes
 * (the poison test's charge for an unknown account) are on-contract and pass.
 */
async function checkNoOffContractMessages(infra) {
  const { Kafka, logLevel } = await import('kafkajs');
  const topic = 'dead-letter';
  const kafka = new Kafka({ clientId: 'stack-contract-check', brokers: infra.kafkaBrokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const ends = (await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect())).filter((p) => BigInt(p.high) > BigInt(p.low));
  const offContract = [];
  let letters = 0;
  if (ends.length > 0) {
    const unread = new Map(ends.map((p) => [p.partition, BigInt(p.high)]));
    const consumer = kafka.consumer({ groupId: `stack-contract-check-${process.pid}-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    try {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`reading ${topic} took over 60 s`)), 60_000);
        consumer
          .run({
            eachMessage: async ({ partition, message }) => {
              letters += 1;
              const letter = JSON.parse(message.value.toString('utf8'));
              if (String(letter.error).startsWith('off-contract')) offContract.push(letter);
              if (BigInt(message.offset) + 1n >= (unread.get(partition) ?? 0n)) unread.delete(partition);
              if (unread.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
  }
  if (offContract.length > 0) {
    for (const letter of offContract.slice(0, 5)) say(`off-contract ${letter.topic} message (consumer group ${letter.consumer_group}): ${String(letter.error).slice(0, 600)}`);
    throw new Error(`${offContract.length} message(s) of this run broke their topic's contract (dead-letter): a producer sends what its consumer refuses`);
  }
  say(`dead-letter: ${letters} letter(s), none off-contract`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.stdout.write('\n');
    say(`${signal}: shutting down`);
    void shutdown(130);
  });
}

/** A fresh test stack on the given infrastructure, up until a signal: scripts/faults.mjs drives it. */
async function serve() {
  const infra = await setUp({ fresh: true });
  await startServices(infra);
  await new Promise(() => {}); // the signal handlers end the process
}

const commands = {
  up: () => up(),
  serve: () => serve(),
  test: () => test({ e2eOnly: false }),
  e2e: () => test({ e2eOnly: true }),
  down: async () => {
    kafkaStartedHere = true;
    await stopKafka();
    viewerStartedHere = true;
    await stopTraceViewer();
  },
};

if (!commands[command]) {
  process.stderr.write(`unknown command ${command}; use up, test, e2e, serve or down\n`);
  process.exit(2);
}
commands[command]().then(
  () => shutdown(0),
  (error) => {
    process.stderr.write(`\n[stack] FAILED: ${error.message}\n`);
    for (const name of children.keys()) process.stderr.write(`  log of ${name}: ${join(logDir, `${name}.log`)}\n`);
    void shutdown(error.exitCode && error.exitCode !== 0 ? error.exitCode : 1);
  },
);

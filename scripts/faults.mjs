// Fault tests (`npm run test:faults`): a private PostgreSQL cluster, Redis server and Kafka broker
// that the tests may stop, kill and restart without touching anyone else's, a fresh stack on
// them (scripts/stack.mjs serve), then the *.fault-spec.ts suites (nx target `faults` of
// @jobs/e2e-support); everything is torn down at the end, also on failure or Ctrl-C.
//
//   node scripts/faults.mjs                       the whole run
//   node scripts/faults.mjs pg-restart fast|immediate    the controls the specs call
//   node scripts/faults.mjs kafka-stop | kafka-start | redis-stop | redis-start
//   node scripts/faults.mjs infra-up | infra-down        only the infrastructure (to debug a spec)
//
// STACK_SLOT (default 8) picks the ports: stack 2N080.. as in stack.mjs, PostgreSQL 2N432, Redis 2N379, Kafka 2N092
// (controller 2N093). Plain Node: it runs before anything is built.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, appendFileSync, chownSync, readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { limitRunTime } from './stack/time-limit.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const slot = Number(process.env.STACK_SLOT ?? 8);
if (!Number.isInteger(slot) || slot < 1 || slot > 9) throw new Error('STACK_SLOT must be 1..9');
const base = 20000 + slot * 1000;
const PORTS = { api: base + 80, admin: base + 81, sim: base + 90, pg: base + 432, redis: base + 379, kafka: base + 92 };
const DIR = join(ROOT, '.local', 'faults', `s${slot}`);
const PG_DATA = join(DIR, 'pg');
const REDIS_DIR = join(DIR, 'redis');
const KAFKA_ENV = {
  KAFKA_INSTANCE: `faults-s${slot}`,
  KAFKA_PORT: String(PORTS.kafka),
  KAFKA_CONTROLLER_PORT: String(PORTS.kafka + 1),
};
// The database and Redis db a fresh stack of slot N keeps to on given servers (scripts/stack/infrastructure.ts):
// the specs read the same ones.
const DATABASE_URL = `postgresql://postgres@127.0.0.1:${PORTS.pg}/jobs_test_s${slot}`;
const REDIS_URL = `redis://127.0.0.1:${PORTS.redis}/${1 + slot}`;
const KAFKA_BROKERS = `127.0.0.1:${PORTS.kafka}`;
const started = Date.now();

function say(message) {
  process.stdout.write(`[faults ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);
}

/** Runs a command to its end; throws with its output when it fails. */
function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...options.env } });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} failed ` +
        `(${result.signal ?? `exit ${result.status}`})\n${`${result.stdout ?? ''}${result.stderr ?? ''}`.trim()}`,
    );
  }
  return result.stdout;
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitFor(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

// ---------------------------------------------------------------- PostgreSQL

/** The newest installed server's binaries (the postgresql server package). */
function pgBin(name) {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => a - b)
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin');
  return `/usr/lib/postgresql/${versions.at(-1)}/bin/${name}`;
}

/** util-linux's runuser lives in sbin, which a minimal PATH (CI's `env -i`) leaves out. */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';

/** PostgreSQL refuses to run as root: then its tools run as the `postgres` OS user. */
function asPostgres(bin, args) {
  const isRoot = process.getuid?.() === 0;
  return isRoot ? run(RUNUSER, ['-u', 'postgres', '--', pgBin(bin), ...args]) : run(pgBin(bin), args);
}

function pgCtl(args) {
  return asPostgres('pg_ctl', ['-D', PG_DATA, '-l', join(DIR, 'postgresql.log'), '-w', '-t', '60', ...args]);
}

async function startPostgres() {
  if (!existsSync(join(PG_DATA, 'PG_VERSION'))) {
    mkdirSync(PG_DATA, { recursive: true });
    if (process.getuid?.() === 0) {
      const { uid, gid } = postgresUser();
      chownSync(DIR, uid, gid);
      chownSync(PG_DATA, uid, gid);
    }
    asPostgres('initdb', ['-D', PG_DATA, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    // Loopback TCP only (no socket beside the machine's own cluster); fsync off: the faults are
    // process crashes, never a machine crash, and the 2-core machine is slow enough.
    appendFileSync(
      join(PG_DATA, 'postgresql.conf'),
      `\nport = ${PORTS.pg}\nlisten_addresses = ` +
        `'127.0.0.1'\nunix_socket_directories = ''\nmax_connections = ` +
        `200\nfsync = off\nfull_page_writes = off\n`,
    );
  }
  if (await portOpen(PORTS.pg)) return say(`PostgreSQL already on 127.0.0.1:${PORTS.pg}`);
  pgCtl(['start']);
  say(`PostgreSQL (private cluster ${PG_DATA.replace(ROOT + '/', '')}) on 127.0.0.1:${PORTS.pg}`);
}

function postgresUser() {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root but there is no `postgres` OS user to run PostgreSQL');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function stopPostgres() {
  if (!existsSync(join(PG_DATA, 'postmaster.pid'))) return;
  pgCtl(['-m', 'fast', 'stop']);
  say('PostgreSQL stopped');
}

// ---------------------------------------------------------------- Redis

async function startRedis() {
  if (await portOpen(PORTS.redis)) return say(`Redis already on 127.0.0.1:${PORTS.redis}`);
  mkdirSync(REDIS_DIR, { recursive: true });
  // No periodic snapshots; redis-stop saves one on purpose (SHUTDOWN SAVE) and the next start
  // loads it, so an outage keeps the data as a replicated or persistent Redis would.
  run('redis-server', [
    '--port',
    String(PORTS.redis),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    REDIS_DIR,
    '--daemonize',
    'yes',
    '--pidfile',
    join(REDIS_DIR, 'redis.pid'),
    '--logfile',
    join(REDIS_DIR, 'redis.log'),
  ]);
  await waitFor(`Redis on 127.0.0.1:${PORTS.redis}`, () => portOpen(PORTS.redis), 15000);
  say(`Redis on 127.0.0.1:${PORTS.redis}`);
}

async function stopRedis({ keepData }) {
  if (!(await portOpen(PORTS.redis))) return;
  run('redis-cli', ['-p', String(PORTS.redis), 'shutdown', keepData ? 'save' : 'nosave']);
  await waitFor('Redis to stop', async () => !(await portOpen(PORTS.redis)), 15000);
  say('Redis stopped');
}

// ---------------------------------------------------------------- Kafka

const kafka = (action) => run('bash', ['deploy/kafka/kafka.sh', action], { env: KAFKA_ENV });

// ---------------------------------------------------------------- the run

async function infraUp() {
  mkdirSync(DIR, { recursive: true });
  // A fresh broker each run: messages of an earlier run name searches this database never had.
  kafka('reset');
  const broker = new Promise((resolve, reject) => {
    const child = spawn('bash', ['deploy/kafka/kafka.sh', 'start'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...KAFKA_ENV },
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kafka.sh start failed (exit ${code})`))));
  });
  await startPostgres();
  await startRedis();
  await broker;
}

async function infraDown() {
  const steps = [() => kafka('stop'), () => stopRedis({ keepData: false }), () => stopPostgres()];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      say(`teardown: ${error.message}`);
    }
  }
  rmSync(REDIS_DIR, { recursive: true, force: true });
}

let stackChild;

async function startStack() {
  say(`starting the stack (STACK_SLOT=${slot}) on the private infrastructure ...`);
  stackChild = spawn('node', ['scripts/stack.mjs', 'serve'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, STACK_SLOT: String(slot), DATABASE_URL, REDIS_URL, KAFKA_BROKERS },
  });
  const exited = new Promise((resolve) => stackChild.once('exit', (code, signal) => resolve(signal ?? code)));
  let gone;
  void exited.then((how) => (gone = how));
  await waitFor(
    `the stack's /readyz`,
    async () => {
      if (gone !== undefined) throw new Error(`the stack exited during start-up (${gone})`);
      try {
        const res = await fetch(`http://127.0.0.1:${PORTS.api}/readyz`, { signal: AbortSignal.timeout(3000) });
        await res.body?.cancel();
        return res.status === 200;
      } catch {
        return false;
      }
    },
    600000,
  );
}

async function stopStack() {
  if (!stackChild || stackChild.exitCode !== null || stackChild.signalCode !== null) return;
  const exited = new Promise((resolve) => stackChild.once('exit', resolve));
  stackChild.kill('SIGINT');
  await Promise.race([exited, sleep(60000)]);
}

/** The fault specs take a few minutes; past this, one hangs. */
const SPECS_LIMIT_MS = 20 * 60_000;

function runSpecs() {
  say('fault specs (nx run @jobs/e2e-support:faults) ...');
  return new Promise((resolve, reject) => {
    const child = spawn('nx', ['run', '@jobs/e2e-support:faults', '--output-style=static'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        STACK_SLOT: String(slot),
        BASE_URL: `http://127.0.0.1:${PORTS.api}`,
        ADMIN_URL: `http://127.0.0.1:${PORTS.admin}`,
        ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? 'dev-admin-token',
        PROVIDER_SIM_URL: `http://127.0.0.1:${PORTS.sim}`,
        DATABASE_URL,
        REDIS_URL,
        KAFKA_BROKERS,
        STACK_PIDS_FILE: join(ROOT, '.local', 'run', `s${slot}`, 'pids.json'),
        STACK_LOG_DIR: join(ROOT, '.local', 'logs', `s${slot}`),
        WEBHOOK_RETRY_SCALE: process.env.WEBHOOK_RETRY_SCALE ?? '0.001',
        FAULTS_SCRIPT: fileURLToPath(import.meta.url),
      },
    });
    const overLimit = limitRunTime(child, SPECS_LIMIT_MS, () =>
      say(`fault specs ran past their ${SPECS_LIMIT_MS / 60_000} min limit: stopping them`),
    );
    child.on('exit', (code) => {
      if (code === 0) return resolve();
      const why = overLimit() ? `over their ${SPECS_LIMIT_MS / 60_000} min limit` : `exit ${code}`;
      reject(Object.assign(new Error(`fault specs failed (${why})`), { exitCode: code ?? 1 }));
    });
  });
}

let tearingDown;
function teardown() {
  tearingDown ??= (async () => {
    await stopStack();
    await infraDown();
  })();
  return tearingDown;
}

async function whole() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      say(`${signal}: tearing down`);
      void teardown().then(() => process.exit(130));
    });
  }
  try {
    await infraUp();
    await startStack();
    await runSpecs();
    say(`fault tests passed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
  } finally {
    await teardown();
  }
}

const controls = {
  '': whole,
  'pg-restart': async (mode = 'fast') => {
    if (!['fast', 'immediate'].includes(mode)) throw new Error('pg-restart takes fast or immediate');
    pgCtl(['-m', mode, 'restart']);
    say(`PostgreSQL restarted (-m ${mode})`);
  },
  'kafka-stop': async () => kafka('stop'),
  'kafka-start': async () => kafka('start'),
  'redis-stop': async () => stopRedis({ keepData: true }),
  'redis-start': async () => startRedis(),
  'infra-up': infraUp,
  'infra-down': infraDown,
};

const [action = '', ...rest] = process.argv.slice(2);
if (!controls[action]) {
  process.stderr.write(
    `unknown command ${action}; use no argument, ${Object.keys(controls).filter(Boolean).join(', ')}\n`,
  );
  process.exit(2);
}
controls[action](...rest).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`\n[faults] FAILED: ${error.message}\n`);
    process.exit(error.exitCode && error.exitCode !== 0 ? error.exitCode : 1);
  },
);

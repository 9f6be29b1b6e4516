// The local stack: infrastructure, database, build, services, and the test run.
// Called by scripts/run.sh (which provides Node 24 and the npm packages) through scripts/stack.mjs:
//   node scripts/stack.mjs up     everything, then stay in the foreground until Ctrl-C
//   node scripts/stack.mjs test   the same set-up on separate ports, every check and test, then stop
//   node scripts/stack.mjs e2e    like test, but only the end-to-end tests
//   node scripts/stack.mjs serve  a fresh test stack (no checks, no demo account) kept up until SIGINT,
//                                 for scripts/faults.mjs, which brings its own infrastructure
//   node scripts/stack.mjs down   stop a broker and trace viewer left running by an earlier `up`
// TypeScript that Node runs as it is (type stripping: no build needed, it runs before anything
// is built); `nx run stack:typecheck` checks it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TableUpkeep } from '@jobs/db/upkeep';
import { build, prepareDatabase, startTableUpkeep } from './database.ts';
import { ensurePostgres, ensureRedis, flushRedis, LocalServers, type InfraEndpoints } from './infrastructure.ts';
import { elapsedSeconds, say, StepError } from './process.ts';
import { firstRefreshPass, seedDemoAccount, startFirstRefreshPass, upBanner } from './seeding.ts';
import { SecondStack } from './second-stack.ts';
import { isCommand, PROFILES, stackSettings, viewerWanted } from './settings.ts';
import { Supervisor } from './supervisor.ts';
import { checkNoOffContractMessages, checksPhase, e2eEnv, e2ePhase, replicaPhase } from './test-phases.ts';

const env = process.env;
const command = process.argv[2] ?? 'up';
if (!isCommand(command)) {
  process.stderr.write(`unknown command ${command}; use up, test, e2e, serve or down\n`);
  process.exit(2);
}
const settings = stackSettings(command, env);
const servers = new LocalServers(settings, env);
const supervisor = new Supervisor(settings, env);
let upkeep: TableUpkeep | undefined;
let secondStack: SecondStack | undefined;
let shuttingDown = false;

/** Infrastructure, database and build; the broker and the trace viewer start while the rest is prepared. */
async function setUp({ fresh }: { fresh: boolean }): Promise<InfraEndpoints> {
  const kafka = servers.startKafka({ fresh });
  const viewer = servers.startTraceViewer();
  const databaseUrl = await ensurePostgres(settings, env, { fresh });
  const redisUrl = await ensureRedis(settings, env, { fresh });
  if (fresh) await flushRedis(redisUrl);
  await prepareDatabase(databaseUrl, fresh);
  upkeep = startTableUpkeep(settings, databaseUrl);
  await build();
  return { databaseUrl, redisUrl, kafkaBrokers: await kafka, traceViewer: await viewer };
}

/** Every service up and supervised, and the store filled by a first refresh pass. */
async function startStack(infra: InfraEndpoints): Promise<void> {
  await supervisor.startAll(infra);
  await firstRefreshPass(settings);
}

async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  await secondStack?.stop();
  rmSync(settings.e2eEnvFile, { force: true });
  await supervisor.stopAll();
  await upkeep?.stop();
  await servers.stop();
  say(code === 0 ? 'stopped; nothing of ours is left running' : `stopped (exit ${code})`);
  process.exit(code);
}

const forever = () => new Promise<never>(() => {}); // the signal handlers end the process

/**
 * The banner comes as soon as every service is ready: searches answer from the partners while the
 * first refresh pass fills the own index behind it (a store kept from an earlier run answers at once).
 */
async function up(): Promise<void> {
  const infra = await setUp({ fresh: false });
  await supervisor.startAll(infra);
  const firstPassDone = await startFirstRefreshPass(settings);
  const demo = await seedDemoAccount(settings);
  const viewer = infra.traceViewer
    ? `${settings.traceViewerUrl}/zipkin/   (every answer's traceparent header names its trace)`
    : viewerWanted(settings, env)
      ? 'did not start (see above)'
      : 'off (TRACE_VIEWER=0)';
  process.stdout.write(upBanner(settings, demo, viewer));
  await firstPassDone().catch((error: Error) => say(`the first refresh pass did not complete: ${error.message}`));
  await forever();
}

/**
 * A fresh test stack on the given infrastructure, up until a signal: scripts/faults.mjs drives it,
 * and `npm test` runs half its e2e projects on one. Once ready, it writes the environment its e2e
 * tests need to `e2eEnvFile` (the same a test run gives them).
 */
async function serve(): Promise<void> {
  const infra = await setUp({ fresh: true });
  await startStack(infra);
  mkdirSync(dirname(settings.e2eEnvFile), { recursive: true });
  writeFileSync(settings.e2eEnvFile, JSON.stringify(e2eEnv(settings, infra, env), null, 2));
  await forever();
}

/**
 * `npm test`'s e2e projects run on two stacks side by side (E2E_STACKS=1: one); a STACK_SLOT run
 * keeps to its one port block, and a run on a broker KAFKA_BROKERS names to one stack (two would
 * share its topics and consumer groups).
 */
const wantsSecondStack = (): boolean =>
  settings.profile === PROFILES.test && env['E2E_STACKS'] !== '1' && !env['KAFKA_BROKERS'];

async function test({ e2eOnly }: { e2eOnly: boolean }): Promise<void> {
  if (!e2eOnly) await checksPhase();
  const infra = await setUp({ fresh: true });
  // started once the build is done (its own `serve` then finds it cached)
  const second = wantsSecondStack() ? new SecondStack(env) : undefined;
  secondStack = second;
  second?.start(env);
  await startStack(infra);
  rmSync(settings.replicaBaseline, { force: true }); // an earlier run's outcome proves nothing about this one
  const secondEnv = await second?.ready();
  await e2ePhase(settings, infra, env, secondEnv);
  if (second && secondEnv) {
    await checkNoOffContractMessages(secondEnv['KAFKA_BROKERS']!);
    say('second test stack: stopping it (the replica phase runs on the first)');
    await second.stop();
  }
  await replicaPhase(settings, supervisor, infra, env);
  await checkNoOffContractMessages(infra.kafkaBrokers);
  say(`all tests passed in ${elapsedSeconds().toFixed(0)}s`);
}

const commands = {
  up,
  serve,
  test: () => test({ e2eOnly: false }),
  e2e: () => test({ e2eOnly: true }),
  down: () => servers.stopLeftOver(),
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stdout.write('\n');
    say(`${signal}: shutting down`);
    void shutdown(130);
  });
}

commands[command]().then(
  () => shutdown(0),
  (error: Error) => {
    process.stderr.write(`\n[stack] FAILED: ${error.message}\n`);
    for (const name of supervisor.running())
      process.stderr.write(`  log of ${name}: ${join(settings.logDir, `${name}.log`)}\n`);
    void shutdown(error instanceof StepError && error.exitCode !== 0 ? error.exitCode : 1);
  },
);

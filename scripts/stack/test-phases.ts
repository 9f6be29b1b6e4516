// The phases of `npm test` against a running stack: the e2e targets one project at a time, the
// replica phase (a second replica of every consumer and a second gateway), and the check that no
// message of the run broke its topic's contract.
import { existsSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { serviceDatabaseUrls } from './database.ts';
import type { InfraEndpoints } from './infrastructure.ts';
import { run, say, StepError } from './process.ts';
import { replicaOf, SCALABLE, webhookRetryScale, type StackSettings } from './settings.ts';
import type { Supervisor } from './supervisor.ts';

/** Replicas of every consumer in the replica phase of `npm test`. */
const REPLICA_PHASE_REPLICAS = 2;
/** Each test phase takes a fraction of these on this machine, even loaded; past one, something hangs. */
export const PHASE_LIMIT_MS = { unit: 40 * 60_000, e2e: 45 * 60_000, replicas: 15 * 60_000 };

/** Where the e2e tests find the running stack (SERVICE_PORTS read when called: the replica phase adds some). */
export function e2eEnv(settings: StackSettings, infra: InfraEndpoints, env: NodeJS.ProcessEnv): Record<string, string> {
  const { services, profile } = settings;
  return {
    BASE_URL: `http://127.0.0.1:${settings.port}`,
    ADMIN_URL: `http://127.0.0.1:${settings.adminPort}`,
    ADMIN_TOKEN: settings.adminToken,
    KAFKA_BROKERS: infra.kafkaBrokers,
    // the owner role: the tests read and arrange rows of every service
    DATABASE_URL: infra.databaseUrl,
    // what each service connects as (its own role), for the table ownership test
    SERVICE_DATABASE_URLS: serviceDatabaseUrls(infra.databaseUrl, env),
    REDIS_URL: infra.redisUrl,
    PROVIDER_SIM_URL: `http://127.0.0.1:${settings.simPort}`,
    SERVICE_PORTS: services.map((s) => `${s.id}=${s.port}`).join(','),
    // Each gateway's admin port (its /metrics): the public port is SERVICE_PORTS'.
    GATEWAY_ADMIN_PORTS: services
      .filter((s) => s.name === 'gateway')
      .map((s) => `${s.id}=${s.env?.['ADMIN_PORT']}`)
      .join(','),
    STACK_PIDS_FILE: settings.pidsFile,
    STACK_LOG_DIR: settings.logDir,
    WEBHOOK_RETRY_SCALE: webhookRetryScale(settings, env),
    ...(settings.otlpReceiverPort ? { OTLP_RECEIVER_PORT: String(settings.otlpReceiverPort) } : {}),
    // The test stack's trace viewer, and what its spec needs to start it when nobody asked before.
    TRACE_VIEWER_URL: settings.traceViewerUrl,
    ZIPKIN_PORT: String(profile.viewerPort),
    ZIPKIN_INSTANCE: profile.kafkaInstance,
  };
}

/**
 * What a failed test phase says again at its end: jest's failing spec files and tests, ESLint's and
 * tsc's errors, Nx's failed tasks.
 */
export const FAILURE_LINES = /^\s*(FAIL\s|●\s(?!Console)|\d+:\d+\s+error\s|.*error TS\d+:|- @?[\w/-]+:[\w-]+$)/;

/**
 * The formatting check, then lint, typecheck, unit tests and package checks of every project. --skip-nx-cache: the test
 * command proves the code as it is, never from a cached result (Nx's cache can live outside the
 * clone and be shared between checkouts). pack-check: the client library packed and installed as
 * a customer would (libs/client).
 */
export async function checksPhase(): Promise<void> {
  say('formatting (prettier --check) ...');
  await run('prettier', ['--check', '.', '--log-level', 'warn'], { limitMs: PHASE_LIMIT_MS.unit });
  say('lint, typecheck, unit tests and package checks of every project (nx run-many, cache skipped) ...');
  await run(
    'nx',
    ['run-many', '-t', 'lint', 'typecheck', 'test', 'pack-check', '--output-style=static', '--skip-nx-cache'],
    { limitMs: PHASE_LIMIT_MS.unit, digest: FAILURE_LINES },
  );
}

/**
 * The e2e projects that run on the first stack; every other runs on the second, side by side, so
 * that each takes about half the phase (docs/testing.md). search-orchestrator's must be on the
 * first: the replica phase there compares with its replica scenario's outcome.
 */
export const FIRST_STACK_E2E = ['@jobs/search-orchestrator'];

/**
 * The second stack's projects that run before its others: dedupe's specs run whole refresh passes,
 * each of which re-verifies every open job of the stack's store, and the other projects' searches
 * fill that store, so they go first (`nx run-many` keeps no order among projects otherwise).
 */
export const SECOND_STACK_LEADS = ['@jobs/dedupe'];

/**
 * One e2e project at a time on each stack: projects on one stack share it, and some change provider
 * behaviour. With a second stack (its e2e environment), its projects run there side by side.
 */
export async function e2ePhase(
  settings: StackSettings,
  infra: InfraEndpoints,
  env: NodeJS.ProcessEnv,
  secondStack?: Record<string, string>,
): Promise<void> {
  const e2e = (selection: string[], stackEnv: Record<string, string>, prefix?: string) =>
    run('nx', ['run-many', '-t', 'e2e', '--output-style=static', '--parallel=1', ...selection], {
      env: stackEnv,
      limitMs: PHASE_LIMIT_MS.e2e,
      digest: FAILURE_LINES,
      ...(prefix ? { prefix } : {}),
    });
  const first = e2eEnv(settings, infra, env);
  if (!secondStack) {
    say('end-to-end tests against the running stack ...');
    await e2e([], first);
    return;
  }
  const projects = FIRST_STACK_E2E.join(',');
  const leads = SECOND_STACK_LEADS.join(',');
  say(
    `end-to-end tests on two stacks side by side: ${projects} on the first, ` +
      `${leads} and then the rest on the second ([b]) ...`,
  );
  const secondHalf = async () => {
    // the rest runs whatever the leads' outcome, as one run-many over them all would
    const leadsRun = await Promise.allSettled([e2e([`--projects=${leads}`], secondStack, '[b] ')]);
    const restRun = await Promise.allSettled([e2e([`--exclude=${projects},${leads}`], secondStack, '[b] ')]);
    throwFailures([...leadsRun, ...restRun]);
  };
  // Both to their end: a failure on one stack leaves the other's outcome to read too.
  throwFailures(await Promise.allSettled([e2e([`--projects=${projects}`], first), secondHalf()]));
}

/** Throws what failed among `outcomes`: its error, or one that says every failure's. */
function throwFailures(outcomes: PromiseSettledResult<unknown>[]): void {
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
  if (failed.length === 1) throw failed[0]!;
  if (failed.length > 1)
    throw new StepError(
      failed.map((e) => e.message).join('\n'),
      failed[0] instanceof StepError ? failed[0].exitCode : 1,
    );
}

/**
 * The replica phase: a second replica of every consumer joins the running stack (same database,
 * Kafka and consumer groups: the groups rebalance as under a scale-up, and on 2 cores starting
 * five processes is cheaper than restarting all), the gateway starts again so its /readyz awaits
 * the new replicas too, a second gateway starts beside it, then the `e2e-replicas` targets run.
 */
export async function replicaPhase(
  settings: StackSettings,
  supervisor: Supervisor,
  infra: InfraEndpoints,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const { services, gatewayReplica } = settings;
  const added = settings.baseServices
    .filter((service) => SCALABLE.includes(service.name))
    .flatMap((service) => {
      const running = services.filter((s) => s.name === service.name).length;
      return Array.from({ length: Math.max(0, REPLICA_PHASE_REPLICAS - running) }, (_, i) =>
        replicaOf(service, running + i),
      );
    });
  if (added.length > 0) {
    say(`replica phase: starting ${added.map((s) => s.id).join(', ')} ...`);
    services.splice(
      services.findIndex((s) => s.name === 'gateway'),
      0,
      ...added,
    );
    for (const service of added) supervisor.start(service, infra);
    // The gateway reads SERVICE_HEALTH_URLS at start: the supervisor starts it again with the new list.
    await supervisor.restart('gateway');
    await supervisor.awaitReadiness();
  }
  // A second gateway beside the first, on ports of its own (what a load balancer would spread over).
  if (!services.some((s) => s.id === gatewayReplica.id)) {
    say(`replica phase: starting ${gatewayReplica.id} on ${gatewayReplica.port} ...`);
    services.push(gatewayReplica);
    supervisor.start(gatewayReplica, infra);
    await supervisor.awaitReadiness(gatewayReplica.port);
  }
  // Without SCALE the e2e phase ran one replica each, so its scenario outcome must be there.
  if (settings.scale.size === 0 && !existsSync(settings.replicaBaseline))
    throw new Error(`the one-replica phase left no ${settings.replicaBaseline} to compare with`);
  say('replica specs against two replicas of every consumer ...');
  await run('nx', ['run-many', '-t', 'e2e-replicas', '--output-style=static', '--parallel=1'], {
    env: e2eEnv(settings, infra, env),
    limitMs: PHASE_LIMIT_MS.replicas,
    digest: FAILURE_LINES,
  });
}

interface DeadLetter {
  topic?: string;
  consumer_group?: string;
  error?: unknown;
}

/**
 * No message of the run broke its topic's contract. Producers do not check what they send: each
 * consumer parses every value and parks an off-contract one in `dead-letter` with an error that
 * begins `off-contract` (libs/kafka, TypedConsumer). So a producer that builds an off-contract
 * message fails the test run here, whichever test made it send. Dead letters of other causes
 * (the poison test's charge for an unknown account) are on-contract and pass.
 */
/** `kafkaBrokers`: the stack's broker list (each stack of the run is checked). */
export async function checkNoOffContractMessages(kafkaBrokers: string): Promise<void> {
  const topic = 'dead-letter';
  const kafka = new Kafka({
    clientId: 'stack-contract-check',
    brokers: kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  const ends = (await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect())).filter(
    (p) => BigInt(p.high) > BigInt(p.low),
  );
  const offContract: DeadLetter[] = [];
  let letters = 0;
  if (ends.length > 0) {
    const unread = new Map(ends.map((p) => [p.partition, BigInt(p.high)]));
    const consumer = kafka.consumer({ groupId: `stack-contract-check-${process.pid}-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`reading ${topic} took over 60 s`)), 60_000);
        consumer
          .run({
            eachMessage: async ({ partition, message }) => {
              letters += 1;
              const letter = JSON.parse(message.value?.toString('utf8') ?? '{}') as DeadLetter;
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
    for (const letter of offContract.slice(0, 5))
      say(
        `off-contract ${letter.topic} message (consumer group ` +
          `${letter.consumer_group}): ` +
          `${String(letter.error).slice(0, 600)}`,
      );
    throw new Error(
      `${offContract.length} message(s) of this run broke their ` +
        `topic's contract (dead-letter): a producer sends what its ` +
        `consumer refuses`,
    );
  }
  say(`dead-letter: ${letters} letter(s), none off-contract`);
}

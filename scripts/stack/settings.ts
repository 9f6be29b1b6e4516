// What a run of the stack is: its command, its port block, database, Redis db and Kafka instance,
// the services it starts (with SCALE's replicas), and where it writes logs and pids.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const COMMANDS = ['up', 'test', 'e2e', 'serve', 'down'] as const;
export type Command = (typeof COMMANDS)[number];

/** One port block, database, Redis db and Kafka instance. */
export interface Profile {
  port: number;
  adminPort: number;
  simPort: number;
  healthBase: number;
  db: string;
  redisDb: number;
  kafkaInstance: string;
  kafkaPort: number;
  /** Where a test stack's trace e2e test receives OTLP; none for `up`. */
  otlpPort?: number;
  viewerPort: number;
}

/**
 * Port blocks so that a running `npm run up` and `npm test` never meet; `npm test` runs its e2e
 * projects on two stacks side by side, `test` and `test-b`.
 */
export const PROFILES = {
  dev: {
    port: 8080,
    adminPort: 8081,
    simPort: 8090,
    healthBase: 9100,
    db: 'jobs',
    redisDb: 0,
    kafkaInstance: 'dev',
    kafkaPort: 19092,
    viewerPort: 9411,
  },
  test: {
    port: 18080,
    adminPort: 18081,
    simPort: 18090,
    healthBase: 19100,
    db: 'jobs_test',
    redisDb: 1,
    kafkaInstance: 'test',
    kafkaPort: 18092,
    otlpPort: 18095,
    viewerPort: 18094,
  },
  'test-b': {
    port: 17080,
    adminPort: 17081,
    simPort: 17090,
    healthBase: 17100,
    db: 'jobs_test_b',
    redisDb: 11,
    kafkaInstance: 'test-b',
    kafkaPort: 17092,
    otlpPort: 17095,
    viewerPort: 17094,
  },
} as const satisfies Record<string, Profile>;
type ProfileName = keyof typeof PROFILES;

/** The second stack of `npm test`'s e2e phase (none for a STACK_SLOT run: a slot is one port block). */
export const SECOND_TEST_PROFILE: ProfileName = 'test-b';

/**
 * STACK_SLOT=1..9 gives a test run its own everything (ports 2N080.., database, Redis db,
 * Kafka instance), so several runs can share one machine.
 */
export function slotProfile(slot: number): Profile {
  const base = 20000 + slot * 1000;
  return {
    port: base + 80,
    adminPort: base + 81,
    simPort: base + 90,
    healthBase: base + 100,
    db: `jobs_test_s${slot}`,
    redisDb: 1 + slot,
    kafkaInstance: `s${slot}`,
    kafkaPort: base + 92,
    otlpPort: base + 95,
    viewerPort: base + 94,
  };
}

/** A process the stack starts: `id` names the replica (`dedupe#2`), `port` is its health (or public) port. */
export interface Service {
  name: string;
  id: string;
  port: number;
  env?: Record<string, string>;
}

/** Services that consume in a Kafka consumer group and may run as several replicas. */
export const SCALABLE = ['billing', 'dedupe', 'provider-fetcher', 'search-orchestrator', 'webhook-dispatcher'];

/**
 * SCALE=dedupe=3,billing=2 runs that many replicas of a consumer (1..12: the partitions of its
 * input topics). Replica k > 1 is `<name>#k` (its log `<name>-k.log`), with health port
 * healthBase + 10 (k - 1) + the service's offset, and joins the same consumer group.
 */
export function parseScale(text: string | undefined): Map<string, number> {
  const scale = new Map<string, number>();
  for (const part of (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name = '', count] = part.split('=');
    const n = Number(count);
    if (!SCALABLE.includes(name) || !Number.isInteger(n) || n < 1 || n > 12) {
      throw new Error(`SCALE: "${part}" is not <consumer>=<1..12>; consumers: ${SCALABLE.join(', ')}`);
    }
    scale.set(name, n);
  }
  return scale;
}

/** Replica i (0-based) of a service: the first keeps the service's name and port. */
export const replicaOf = (service: Omit<Service, 'id'>, i: number): Service =>
  i === 0
    ? { ...service, id: service.name }
    : { ...service, id: `${service.name}#${i + 1}`, port: service.port + 10 * i };

export interface StackSettings {
  command: Command;
  profile: Profile;
  /** `npm run up`'s own block (no STACK_SLOT): real webhook retry delays. */
  isDev: boolean;
  port: number;
  adminPort: number;
  simPort: number;
  adminToken: string;
  /** Start order: the partner simulator first, the gateway (which waits for everyone) last. */
  baseServices: Omit<Service, 'id'>[];
  scale: Map<string, number>;
  /** Every process started or to start, in start order (the replica phase and GATEWAYS=2 add some). */
  services: Service[];
  /** The second gateway of GATEWAYS=2 and of the replica phase: its public and admin ports follow the first's. */
  gatewayReplica: Service;
  logDir: string;
  /** The running services' pids (name -> pid), rewritten on every (re)start and exit, for the e2e tests. */
  pidsFile: string;
  /** The services' inspector ports (id -> port), for bench/profile.ts. */
  inspectFile: string;
  /** The one-replica e2e phase's replica scenario outcome, which the replica phase compares with. */
  replicaBaseline: string;
  /** Written by `serve` once the stack is ready: the environment its e2e tests need (`e2eEnv`). */
  e2eEnvFile: string;
  traceViewerUrl: string;
  /** A test stack's OTLP receiver port (the trace e2e test's), unless an endpoint is set or this is `up`. */
  otlpReceiverPort: number | undefined;
}

export function isCommand(text: string): text is Command {
  return (COMMANDS as readonly string[]).includes(text);
}

export function stackSettings(command: Command, env: NodeJS.ProcessEnv): StackSettings {
  const slot = Number(env['STACK_SLOT'] ?? 0);
  if (!Number.isInteger(slot) || slot < 0 || slot > 9) throw new Error('STACK_SLOT must be 1..9');
  // STACK_PROFILE names a block outright: how `npm test` starts its second stack (`serve` on test-b).
  const named = env['STACK_PROFILE'];
  if (named !== undefined && !(named in PROFILES))
    throw new Error(`STACK_PROFILE must be one of ${Object.keys(PROFILES)}`);
  const profile: Profile =
    slot > 0
      ? slotProfile(slot)
      : named
        ? PROFILES[named as ProfileName]
        : command === 'up' || command === 'down'
          ? PROFILES.dev
          : PROFILES.test;
  const port = Number(env['PORT'] ?? profile.port);
  const adminPort = Number(env['ADMIN_PORT'] ?? profile.adminPort);
  const simPort = Number(env['PROVIDER_SIM_PORT'] ?? profile.simPort);
  const baseServices: Omit<Service, 'id'>[] = [
    { name: 'provider-sim', port: simPort, env: { PROVIDER_SIM_PORT: String(simPort) } },
    { name: 'billing', port: profile.healthBase + 4 },
    { name: 'dedupe', port: profile.healthBase + 3 },
    { name: 'provider-fetcher', port: profile.healthBase + 2 },
    { name: 'search-orchestrator', port: profile.healthBase + 1 },
    { name: 'webhook-dispatcher', port: profile.healthBase + 5 },
    { name: 'gateway', port, env: { PORT: String(port), ADMIN_PORT: String(adminPort) } },
  ];
  const scale = parseScale(env['SCALE']);
  const runDir = join(ROOT, '.local', 'run', profile.kafkaInstance);
  return {
    command,
    profile,
    isDev: profile === PROFILES.dev,
    port,
    adminPort,
    simPort,
    adminToken: env['ADMIN_TOKEN'] ?? 'dev-admin-token',
    baseServices,
    scale,
    services: baseServices.flatMap((service) =>
      Array.from({ length: scale.get(service.name) ?? 1 }, (_, i) => replicaOf(service, i)),
    ),
    gatewayReplica: {
      name: 'gateway',
      id: 'gateway#2',
      port: port + 2,
      env: { PORT: String(port + 2), ADMIN_PORT: String(adminPort + 2) },
    },
    logDir: join(ROOT, '.local', 'logs', profile.kafkaInstance),
    pidsFile: join(runDir, 'pids.json'),
    inspectFile: join(runDir, 'inspect.json'),
    replicaBaseline: join(runDir, 'replica-scenario.json'),
    e2eEnvFile: join(runDir, 'e2e-env.json'),
    traceViewerUrl: `http://127.0.0.1:${profile.viewerPort}`,
    otlpReceiverPort: env['OTEL_EXPORTER_OTLP_ENDPOINT'] || command === 'up' ? undefined : profile.otlpPort,
  };
}

/**
 * The trace viewer (Zipkin, deploy/zipkin/): `npm run up` starts it unless TRACE_VIEWER=0; a test
 * stack only when asked, TRACE_VIEWER=1 (the viewer's e2e spec starts it for itself otherwise).
 */
export function viewerWanted(settings: StackSettings, env: NodeJS.ProcessEnv): boolean {
  const asked = (env['TRACE_VIEWER'] ?? '').trim().toLowerCase();
  if (['0', 'false', 'off', 'no'].includes(asked)) return false;
  if (['1', 'true', 'on', 'yes'].includes(asked)) return true;
  return settings.command === 'up';
}

/**
 * The webhook retry schedule's multiplier: 1 under `npm run up`, 0.001 for test stacks (`npm test`
 * and any STACK_SLOT), so the whole 24 h schedule takes about 86 s and e2e tests can watch it.
 */
export function webhookRetryScale(settings: StackSettings, env: NodeJS.ProcessEnv): string {
  return env['WEBHOOK_RETRY_SCALE'] ?? (settings.isDev ? '1' : '0.001');
}

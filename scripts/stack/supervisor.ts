// The process supervisor: starts every service from its bundle with its environment and log,
// waits for the gateway's /readyz, starts a service that dies again (as a process supervisor or
// Kubernetes would; before every service is ready, a death fails the start-up), and stops them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serviceDatabaseUrlOf } from './database.ts';
import type { InfraEndpoints } from './infrastructure.ts';
import { say, waitFor } from './process.ts';
import { ROOT, viewerWanted, webhookRetryScale, type Service, type StackSettings } from './settings.ts';

/**
 * A dead service starts again after this long (a crash loop backs off from it, below): as a
 * kubelet restarts a container at once the first time, a crash costs its recovery no wait of ours.
 */
const RESTART_DELAY_MS = 100;
/** A service that dies again within this long after its start waits twice as long each time (up to 10 s). */
const CRASH_LOOP_WINDOW_MS = 10000;

/** Where a service's inspector listens once opened by SIGUSR1: its port + 500 (free in every port block). */
const inspectPortOf = (service: Service): number => service.port + 500;

export class Supervisor {
  private readonly children = new Map<string, ChildProcess>();
  /** Restarts waiting for their delay, so a shutdown can cancel them. */
  private readonly pendingRestarts = new Map<string, { timer: NodeJS.Timeout; delay: number }>();
  /** Once every service is ready, a service that dies is started again; before, a death fails the start-up. */
  private supervising = false;
  private stopping = false;
  private readonly heapFlags: string[];
  private readonly settings: StackSettings;
  private readonly env: NodeJS.ProcessEnv;

  constructor(settings: StackSettings, env: NodeJS.ProcessEnv) {
    this.settings = settings;
    this.env = env;
    // Each service's old-space ceiling, its initial size and its semi-space size (MB; 0 leaves it
    // to Node), see start().
    const heapMb = Number(env['STACK_SERVICE_HEAP_MB'] ?? 1024);
    const initialOldSpaceMb = Number(env['STACK_SERVICE_INITIAL_OLD_SPACE_MB'] ?? 256);
    const semiSpaceMb = Number(env['STACK_SERVICE_SEMI_SPACE_MB'] ?? 16);
    this.heapFlags = [
      ...(heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : []),
      ...(initialOldSpaceMb > 0 ? [`--initial-old-space-size=${initialOldSpaceMb}`] : []),
      ...(semiSpaceMb > 0 ? [`--max-semi-space-size=${semiSpaceMb}`] : []),
    ];
  }

  /** The ids of the services running now. */
  running(): string[] {
    return [...this.children.keys()];
  }

  /** Starts every service, waits for readiness (and a second gateway with GATEWAYS=2), then supervises. */
  async startAll(infra: InfraEndpoints): Promise<void> {
    const { services, gatewayReplica, logDir } = this.settings;
    say(`starting ${services.length} services (logs in ${logDir.replace(ROOT + '/', '')}/) ...`);
    for (const service of services) this.start(service, infra);
    await this.awaitReadiness();
    // GATEWAYS=2: a second gateway beside the first, as the replica phase runs (what a load balancer spreads over).
    if (Number(this.env['GATEWAYS'] ?? 1) >= 2) {
      services.push(gatewayReplica);
      this.start(gatewayReplica, infra);
      await this.awaitReadiness(gatewayReplica.port);
      say(`${gatewayReplica.id} on http://127.0.0.1:${gatewayReplica.port}`);
    }
    this.supervising = true;
  }

  /** Starts one service (or replica) with its environment, its log file and its inspector port. */
  start(service: Service, infra: InfraEndpoints): string {
    mkdirSync(this.settings.logDir, { recursive: true });
    const logFile = join(this.settings.logDir, `${service.id.replace('#', '-')}.log`);
    const out = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(
      'node',
      // The inspector stays closed unless someone sends SIGUSR1 (bench/profile.ts does, to take CPU
      // profiles of the running services); its port is then fixed, beside the service's own.
      // Each service runs from its bundle (scripts/bundle.mjs: one file, not 2,000 to resolve and
      // read), without --enable-source-maps: parsing the bundle's map costs CPU at every start;
      // NODE_OPTIONS=--enable-source-maps brings the mapped stack traces back when wanted.
      // The heap's ceiling is set, not left to Node: Node 24 sizes it from the memory limit libuv
      // reads, and on a host whose cgroup (v1) reports no limit that read overflows to the 192 MB
      // floor. The young generation is capped at 16 MB a semi-space (as deploy/Dockerfile does):
      // V8 starts a full collection as soon as the old generation's headroom falls below the young
      // generation's size, which sized from a 1 GB heap put a mark-compact on a search's path.
      // The old generation starts with room (256 MB, as deploy/Dockerfile does): V8 sets its next
      // full collection a few MB above what the last one left live, and a service lives in 40-60
      // MB, so the message objects each handler promotes reached that limit every few hundred
      // milliseconds under load, a mark-compact each time.
      [
        '--disable-warning=TimeoutNegativeWarning',
        ...this.heapFlags,
        `--inspect-port=127.0.0.1:${inspectPortOf(service)}`,
        '--import',
        '@jobs/observability/register',
        `apps/${service.name}/bundle/main.mjs`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: this.serviceEnv(service, infra) },
    );
    const startedAt = Date.now();
    // Both streams go to one file, closed once the process and its pipes are done.
    child.stdout!.pipe(out, { end: false });
    child.stderr!.pipe(out, { end: false });
    child.on('close', () => out.end());
    // Errors and warnings also reach the terminal, one compact line each.
    child.stderr!.on('data', (d) => process.stderr.write(prefixLines(service.id, d)));
    child.stdout!.on('data', (d) => {
      for (const line of String(d).split('\n')) {
        if (/"level":"(error|fatal)"/.test(line)) process.stderr.write(prefixLines(service.id, compactLog(line)));
      }
    });
    child.on('exit', (code, signal) => {
      if (this.children.get(service.id) === child) this.children.delete(service.id);
      this.writePids();
      if (this.stopping) return;
      say(`${service.id} exited (${signal ?? `code ${code}`}); its log: ${logFile}`);
      if (this.supervising) this.scheduleRestart(service, infra, Date.now() - startedAt);
    });
    this.children.set(service.id, child);
    this.writePids();
    return logFile;
  }

  /** Stops a running service (SIGTERM) and waits for it: the supervisor starts it again. */
  async restart(id: string): Promise<void> {
    const child = this.children.get(id);
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Waits for a gateway's /readyz (every service's readiness); before supervision, a death fails it. */
  async awaitReadiness(port = this.settings.port): Promise<void> {
    const readyz = `http://127.0.0.1:${port}/readyz`;
    let lastReport = '';
    let lastSaid = 0;
    await waitFor(
      `${readyz} to answer 200`,
      async () => {
        if (!this.supervising && this.children.size < this.settings.services.length)
          throw new Error('a service exited during start-up; see its log above');
        try {
          const res = await fetch(readyz, { signal: AbortSignal.timeout(3000) });
          if (res.status === 200) return true;
          const body = (await res.json().catch(() => ({}))) as { checks?: Record<string, boolean> };
          lastReport = Object.entries(body.checks ?? {})
            .filter(([, ok]) => !ok)
            .map(([k]) => k)
            .join(', ');
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
      Number(this.env['STACK_READY_TIMEOUT_MS'] ?? 300000),
      500,
    );
    say(`every service is ready (${readyz} → 200)`);
  }

  /** SIGTERM to every service, then their drain; past 25 s the rest are killed. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const { timer } of this.pendingRestarts.values()) clearTimeout(timer);
    this.pendingRestarts.clear();
    if (this.children.size === 0) return this.removePidsFile();
    say(`stopping ${this.children.size} services (SIGTERM, then drain) ...`);
    const exits = [...this.children.values()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of this.children.values()) child.kill('SIGTERM');
    const timeout = sleep(25000).then(() => 'timeout');
    if ((await Promise.race([Promise.all(exits), timeout])) === 'timeout') {
      for (const [name, child] of this.children) {
        say(`${name} did not stop in time; killing it`);
        child.kill('SIGKILL');
      }
    }
    this.removePidsFile();
  }

  private serviceEnv(service: Service, infra: InfraEndpoints): NodeJS.ProcessEnv {
    const { env, settings } = this;
    const databaseUrl = serviceDatabaseUrlOf(service.name, infra.databaseUrl, env);
    const childEnv: NodeJS.ProcessEnv = {
      ...env,
      NODE_ENV: settings.command === 'up' ? 'development' : 'test',
      REDIS_URL: infra.redisUrl,
      KAFKA_BROKERS: infra.kafkaBrokers,
      ADMIN_TOKEN: settings.adminToken,
      WORLD_SEED: env['WORLD_SEED'] ?? '42',
      // the simulated market's size (provider-sim's defaults when unset), for benchmarks at scale
      ...(env['WORLD_SLOTS'] ? { WORLD_SLOTS: env['WORLD_SLOTS'] } : {}),
      ...(env['WORLD_COMPANIES'] ? { WORLD_COMPANIES: env['WORLD_COMPANIES'] } : {}),
      REFRESH_INTERVAL_MS: env['REFRESH_INTERVAL_MS'] ?? '60000',
      WEBHOOK_RETRY_SCALE: webhookRetryScale(settings, env),
      WEBHOOK_ALLOW_PRIVATE: env['WEBHOOK_ALLOW_PRIVATE'] ?? 'true',
      PROVIDER_SIM_URL: `http://127.0.0.1:${settings.simPort}`,
      SERVICE_HEALTH_URLS: settings.services
        .filter((s) => s.name !== 'gateway')
        .map((s) => `${s.id}=http://127.0.0.1:${s.port}`)
        .join(','),
      LOG_LEVEL: env['LOG_LEVEL'] ?? 'info',
      ...this.traceEnv(),
      ...service.env,
      HEALTH_PORT: String(service.port),
      OTEL_SERVICE_NAME: service.name,
      // INSTANCE_ID names the replica, the same after a restart: its consumers rejoin their groups
      // as the same static members and take their partitions back at once.
      INSTANCE_ID: service.id.replace('#', '-'),
    };
    // Each service connects as its own role and sees no other connection string.
    for (const name of Object.keys(childEnv)) if (name.startsWith('DATABASE_URL')) delete childEnv[name];
    if (databaseUrl) childEnv['DATABASE_URL'] = databaseUrl;
    return childEnv;
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
  private traceEnv(): Record<string, string> {
    const { env, settings } = this;
    const spansUrl = `${settings.traceViewerUrl}/api/v2/spans`;
    if (settings.command === 'up')
      return viewerWanted(settings, env) && !env['OTEL_EXPORTER_ZIPKIN_ENDPOINT']
        ? { OTEL_EXPORTER_ZIPKIN_ENDPOINT: spansUrl }
        : {};
    return {
      ...(settings.otlpReceiverPort
        ? {
            OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${settings.otlpReceiverPort}`,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          }
        : {}),
      OTEL_EXPORTER_ZIPKIN_ENDPOINT: env['OTEL_EXPORTER_ZIPKIN_ENDPOINT'] ?? spansUrl,
      OTEL_TRACES_SAMPLER: env['OTEL_TRACES_SAMPLER'] ?? 'parentbased_always_off',
    };
  }

  /** Starts a service that died again after a short delay, with the same command, environment and log. */
  private scheduleRestart(service: Service, infra: InfraEndpoints, ranForMs: number): void {
    const previous = this.pendingRestarts.get(service.id);
    const delay =
      ranForMs < CRASH_LOOP_WINDOW_MS && previous?.delay ? Math.min(previous.delay * 2, 10000) : RESTART_DELAY_MS;
    const timer = setTimeout(() => {
      if (this.stopping || this.children.has(service.id)) return;
      say(`restarting ${service.id} (after ${delay} ms)`);
      this.start(service, infra);
    }, delay);
    this.pendingRestarts.set(service.id, { timer, delay });
  }

  /** Written whole and renamed into place, so a reader never sees half a file. */
  private writePids(): void {
    const { services, inspectFile, pidsFile } = this.settings;
    const pids = Object.fromEntries([...this.children].map(([name, child]) => [name, child.pid]));
    const inspect = Object.fromEntries(
      services.filter((s) => this.children.has(s.id)).map((s) => [s.id, inspectPortOf(s)]),
    );
    writeWhole(inspectFile, `${JSON.stringify(inspect, null, 2)}\n`);
    writeWhole(pidsFile, `${JSON.stringify(pids, null, 2)}\n`);
  }

  private removePidsFile(): void {
    rmSync(this.settings.pidsFile, { force: true });
    rmSync(this.settings.inspectFile, { force: true });
  }
}

function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function compactLog(line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; err?: { message?: string } };
    return `${entry.level}: ${entry.msg}${entry.err?.message ? ` (${entry.err.message})` : ''}\n`;
  } catch {
    return `${line}\n`;
  }
}

function prefixLines(name: string, data: unknown): string {
  return String(data)
    .split('\n')
    .filter(Boolean)
    .map((l) => `  [${name}] ${l}\n`)
    .join('');
}

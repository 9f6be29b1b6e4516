// The infrastructure under the services: PostgreSQL and Redis (the machine's own, started when
// installed but stopped), the Kafka broker and the trace viewer (this stack's instances); each
// stopped again by the run that started it, and only by that run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { portOpen, run, say, waitFor, which } from './process.ts';
import { ROOT, viewerWanted, type StackSettings } from './settings.ts';

/** How often the trace viewer this run started is checked, and restarted if it died. */
const VIEWER_CHECK_MS = 2000;

/** How to stop the machine's PostgreSQL or Redis, for each that this run found stopped and started. */
const startedHere: Array<{ name: string; stop: () => Promise<unknown> }> = [];

/**
 * Stops the machine's servers this run started (Ctrl-C stops everything the run started), none
 * other; left running while another stack of this checkout still has services up on them
 * (`ownPidsFile`: this run's, already removed or about to be).
 */
async function stopServersStartedHere(ownPidsFile: string): Promise<void> {
  const servers = startedHere.splice(0).reverse();
  if (servers.length === 0) return;
  const others = otherStacksRunning(ownPidsFile);
  for (const server of servers) {
    if (others.length > 0) {
      say(`${server.name} left running: this run started it, and ${others.join(', ')} still use it`);
      continue;
    }
    await server.stop().catch(() => say(`${server.name} could not be stopped; it is still running`));
    say(`${server.name} stopped (this run had started it)`);
  }
}

/** The other stacks of this checkout with a service still alive (their `pids.json` under `.local/run`). */
function otherStacksRunning(ownPidsFile: string): string[] {
  const runDir = join(ROOT, '.local', 'run');
  const stacks = existsSync(runDir) ? readdirSync(runDir) : [];
  return stacks.filter((stack) => {
    const file = join(runDir, stack, 'pids.json');
    if (file === ownPidsFile || !existsSync(file)) return false;
    try {
      const pids = Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>);
      return pids.some((pid) => {
        try {
          process.kill(pid, 0); // signal 0: whether it lives, nothing is sent
          return true;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

/** Where PostgreSQL, Redis and Kafka are for this run, and whether the trace viewer runs. */
export interface InfraEndpoints {
  /** The owner (admin) role's connection string: migrations, the table upkeep, the tests' fixtures. */
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  traceViewer: boolean;
}

/**
 * PostgreSQL at DATABASE_URL when set, else the local server. A fresh run (a test run, which
 * drops and makes its database again) keeps to a database of its own profile's name on the given
 * server, never the one DATABASE_URL names: that may be the one `npm run up` keeps.
 */
export async function ensurePostgres(
  settings: StackSettings,
  env: NodeJS.ProcessEnv,
  { fresh }: { fresh: boolean },
): Promise<string> {
  const given = env['DATABASE_URL'];
  if (given) {
    const url = new URL(given);
    if (fresh) url.pathname = `/${settings.profile.db}`;
    say(
      `PostgreSQL from DATABASE_URL (${url.hostname}:${url.port || 5432}` +
        `${fresh ? `, database ${settings.profile.db} of this test run` : ''})`,
    );
    return url.toString();
  }
  if (!(await portOpen('127.0.0.1', 5432))) {
    if (await which('pg_ctlcluster')) {
      say('local PostgreSQL is installed but stopped; starting it ...');
      const cluster = (action: 'start' | 'stop') =>
        run('bash', ['-c', `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | tail -n1) main ${action}`], {
          quiet: true,
        });
      await cluster('start');
      startedHere.push({ name: 'PostgreSQL', stop: () => cluster('stop') });
      await waitFor('PostgreSQL on 127.0.0.1:5432', () => portOpen('127.0.0.1', 5432), 30000);
    } else {
      throw new Error('no PostgreSQL: set DATABASE_URL or install the postgresql server package');
    }
  }
  say('PostgreSQL on 127.0.0.1:5432');
  return `postgresql://postgres@127.0.0.1:5432/${settings.profile.db}`;
}

/** Redis at REDIS_URL when set, else the local server; a fresh run (emptied) on its own profile's database there. */
export async function ensureRedis(
  settings: StackSettings,
  env: NodeJS.ProcessEnv,
  { fresh }: { fresh: boolean },
): Promise<string> {
  const given = env['REDIS_URL'];
  if (given) {
    const url = new URL(given);
    if (fresh) url.pathname = `/${settings.profile.redisDb}`;
    say(`Redis from REDIS_URL${fresh ? ` (database ${settings.profile.redisDb} of this test run)` : ''}`);
    return url.toString();
  }
  if (!(await portOpen('127.0.0.1', 6379))) {
    if (await which('redis-server')) {
      say('local Redis is installed but stopped; starting it ...');
      await run(
        'redis-server',
        ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'],
        { quiet: true },
      );
      startedHere.push({
        name: 'Redis',
        stop: () => run('redis-cli', ['-h', '127.0.0.1', '-p', '6379', 'shutdown', 'nosave'], { quiet: true }),
      });
      await waitFor('Redis on 127.0.0.1:6379', () => portOpen('127.0.0.1', 6379), 15000);
    } else {
      throw new Error('no Redis: set REDIS_URL or install the redis-server package');
    }
  }
  say('Redis on 127.0.0.1:6379');
  return `redis://127.0.0.1:6379/${settings.profile.redisDb}`;
}

/** Empties the Redis database of a fresh run (when redis-cli is there to do it). */
export async function flushRedis(redisUrl: string): Promise<void> {
  const { hostname, port, pathname } = new URL(redisUrl);
  const db = pathname.slice(1) || '0';
  if (await which('redis-cli'))
    await run('redis-cli', ['-h', hostname, '-p', port || '6379', '-n', db, 'FLUSHDB'], { quiet: true });
}

/** The broker and the trace viewer of this run: started, and stopped again only by the run that started them. */
export class LocalServers {
  private kafkaStartedHere = false;
  private viewerStartedHere = false;
  /** A broker start still under way when something else fails: stop waits for it, then stops it. */
  private kafkaStarting: Promise<unknown> = Promise.resolve();
  /** A trace viewer start still under way when something else fails: stop waits for it. */
  private viewerStarting: Promise<unknown> = Promise.resolve();
  private viewerWatch: NodeJS.Timeout | undefined;

  private readonly settings: StackSettings;
  private readonly env: NodeJS.ProcessEnv;

  constructor(settings: StackSettings, env: NodeJS.ProcessEnv) {
    this.settings = settings;
    this.env = env;
  }

  /** Starts the broker (unless KAFKA_BROKERS names one); its address. */
  startKafka({ fresh }: { fresh: boolean }): Promise<string> {
    const started = this.ensureKafka(fresh);
    this.kafkaStarting = started.catch(() => {});
    return started;
  }

  /** Starts the trace viewer when wanted; whether it runs. */
  startTraceViewer(): Promise<boolean> {
    const started = this.ensureTraceViewer();
    this.viewerStarting = started.catch(() => {});
    return started;
  }

  /**
   * Stops what this run started, once any start still under way has ended: the broker, the trace
   * viewer, and the machine's PostgreSQL or Redis if this run started them.
   */
  async stop(): Promise<void> {
    clearInterval(this.viewerWatch);
    await this.kafkaStarting;
    await this.stopKafka();
    await this.viewerStarting;
    await this.stopTraceViewer();
    await stopServersStartedHere(this.settings.pidsFile);
  }

  /** `down`: a broker and viewer left running by an earlier `up`. */
  async stopLeftOver(): Promise<void> {
    this.kafkaStartedHere = true;
    this.viewerStartedHere = true;
    await this.stop();
  }

  private kafkaEnv() {
    const { kafkaInstance, kafkaPort } = this.settings.profile;
    return {
      KAFKA_INSTANCE: kafkaInstance,
      KAFKA_PORT: String(kafkaPort),
      KAFKA_CONTROLLER_PORT: String(kafkaPort + 1),
    };
  }

  private viewerEnv() {
    return {
      ZIPKIN_PORT: String(this.settings.profile.viewerPort),
      ZIPKIN_INSTANCE: this.settings.profile.kafkaInstance,
    };
  }

  private async ensureKafka(fresh: boolean): Promise<string> {
    const given = this.env['KAFKA_BROKERS'];
    if (given) {
      say(`Kafka from KAFKA_BROKERS (${given})`);
      return given;
    }
    // A fresh run starts from empty topics too: messages left by an earlier run would name
    // accounts and searches the fresh database never had.
    if (fresh) await run('bash', ['deploy/kafka/kafka.sh', 'reset'], { env: this.kafkaEnv() });
    const wasRunning = await run('bash', ['deploy/kafka/kafka.sh', 'status'], {
      quiet: true,
      env: this.kafkaEnv(),
    }).then(
      () => true,
      () => false,
    );
    await run('bash', ['deploy/kafka/kafka.sh', 'start'], { env: this.kafkaEnv() });
    this.kafkaStartedHere = !wasRunning;
    return `127.0.0.1:${this.settings.profile.kafkaPort}`;
  }

  private async stopKafka(): Promise<void> {
    if (!this.kafkaStartedHere) return;
    say('stopping the Kafka broker started by this run ...');
    await run('bash', ['deploy/kafka/kafka.sh', 'stop'], { env: this.kafkaEnv() }).catch((e: Error) =>
      say(`kafka stop: ${e.message}`),
    );
  }

  /** Starts the viewer; a viewer that will not start costs `up` its traces, not the API (a warning). */
  private async ensureTraceViewer(): Promise<boolean> {
    const up = this.settings.command === 'up';
    if (!viewerWanted(this.settings, this.env)) {
      // A test stack's viewer spec starts the viewer itself: its jar is fetched now, beside the
      // broker's start, rather than inside a test.
      if (!up) await run('bash', ['deploy/zipkin/zipkin.sh', 'fetch'], { env: this.viewerEnv() });
      return false;
    }
    const wasRunning = await run('bash', ['deploy/zipkin/zipkin.sh', 'status'], {
      quiet: true,
      env: this.viewerEnv(),
    }).then(
      () => true,
      () => false,
    );
    try {
      await run('bash', ['deploy/zipkin/zipkin.sh', 'start'], { env: this.viewerEnv() });
    } catch (error) {
      if (!up) throw error;
      say(`the trace viewer did not start (${(error as Error).message.split('\n')[0]}); going on without it`);
      return false;
    }
    this.viewerStartedHere = !wasRunning;
    if (this.viewerStartedHere) this.superviseViewer();
    return true;
  }

  /**
   * The viewer is a process of this stack like the services: if it dies (out of memory, a stray
   * kill), it is started again, and its spans are lost as a restarted viewer's always are. The
   * services only export to it, so none of them waits on it.
   */
  private superviseViewer(): void {
    const pidFile = join(ROOT, '.local', 'zipkin', this.viewerEnv().ZIPKIN_INSTANCE, 'zipkin.pid');
    let restarting: Promise<unknown> | undefined;
    this.viewerWatch = setInterval(() => {
      if (restarting || processAlive(pidFile)) return;
      say('the trace viewer died; starting it again');
      restarting = run('bash', ['deploy/zipkin/zipkin.sh', 'start'], { env: this.viewerEnv() })
        .catch((e: Error) => say(`the trace viewer did not start again: ${e.message.split('\n')[0]}`))
        .finally(() => (restarting = undefined));
      this.viewerStarting = restarting;
    }, VIEWER_CHECK_MS);
    this.viewerWatch.unref();
  }

  private async stopTraceViewer(): Promise<void> {
    if (!this.viewerStartedHere) return;
    await run('bash', ['deploy/zipkin/zipkin.sh', 'stop'], { env: this.viewerEnv() }).catch((e: Error) =>
      say(`trace viewer stop: ${e.message}`),
    );
  }
}

/** Whether the process named by a pid file is alive (signal 0 only asks). */
function processAlive(pidFile: string): boolean {
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 0);
    return true;
  } catch {
    return false;
  }
}

import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '@jobs/observability';

/** The first key of every relay's life lock (`pg_advisory_lock(int, int)`): "outb". */
export const RELAY_LOCK_NAMESPACE = 0x6f757462;

const RECONNECT_MS = 1_000;
/** How often the lock's connection is used, so that a connection dropped on the way is noticed. */
const HEARTBEAT_MS = 5_000;
/** A connect, heartbeat or close that takes longer than this has failed. */
const TIMEOUT_MS = 5_000;
/**
 * TCP keepalives of the lock's session on the server's side: a host that vanished (no FIN ever
 * comes) loses its lock within about 11 s, not the operating system's default of two hours.
 */
const SERVER_KEEPALIVES = '-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3';

/**
 * A session advisory lock a relay holds on a connection of its own for as long as its process
 * lives. PostgreSQL drops it the moment that connection closes (the process exited or was killed;
 * a vanished host within its keepalives), so the rows staged under its key are known to be
 * nobody's to send as soon as it is gone, without waiting for the age after which any row is
 * taken. While the connection is down the lock is not held and other relays may send this one's
 * rows as well: a message sent twice, which consumers tolerate (at least once).
 */
export class RelayLifeLock {
  private currentKey = randomKey();
  private client?: pg.Client;
  private reconnect?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private failedTries = 0;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** The second key of the lock, written into every row this relay stages (`staged_by`). */
  get key(): number {
    return this.currentKey;
  }

  /**
   * Takes the lock (another key if a live relay holds this one); throws when it cannot, as a start
   * without a database does.
   */
  async start(): Promise<void> {
    const client = await this.connect();
    try {
      // Another live relay drew the same key: nothing is staged before the first lock, so draw again.
      while (!(await tryLock(client, this.currentKey))) this.currentKey = randomKey();
    } catch (error) {
      await close(client);
      throw error;
    }
    this.holdWith(client);
  }

  /** Releases the lock (the rows still staged are then anyone's to send). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    if (client) await close(client);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: HEARTBEAT_MS,
      application_name: 'outbox-relay-life-lock',
      options: SERVER_KEEPALIVES,
    });
    client.on('error', (error) => this.lost(client, error));
    try {
      await client.connect();
    } catch (error) {
      await close(client);
      throw error;
    }
    return client;
  }

  private holdWith(client: pg.Client): void {
    this.client = client;
    this.failedTries = 0;
    client.on('end', () => this.lost(client));
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch((error: unknown) => this.lost(client, error));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** After the lock's connection failed: the same key again (the rows staged under it are this relay's). */
  private async takeAgain(): Promise<void> {
    let client: pg.Client | undefined;
    try {
      client = await this.connect();
      if (!(await tryLock(client, this.currentKey)))
        throw new Error(`relay life lock ${this.currentKey} is held by another session`);
      if (this.stopped) {
        await close(client);
        return;
      }
      this.holdWith(client);
      this.logger.info({ key: this.currentKey }, 'outbox relay life lock held again');
    } catch (error) {
      if (client) await close(client);
      this.retry(error);
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    clearInterval(this.heartbeat);
    // a connection that failed without closing would keep the lock from its successor
    void close(client);
    this.retry(error);
  }

  private retry(error?: unknown): void {
    if (this.stopped || this.client || this.reconnect) return;
    if (this.failedTries++ % 30 === 0)
      this.logger.warn({ err: error, key: this.currentKey }, 'outbox relay life lock not held; taking it again');
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      void this.takeAgain();
    }, RECONNECT_MS);
  }
}

async function tryLock(client: pg.Client, key: number): Promise<boolean> {
  const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS held', [
    RELAY_LOCK_NAMESPACE,
    key,
  ]);
  return rows[0]?.held === true;
}

/** Ends the connection, or gives up on a peer that no longer answers (the socket is dropped either way). */
async function close(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** A positive int4, so that pg_locks' objid shows the key as written. */
const randomKey = (): number => randomInt(1, 2 ** 31 - 1);

import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '@jobs/observability';

/** The first key of every relay's life lock (`pg_advisory_lock(int, int)`): "outb". */
export const RELAY_LOCK_NAMESPACE = 0x6f757462;

const RECONNECT_MS = 1_000;

/**
 * A session advisory lock a relay holds on a connection of its own for as long as its process
 * lives. PostgreSQL drops it the moment that connection closes (the process exited, was killed,
 * or lost the server), so the rows staged under its key are known to be nobody's to send as soon
 * as it is gone, without waiting for the age after which any row is taken. While the connection
 * is down the lock is not held and other relays may send this one's rows as well: a message sent
 * twice, which consumers tolerate (at least once).
 */
export class RelayLifeLock {
  private currentKey = randomKey();
  private client?: pg.Client;
  private reconnect?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** The second key of the lock, written into every row this relay stages (`staged_by`). */
  get key(): number {
    return this.currentKey;
  }

  /** Takes the lock (another key if a live relay holds this one); on failure keeps trying in the background. */
  async start(): Promise<void> {
    await this.hold(true);
  }

  /** Releases the lock (the rows still staged are then anyone's to send). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async hold(starting: boolean): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true });
    client.on('error', (error) => this.lost(client, error));
    try {
      await client.connect();
      for (;;) {
        const [row] = (
          await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS held', [
            RELAY_LOCK_NAMESPACE,
            this.currentKey,
          ])
        ).rows;
        if (row?.held) break;
        // Another live relay drew the same key: rows are not staged before the first lock, so draw again.
        if (!starting) throw new Error(`relay life lock ${this.currentKey} is held by another session`);
        this.currentKey = randomKey();
      }
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      client.on('end', () => this.lost(client));
    } catch (error) {
      await client.end().catch(() => undefined);
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client === client) this.client = undefined;
    if (this.stopped || this.client || this.reconnect) return;
    this.logger.warn({ err: error, key: this.currentKey }, 'outbox relay life lock lost; taking it again');
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      void this.hold(false);
    }, RECONNECT_MS);
  }
}

/** A positive int4: pg_locks shows the key as an oid, which a negative one would not read back as. */
const randomKey = (): number => randomInt(1, 2 ** 31 - 1);

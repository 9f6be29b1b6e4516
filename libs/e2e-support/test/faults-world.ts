// The world the fault specs run in, shared by every scenario and check of the run: two Pro
// accounts, each with a search watch, under a steady load (load.ts), and a webhook receiver that
// fails one first attempt in five; PostgreSQL read beside the HTTP API.
import pg from 'pg';
import { SERVICE_NAMES } from '@jobs/contracts';
import { admin, api, eventually, Receiver, stack, uniqueWord } from '../src/index.js';
import { Load, type LoadAccount } from './load.js';

const START_CREDITS = 1_000_000;
/** The stack's services, each SIGKILLed in turn (the simulated partners apart). */
export const SERVICES = SERVICE_NAMES.filter((name) => name !== 'provider-sim');
/** How long a scenario may take to see the stack serve again; generous: the machine has 2 cores. */
export const RECOVERY_MS = 180_000;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** One failed first attempt in five: deliveries go through the (scaled) retry schedule too. */
const sometimesFailing = (n: number) => (n % 5 === 2 ? 500 : 200);

/** One line per fault on the run's output (beside the stack's log), so a run shows what each scenario did. */
export function report(message: string): void {
  process.stdout.write(`[faults spec] ${message}\n`);
}

/** Its accounts, load and database client are set by `start` (beforeAll): read them inside a test. */
export class FaultWorld {
  readonly receiver = new Receiver();
  /** A client of the stack's database; a PostgreSQL restart ends it, and the scenario connects a new one. */
  db!: pg.Client;
  accounts!: LoadAccount[];
  load!: Load;
  /** The watch endpoint of each account, to check every delivery's signature with that endpoint's secret. */
  readonly watchHooks = new Map<string, string>();

  async start(): Promise<void> {
    await this.receiver.start();
    this.db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await this.db.connect();
    this.accounts = [await this.loadAccount(), await this.loadAccount()];
    this.load = new Load(this.accounts);
    this.load.start();
    await this.servesAgain(4);
  }

  async stop(): Promise<void> {
    await this.load?.stop(0);
    await this.receiver.stop();
    await this.db?.end().catch(() => undefined);
  }

  private async loadAccount(): Promise<LoadAccount> {
    const created = await admin(
      'POST',
      '/accounts',
      { plan: 'pro', credits: START_CREDITS, rate_limit: { limit: 100_000, window_seconds: 60 } },
      201,
    );
    const account: LoadAccount = {
      accountId: String(created!['account_id']),
      key: String(created!['live_key']),
      startCredits: START_CREDITS,
      word: uniqueWord(),
      searchHook: this.receiver.endpoint(sometimesFailing),
    };
    const hook = this.receiver.endpoint(sometimesFailing);
    const watch = await api('/v1/watches', {
      key: account.key,
      body: { type: 'search', filters: { title_or: [account.word] }, webhook_url: hook },
    });
    if (watch.status !== 201)
      throw new Error(`POST /v1/watches answered ${watch.status}: ${JSON.stringify(watch.body)}`);
    this.watchHooks.set(account.accountId, hook);
    return account;
  }

  /** Waits until some load request is under way, so the fault meets work in flight (not an idle stack). */
  async whileBusy(): Promise<number> {
    return eventually(
      () => (this.load.inFlight > 0 ? this.load.inFlight : undefined),
      RECOVERY_MS,
      'a request of the load under way',
      10,
    );
  }

  /** Waits until the load got `more` sync answers and one async 202 after the fault: the stack serves again. */
  async servesAgain(more = 3): Promise<void> {
    const answered = this.load.answered + more;
    const accepted = this.load.asyncAccepted + 1;
    await eventually(
      () => (this.load.answered >= answered && this.load.asyncAccepted >= accepted ? true : undefined),
      RECOVERY_MS,
      `${more} more sync answers and an async 202 (answered ${this.load.answered})`,
    );
  }
}

/**
 * A sync search sent as is. api() first awaits a refresh pass when the load added an opening of
 * the own crawler since the last pass, and no pass finishes while Redis is away (the orchestrator
 * keeps its lease there): the Redis scenario then waited for the pass until its timeout, not for
 * the refusal it checks (whether it did depended on the load's last opening).
 */
export async function searchWithoutPass(
  key: string,
  body: unknown,
  idempotencyKey: string,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(`${stack.baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Helpers for end-to-end tests against a running stack (never imported by services). */
import { AssignerProtocol, Kafka, logLevel, type Consumer, type IHeaders } from 'kafkajs';

/** Where the running stack is (set by scripts/stack.mjs for `npm test`). */
export const stack = {
  baseUrl: process.env['BASE_URL'] ?? 'http://127.0.0.1:8080',
  adminUrl: process.env['ADMIN_URL'] ?? 'http://127.0.0.1:8081',
  adminToken: process.env['ADMIN_TOKEN'] ?? 'dev-admin-token',
  kafkaBrokers: (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(','),
};

export async function createAccount(body: {
  plan: string;
  credits: number;
  rate_limit?: { limit: number; window_seconds: number };
}): Promise<{ account_id: string; live_key: string; test_key: string }> {
  const res = await fetch(`${stack.adminUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`account creation answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { account_id: string; live_key: string; test_key: string };
}

/**
 * The own index answers searches from the store, which the own crawler's sweeps (refresh passes)
 * fill: an opening added to the world for `own_index` is found once a pass has swept it in, as
 * for a customer. `addWorldJob` marks such an opening; the next search through `api()` (a sync
 * or async search) awaits one refresh pass first, so tests read as before without a pass per
 * opening. Tests about the passes themselves call `refreshPass()`.
 */
let crawlIsPending = false;

export function crawlPending(): void {
  crawlIsPending = true;
}

/** Awaits a refresh pass when an opening for the own crawler was added since the last one. */
export async function crawled(): Promise<void> {
  if (!crawlIsPending) return;
  crawlIsPending = false;
  await refreshPass();
}

/**
 * One refresh pass (POST /admin/refresh), awaited to its end (GET /admin/refresh/{id}): the own
 * crawler's sweep, the partners' new listings and one bucket of stored companies are merged, and
 * the changes they made are staged for the watches.
 */
export async function refreshPass(timeoutMs = 300_000): Promise<string> {
  const headers = { authorization: `Bearer ${stack.adminToken}` };
  const answer = await fetch(`${stack.adminUrl}/admin/refresh`, { method: 'POST', headers });
  if (answer.status !== 202) throw new Error(`POST /admin/refresh answered ${answer.status}: ${await answer.text()}`);
  const refreshId = String(((await answer.json()) as { refresh_id: string }).refresh_id);
  crawlIsPending = false;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${stack.adminUrl}/admin/refresh/${refreshId}`, { headers });
    const body = (await res.json()) as { status?: string };
    if (res.status === 200 && body.status === 'completed') return refreshId;
    if (Date.now() > until)
      throw new Error(
        `refresh ${refreshId} did not complete within ${timeoutMs} ms: ${res.status} ${JSON.stringify(body)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const SEARCHES = /^\/v1\/(jobs\/search|searches)(\?|$)/;

/** A request to the stack's API; `baseUrl` picks one gateway when several run (gatewayUrls()). */
export async function api(
  path: string,
  init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string>; baseUrl?: string } = {},
) {
  if (init.body !== undefined && SEARCHES.test(path)) await crawled();
  const res = await fetch(`${init.baseUrl ?? stack.baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

export interface SeenMessage {
  topic: string;
  key: string | null;
  value: Record<string, unknown>;
  headers: Record<string, string>;
  /** When its producer made it (the Kafka message timestamp, epoch ms). */
  timestamp: number;
}

/**
 * Reads topics from the moment `start()` is called, with a throwaway group, and keeps what it
 * sees. (Not from the beginning: late in a run, `refresh.records.fetched` alone holds hundreds of
 * megabytes of earlier passes, and reading them first made a tap miss its deadline.)
 */
export class TopicTap {
  private readonly kafka: Kafka;
  private readonly groupId = `e2e-tap-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly consumer: Consumer;
  readonly seen: SeenMessage[] = [];

  constructor(private readonly topics: string[]) {
    this.kafka = new Kafka({ clientId: 'e2e-tap', brokers: stack.kafkaBrokers, logLevel: logLevel.NOTHING });
    this.consumer = this.kafka.consumer({ groupId: this.groupId, maxWaitTimeInMs: 200 });
  }

  async start(): Promise<void> {
    // the new group's offsets at each partition's end before it joins: it reads what comes next
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      for (const topic of this.topics) {
        const ends = await admin.fetchTopicOffsets(topic);
        await admin.setOffsets({
          groupId: this.groupId,
          topic,
          partitions: ends.map((o) => ({ partition: o.partition, offset: o.high })),
        });
      }
    } finally {
      await admin.disconnect();
    }
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics, fromBeginning: true });
    // the tap's own consumer may be handed a message again (a rebalance): each is kept once
    const kept = new Set<string>();
    await this.consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const id = `${topic}/${partition}/${message.offset}`;
        if (kept.has(id)) return;
        kept.add(id);
        this.seen.push({
          topic,
          key: message.key?.toString() ?? null,
          value: JSON.parse(message.value?.toString() ?? 'null') as Record<string, unknown>,
          headers: decode(message.headers),
          timestamp: Number(message.timestamp),
        });
      },
    });
  }

  async waitFor(predicate: (m: SeenMessage) => boolean, timeoutMs = 15000): Promise<SeenMessage> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.seen.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('message not seen in time');
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

function decode(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k] = String(Array.isArray(v) ? v[0] : v);
  return out;
}

/** Direct calls to the simulator's control API (the admin API proxies to it). */
export async function simControl(method: 'PUT' | 'POST', path: string, body?: unknown): Promise<number> {
  const base = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
  const res = await fetch(`${base}/_control${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

export interface GroupMember {
  clientId: string;
  /** topic -> the partitions assigned to this member. */
  assignment: Record<string, number[]>;
}

/** The members of a consumer group right now (empty while it rebalances) and their partitions. */
export async function consumerGroupMembers(groupId: string): Promise<{ state: string; members: GroupMember[] }> {
  const admin = new Kafka({ clientId: 'e2e-admin', brokers: stack.kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    const group = groups[0]!;
    return {
      state: group.state,
      members: group.members.map((member) => ({
        clientId: member.clientId,
        assignment: AssignerProtocol.MemberAssignment.decode(member.memberAssignment)?.assignment ?? {},
      })),
    };
  } finally {
    await admin.disconnect();
  }
}

// Against the real Redis of REDIS_URL (default redis://127.0.0.1:6379): keys of their own,
// under random ids, removed afterwards.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loadConfig } from '@jobs/config';
import type { AccountBalances } from '../account/account-balances.js';
import type { Logger } from '@jobs/observability';
import { SecretBox } from '@jobs/webhook-targets';
import { ApiError } from '../http/api-error.js';
import { GatewayEnvSchema } from '../config/gateway.config.js';
import { GatewayLiveness } from './gateway-liveness.js';
import { IdempotencyGate } from './idempotency.gate.js';
import { IdempotencyStore } from './idempotency.store.js';
import { ReplaySealer } from './replay-sealer.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
// A process renews its key every quarter of the TTL: this one leaves a loaded test machine 1.5 s of
// stall before a living process reads as dead.
const config = loadConfig(GatewayEnvSchema, { IDEMPOTENCY_OWNER_TTL_MS: '2000', IDEMPOTENCY_WAIT_MS: '400' });
const quiet = { warn: () => undefined } as unknown as Logger;
const connections: Redis[] = [];
const started: GatewayLiveness[] = [];

async function connect(): Promise<Redis> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  connections.push(redis);
  await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

/** A gateway process as Redis sees it: its liveness on a connection of its own. */
async function gatewayProcess(): Promise<{ liveness: GatewayLiveness; redis: Redis }> {
  const redis = await connect();
  const liveness = new GatewayLiveness(redis, config, quiet, {
    name: 'gateway',
    instanceId: `gateway-test-${randomUUID()}`,
  });
  await liveness.onApplicationBootstrap();
  started.push(liveness);
  return { liveness, redis };
}

afterAll(async () => {
  for (const liveness of started) await liveness.onApplicationShutdown();
  for (const redis of connections) if (redis.status === 'ready') await redis.quit();
});

describe('a gateway process’s liveness', () => {
  it(
    'is seen by the other processes while it renews, and lost ' +
      'within IDEMPOTENCY_OWNER_TTL_MS once it stops (SIGKILL)',
    async () => {
      const owner = await gatewayProcess();
      const other = await gatewayProcess();
      // past one TTL: renewed, not just set once
      await new Promise((resolve) => setTimeout(resolve, config.IDEMPOTENCY_OWNER_TTL_MS + 100));
      expect(await other.liveness.isAlive(owner.liveness.incarnation)).toBe(true);

      owner.redis.disconnect(); // the process is gone: nothing renews its key any more
      // Redis itself drops the key when its lease ends: at most a TTL from now, however slow this process is
      const lease = await other.redis.pttl(`gateway:alive:${owner.liveness.incarnation}`);
      expect(lease).toBeGreaterThan(0);
      expect(lease).toBeLessThanOrEqual(config.IDEMPOTENCY_OWNER_TTL_MS);
      while (await other.liveness.isAlive(owner.liveness.incarnation))
        await new Promise((resolve) => setTimeout(resolve, 50));
    },
  );

  it(
    'is gone at once after a graceful shutdown, and a restart ' + 'under the same INSTANCE_ID is another incarnation',
    async () => {
      const owner = await gatewayProcess();
      const other = await gatewayProcess();
      await owner.liveness.onApplicationShutdown();
      expect(await other.liveness.isAlive(owner.liveness.incarnation)).toBe(false);

      const again = new GatewayLiveness(other.redis, config, quiet, {
        name: 'gateway',
        instanceId: owner.liveness.incarnation.split('.')[0]!,
      });
      expect(again.incarnation).not.toBe(owner.liveness.incarnation);
    },
  );
});

describe('a keyed POST whose owner runs on another gateway process', () => {
  const accountId = `acct_test_${randomUUID()}`;
  const body = { query: { title: 'engineer' } };
  const request = (requestId: string, idempotencyKey: string) =>
    ({
      method: 'POST',
      url: '/v1/searches',
      routeOptions: { url: '/v1/searches' },
      headers: { 'idempotency-key': idempotencyKey },
      principal: { accountId },
      body,
      requestId,
    }) as unknown as FastifyRequest;
  const reply = { getHeader: () => undefined } as unknown as FastifyReply;
  const gateOf = (liveness: GatewayLiveness, redis: Redis) =>
    new IdempotencyGate(
      new IdempotencyStore(redis, config),
      liveness,
      {} as AccountBalances,
      new ReplaySealer(new SecretBox('test-webhook-secrets-key-0123456789abcdef')),
      config,
    );

  it('waits for a living owner (then 409 while it still runs), and takes over at once from a dead one', async () => {
    const owner = await gatewayProcess();
    const retrier = await gatewayProcess();
    const idempotencyKey = `liveness-${randomUUID()}`;

    const first = request('req_first', idempotencyKey);
    await gateOf(owner.liveness, owner.redis).pass(first, reply, false);
    expect(first.idempotency?.record).toMatchObject({ state: 'running', owner: owner.liveness.incarnation });

    const waited = Date.now();
    const refused = await gateOf(retrier.liveness, retrier.redis)
      .pass(request('req_retry_1', idempotencyKey), reply, false)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('idempotency_conflict');
    expect(Date.now() - waited).toBeGreaterThanOrEqual(config.IDEMPOTENCY_WAIT_MS);

    owner.redis.disconnect(); // SIGKILL: the lease (60 s) still runs, the liveness lapses
    await new Promise((resolve) => setTimeout(resolve, config.IDEMPOTENCY_OWNER_TTL_MS + 100));
    const retry = request('req_retry_2', idempotencyKey);
    await gateOf(retrier.liveness, retrier.redis).pass(retry, reply, false);
    expect(retry.idempotency?.record).toMatchObject({
      state: 'running',
      request_id: 'req_retry_2',
      owner: retrier.liveness.incarnation,
    });
    expect(await new IdempotencyStore(retrier.redis, config).get(retry.idempotency!.key)).toMatchObject({
      request_id: 'req_retry_2',
    });
    await retrier.redis.del(retry.idempotency!.key);
  }, 15_000);
});

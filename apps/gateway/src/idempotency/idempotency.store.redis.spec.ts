// Against the real Redis of REDIS_URL (default redis://127.0.0.1:6379): keys of their own,
// under random ids, removed afterwards.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig } from '@jobs/config';
import { examples, type SearchPageCharged } from '@jobs/contracts';
import { GatewayEnvSchema } from '../config/gateway.config.js';
import { ANSWER_EXPIRED, IdempotencyStore } from './idempotency.store.js';

const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
const store = new IdempotencyStore(redis, loadConfig(GatewayEnvSchema, {}));
const searchIds: string[] = [];

// the store's bounded calls refuse a client that is not connected yet (a lazy one connects on its first command)
beforeAll(() => redis.connect());

afterAll(async () => {
  for (const id of searchIds)
    await redis.del(`gateway:idem:charged:${id}`, `gateway:idem:page:${id}`, `gateway:idem:search:${id}`);
  redis.disconnect();
});

function search() {
  const searchId = `req_idemstore${randomUUID().replaceAll('-', '')}`;
  searchIds.push(searchId);
  const page = { ...examples.searchPageGathered(), search_id: searchId, request_id: searchId };
  const charged: SearchPageCharged.Value = {
    ...examples.searchPageCharged(),
    search_id: searchId,
    request_id: searchId,
    charge: { returned_job_ids: page.response.data.map((job) => job.id), next_cursor: null, jobs_already_paid: 0 },
  };
  const { charge: _charge, ...refusal } = charged;
  const expired: SearchPageCharged.Value = { ...refusal, outcome: 'expired', credits_charged: 0 };
  return { searchId, page, charged, expired };
}

describe('IdempotencyStore', () => {
  it('releases a key only for the request that owns it', async () => {
    const key = `gateway:idem:acc_idemstore:${randomUUID()}`;
    const record = {
      fingerprint: 'fp',
      state: 'running' as const,
      request_id: 'req_owner',
      lease_until: Date.now() + 60_000,
      service_version: '2026-10-01',
    };
    expect(await store.claim(key, record)).toBeNull();
    expect(await store.releaseIfOwner(key, 'req_other')).toBe(false);
    expect(await store.get(key)).toEqual(record);
    expect(await store.releaseIfOwner(key, 'req_owner')).toBe(true);
    expect(await store.get(key)).toBeNull();
    expect(await store.releaseIfOwner(key, 'req_owner')).toBe(false);
  });

  it("answers a retry with billing's refusal when that is all billing said", async () => {
    const { searchId, expired } = search();
    await store.keepCharge(expired);
    expect(await store.answerOf(searchId)).toBe(ANSWER_EXPIRED);
  });

  it('answers a retry of a keyed search that never reached the pipeline as refused, so it runs afresh', async () => {
    const keyed = search();
    await store.watchSearch(keyed.searchId);
    await store.keepNeverSent(keyed.searchId);
    expect(await store.answerOf(keyed.searchId)).toBe(ANSWER_EXPIRED);
    // a publish whose acknowledgement was lost may still be charged: billing's outcome wins
    await store.keepPage(keyed.page);
    await store.keepCharge(keyed.charged);
    expect(await store.answerOf(keyed.searchId)).toMatchObject({ outcome: 'ok', credits_charged: 1 });

    const unkeyed = search();
    await store.keepNeverSent(unkeyed.searchId);
    expect(await store.answerOf(unkeyed.searchId)).toBeNull();
  });

  it('never lets a refusal replace a charge kept before it, and lets a charge replace a refusal', async () => {
    const first = search();
    await store.keepPage(first.page);
    await store.keepCharge(first.charged);
    await store.keepCharge(first.expired);
    expect(await store.answerOf(first.searchId)).toMatchObject({ outcome: 'ok', credits_charged: 1 });

    const second = search();
    await store.keepPage(second.page);
    await store.keepCharge(second.expired);
    await store.keepCharge(second.charged);
    expect(await store.answerOf(second.searchId)).toMatchObject({ outcome: 'ok', credits_charged: 1 });
  });
});

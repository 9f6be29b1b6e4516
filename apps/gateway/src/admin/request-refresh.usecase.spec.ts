// GET /admin/refresh/{id} against the real PostgreSQL: the status read from dedupe's tables
// (its planner's runs, its verification measure), in the shape the admin API answers.
import type { KafkaPublisher } from '@jobs/nest-kafka';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { RequestRefreshUseCase } from './request-refresh.usecase.js';

let db: ThrowawayDatabase;
let refresh: RequestRefreshUseCase;
const requestedAt = new Date('2026-11-24T10:00:00.000Z');
const measuredAt = new Date('2026-11-24T10:00:30.000Z');

beforeAll(async () => {
  db = await throwawayDatabase('refresh_status');
  refresh = new RequestRefreshUseCase({} as KafkaPublisher, db.prisma);
  await db.prisma.refreshRequest.create({ data: { id: 'rfr_0000000000000001', requestedAt } });
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('RequestRefreshUseCase.status', () => {
  it('answers not_found for a refresh it does not know', async () => {
    await expect(refresh.status('rfr_0000000000000009')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('has no verification block until dedupe has measured the store', async () => {
    expect(await refresh.status('rfr_0000000000000001')).toEqual({
      refresh_id: 'rfr_0000000000000001',
      status: 'queued',
      requested_at: requestedAt.toISOString(),
      started_at: null,
      runs: [],
      sweeps: { total: 0, finished: 0, complete: 0, ok: 0 },
      verification: null,
    });
  });

  it(
    "shows dedupe's latest measure: per provider its verification " + 'ages, listed sources and freshness bound',
    async () => {
      const bound = { boundSeconds: 600, computedAt: measuredAt };
      await db.prisma.storeVerification.createMany({
        data: [
          {
            provider: 'own_index',
            listedSources: 0,
            maxAgeSeconds: null,
            p99AgeSeconds: null,
            currentBoundSeconds: 600,
            holds: true,
            ...bound,
          },
          {
            provider: 'provider_a',
            listedSources: 2_500,
            maxAgeSeconds: 412.5,
            p99AgeSeconds: 380.25,
            currentBoundSeconds: 600,
            holds: true,
            ...bound,
          },
          {
            provider: 'provider_c',
            listedSources: 900,
            maxAgeSeconds: 1_130,
            p99AgeSeconds: 870,
            currentBoundSeconds: 900,
            holds: false,
            ...bound,
          },
        ],
      });
      await db.prisma.refreshPass.create({
        data: {
          id: 'rfr_0000000000000002',
          kind: 'round',
          provider: 'provider_a',
          trigger: 'request',
          startedAt: new Date(requestedAt.getTime() + 1_000),
          bucket: 3,
        },
      });
      const status = await refresh.status('rfr_0000000000000001');
      expect(status).toMatchObject({
        status: 'running',
        runs: [{ id: 'rfr_0000000000000002', kind: 'round', provider: 'provider_a' }],
      });
      expect(status.verification).toEqual({
        measured_at: measuredAt.toISOString(),
        providers: {
          own_index: {
            max_age_seconds: null,
            p99_age_seconds: null,
            listed_sources: 0,
            bound_seconds: 600,
            current_bound_seconds: 600,
            holds: true,
          },
          provider_a: {
            max_age_seconds: 412.5,
            p99_age_seconds: 380.25,
            listed_sources: 2_500,
            bound_seconds: 600,
            current_bound_seconds: 600,
            holds: true,
          },
          provider_c: {
            max_age_seconds: 1_130,
            p99_age_seconds: 870,
            listed_sources: 900,
            bound_seconds: 600,
            current_bound_seconds: 900,
            holds: false,
          },
        },
      });
    },
  );
});

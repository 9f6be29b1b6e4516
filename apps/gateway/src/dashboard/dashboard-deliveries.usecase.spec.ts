// The dashboard's deliveries against the real PostgreSQL: each event with its latest deliveries.
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { EventFeedUseCase } from '../events/event-feed.usecase.js';
import { DashboardDeliveriesUseCase, DELIVERIES_PER_EVENT } from './dashboard-deliveries.usecase.js';

let db: ThrowawayDatabase;
const T0 = Date.parse('2026-11-20T10:00:00.000Z');

beforeAll(async () => {
  db = await throwawayDatabase('dash_deliveries');
  await db.prisma.account.create({
    data: {
      id: 'acc_d',
      plan: 'pro',
      creditsRemaining: 100,
      creditsResetAt: new Date(T0 + 86_400_000),
      rateLimitLimit: 60,
      rateLimitWindowSeconds: 60,
    },
  });
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('DashboardDeliveriesUseCase.page', () => {
  it('shows the latest deliveries of an event replayed many times, oldest first, and counts them all', async () => {
    const event = await db.prisma.webhookEvent.create({
      data: {
        accountId: 'acc_d',
        eventId: 'evt_replayed',
        type: 'job.opened',
        body: '{}',
        webhookUrl: 'https://hooks.example/in',
        createdAt: new Date(T0),
      },
    });
    const quiet = await db.prisma.webhookEvent.create({
      data: { accountId: 'acc_d', eventId: 'evt_quiet', type: 'job.closed', body: '{}', createdAt: new Date(T0 + 1) },
    });
    const deliveries = 1 + 24;
    await db.prisma.webhookDelivery.createMany({
      data: Array.from({ length: deliveries }, (_, n) => ({
        id: `dlv_${String(n).padStart(2, '0')}`,
        eventPosition: event.position,
        accountId: 'acc_d',
        url: 'https://hooks.example/in',
        kind: n === 0 ? 'original' : 'replay',
        status: 'delivered',
        createdAt: new Date(T0 + n * 60_000),
      })),
    });
    await db.prisma.webhookAttempt.create({
      data: { deliveryId: `dlv_${deliveries - 1}`, number: 1, startedAt: new Date(T0), outcome: 'delivered' },
    });

    const use = new DashboardDeliveriesUseCase(db.prisma, {} as EventFeedUseCase);
    const page = await use.page({ accountId: 'acc_d', mode: 'live' }, undefined);
    expect(page.data.map((e) => [e.event_id, e.deliveries_total, e.deliveries.length])).toEqual([
      ['evt_quiet', 0, 0],
      ['evt_replayed', deliveries, DELIVERIES_PER_EVENT],
    ]);
    const shown = page.data[1]!.deliveries;
    expect(shown.map((d) => d.id)).toEqual(
      Array.from({ length: DELIVERIES_PER_EVENT }, (_, i) => `dlv_${deliveries - DELIVERIES_PER_EVENT + i}`),
    );
    expect(shown.at(-1)!.attempts).toMatchObject([{ number: 1, outcome: 'delivered' }]);
    expect(quiet.eventId).toBe('evt_quiet');
  });
});

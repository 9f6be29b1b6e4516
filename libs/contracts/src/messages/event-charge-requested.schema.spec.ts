import { examples } from '../examples.js';
import * as EventChargeRequested from './event-charge-requested.schema.js';
import { tolerantReaderOf } from '../public/tolerant-reader.js';

describe('event.charge.requested', () => {
  const charge = examples.eventChargeRequested;
  const stopped = (): EventChargeRequested.WatchStopped => ({
    v: 1,
    account_id: 'acc_demo',
    watch_stopped: { watch_id: 'wat_1', status: 'deleted', stopped_at: '2026-12-06T10:00:00.000Z' },
  });

  it('carries a watch event to charge, or the stop of a watch', () => {
    expect(EventChargeRequested.ValueSchema.parse(charge())).toEqual(charge());
    expect(EventChargeRequested.ValueSchema.parse(stopped())).toEqual(stopped());
    expect(EventChargeRequested.keyOf(stopped())).toBe('acc_demo');
    const { stopped_at: _at, ...ofEarlierVersion } = stopped().watch_stopped;
    const earlier = { ...stopped(), watch_stopped: ofEarlierVersion };
    expect(EventChargeRequested.ValueSchema.parse(earlier)).toEqual(earlier);
    const notATime = { ...stopped(), watch_stopped: { ...ofEarlierVersion, stopped_at: 'yesterday' } };
    expect(EventChargeRequested.ValueSchema.safeParse(notATime).success).toBe(false);
  });

  it('carries a job.closed to decide on, but no free event of another kind', () => {
    const opened = charge().event;
    const closedEvent = {
      id: opened.id,
      created_at: opened.created_at,
      watch_id: opened.watch_id,
      type: 'job.closed' as const,
      data: {
        job: {
          id: opened.data.job.id,
          title: opened.data.job.title,
          company: opened.data.job.company,
          status: 'closed' as const,
          closed_reason: 'filled' as const,
        },
      },
    };
    const closed = { ...charge(), event: closedEvent };
    expect(EventChargeRequested.ValueSchema.parse(closed)).toEqual(closed);
    const reposted = {
      ...charge(),
      event: { ...closedEvent, type: 'job.reposted', data: { job: { ...closedEvent.data.job, status: 'open' } } },
    };
    expect(EventChargeRequested.ValueSchema.safeParse(reposted).success).toBe(false);
  });

  it('is one or the other, never both or a half', () => {
    const both = { ...charge(), watch_stopped: stopped().watch_stopped };
    expect(EventChargeRequested.ValueSchema.safeParse(both).success).toBe(false);
    const { webhook_url: _w, ...noUrl } = charge();
    expect(EventChargeRequested.ValueSchema.safeParse(noUrl).success).toBe(false);
    const resumed = { ...stopped(), watch_stopped: { watch_id: 'wat_1', status: 'active' } };
    expect(EventChargeRequested.ValueSchema.safeParse(resumed).success).toBe(false);
  });

  it('reads each tolerantly, a field of a later version kept', () => {
    const reader = tolerantReaderOf(EventChargeRequested.ValueSchema);
    expect(reader.parse({ ...stopped(), reason: 'later' })).toEqual({ ...stopped(), reason: 'later' });
    expect('watch_stopped' in reader.parse(charge())).toBe(false);
  });
});

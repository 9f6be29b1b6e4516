import { examples } from '../examples.js';
import { EventListQuerySchema, EventListResponseSchema, EventSchema, EventTypeSchema } from './event.schema.js';

const base = { id: 'evt_1', created_at: '2026-10-01T12:00:00Z', watch_id: 'wat_1' };
const company = examples.job().company;
const isHiring = (value: boolean | null) => ({ value, confidence: 0.9, basis: 'new openings' });
const { id, title } = examples.job();

const valid = {
  'job.opened': { ...base, type: 'job.opened', data: { job: examples.job() } },
  'job.updated': { ...base, type: 'job.updated', data: { job: examples.job() } },
  'job.reposted': {
    ...base,
    type: 'job.reposted',
    data: { job: { id, title, company, status: 'open', repost_count: 1 } },
  },
  'job.closed': {
    ...base,
    type: 'job.closed',
    data: { job: { id, title, company, status: 'closed', closed_reason: 'filled' } },
  },
  'company.hiring_started': { ...base, type: 'company.hiring_started', data: { company, is_hiring: isHiring(true) } },
  'company.hiring_stopped': { ...base, type: 'company.hiring_stopped', data: { company, is_hiring: isHiring(false) } },
  'search.completed': {
    ...base,
    watch_id: null,
    type: 'search.completed',
    data: { search: { id: 'srch_1', status: 'partial', jobs_found: 12 } },
  },
};

describe('EventSchema', () => {
  it('covers the seven event types', () => {
    expect(Object.keys(valid).sort()).toEqual([...EventTypeSchema.options].sort());
  });

  it.each(Object.entries(valid))('parses %s', (_type, event) => {
    expect(EventSchema.parse(event)).toEqual(event);
  });

  it('rejects a full job on job.closed and a lifecycle job on job.opened', () => {
    expect(
      EventSchema.safeParse({
        ...valid['job.closed'],
        data: { job: { ...examples.job(), status: 'closed', closed_reason: 'filled' } },
      }).success,
    ).toBe(false);
    expect(EventSchema.safeParse({ ...valid['job.opened'], data: valid['job.closed'].data }).success).toBe(false);
  });

  it('ties is_hiring.value to the company event type', () => {
    expect(
      EventSchema.safeParse({ ...valid['company.hiring_started'], data: { company, is_hiring: isHiring(false) } })
        .success,
    ).toBe(false);
    expect(
      EventSchema.safeParse({ ...valid['company.hiring_stopped'], data: { company, is_hiring: isHiring(null) } })
        .success,
    ).toBe(false);
  });

  it('has watch_id null exactly on search.completed', () => {
    expect(EventSchema.safeParse({ ...valid['search.completed'], watch_id: 'wat_1' }).success).toBe(false);
    expect(EventSchema.safeParse({ ...valid['job.opened'], watch_id: null }).success).toBe(false);
  });

  it('rejects an unknown type, a non-final search status and a wrong id prefix', () => {
    expect(EventSchema.safeParse({ ...valid['job.opened'], type: 'job.deleted' }).success).toBe(false);
    expect(
      EventSchema.safeParse({
        ...valid['search.completed'],
        data: { search: { id: 'srch_1', status: 'running', jobs_found: 0 } },
      }).success,
    ).toBe(false);
    expect(EventSchema.safeParse({ ...valid['job.opened'], id: 'job_1' }).success).toBe(false);
  });
});

describe('event feed', () => {
  it('parses a page oldest first', () => {
    const page = { data: [valid['job.opened'], valid['search.completed']], next_cursor: 'cur_9' };
    expect(EventListResponseSchema.parse(page)).toEqual(page);
  });

  it('query: since cursor, limit 1..100 default 100', () => {
    expect(EventListQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(EventListQuerySchema.parse({ since: 'cur_1', limit: '100' })).toEqual({ since: 'cur_1', limit: 100 });
    expect(EventListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(EventListQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(EventListQuerySchema.safeParse({ since: 'evt_1' }).success).toBe(false);
    expect(EventListQuerySchema.safeParse({ cursor: 'cur_1' }).success).toBe(false);
  });
});

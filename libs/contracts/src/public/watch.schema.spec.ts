import {
  WatchCreateRequestSchema,
  WatchListQuerySchema,
  WatchListResponseSchema,
  WatchSchema,
} from './watch.schema.js';

const hook = 'https://hooks.example/jobs';
const issuePaths = (value: unknown) => WatchCreateRequestSchema.safeParse(value).error?.issues.map((i) => i.path);

describe('WatchCreateRequestSchema', () => {
  it('accepts a company watch and defaults events to the six job and company events', () => {
    expect(WatchCreateRequestSchema.parse({ type: 'company', domain: 'Acme.example', webhook_url: hook })).toEqual({
      type: 'company',
      domain: 'acme.example',
      webhook_url: hook,
      events: [
        'job.opened',
        'job.reposted',
        'job.closed',
        'job.updated',
        'company.hiring_started',
        'company.hiring_stopped',
      ],
    });
  });

  it('rejects a company watch without domain at path [domain]', () => {
    expect(issuePaths({ type: 'company', webhook_url: hook })).toEqual([['domain']]);
  });

  it('requires filters on a search watch and refuses a domain there', () => {
    expect(issuePaths({ type: 'search', webhook_url: hook })).toEqual([['filters']]);
    expect(
      issuePaths({ type: 'search', filters: { title_or: ['x'] }, domain: 'acme.example', webhook_url: hook }),
    ).toEqual([['domain']]);
    expect(
      WatchCreateRequestSchema.safeParse({ type: 'search', filters: { title_or: ['x'] }, webhook_url: hook }).success,
    ).toBe(true);
  });

  it('accepts a company watch narrowed by filters', () => {
    const body = {
      type: 'company',
      domain: 'acme.example',
      filters: { seniority_or: ['senior'] },
      webhook_url: hook,
      events: ['job.opened'],
    };
    expect(WatchCreateRequestSchema.parse(body)).toEqual(body);
  });

  it('rejects bad events, a missing webhook_url, an unknown type and unknown keys', () => {
    const base = { type: 'company', domain: 'acme.example', webhook_url: hook };
    expect(WatchCreateRequestSchema.safeParse({ ...base, events: ['search.completed'] }).success).toBe(false);
    expect(WatchCreateRequestSchema.safeParse({ ...base, events: ['job.opened', 'job.opened'] }).success).toBe(false);
    expect(WatchCreateRequestSchema.safeParse({ ...base, events: [] }).success).toBe(false);
    expect(WatchCreateRequestSchema.safeParse({ ...base, events: ['job.deleted'] }).success).toBe(false);
    expect(WatchCreateRequestSchema.safeParse({ type: 'company', domain: 'acme.example' }).success).toBe(false);
    expect(WatchCreateRequestSchema.safeParse({ ...base, type: 'person' }).success).toBe(false);
    expect(WatchCreateRequestSchema.safeParse({ ...base, name: 'x' }).success).toBe(false);
  });

  it('reports an unknown filter inside a watch at the filters path', () => {
    const result = WatchCreateRequestSchema.safeParse({ type: 'search', filters: { titel: ['x'] }, webhook_url: hook });
    expect(result.error?.issues).toContainEqual(
      expect.objectContaining({ code: 'unrecognized_keys', path: ['filters'], keys: ['titel'] }),
    );
  });
});

describe('WatchSchema and list', () => {
  const watch = {
    id: 'wat_1',
    type: 'company',
    domain: 'acme.example',
    filters: null,
    webhook_url: hook,
    events: ['job.opened'],
    status: 'active',
    created_at: '2026-10-01T12:00:00Z',
  };

  it('parses a watch and a page of watches', () => {
    expect(WatchSchema.parse(watch)).toEqual(watch);
    expect(WatchListResponseSchema.parse({ data: [watch], next_cursor: null })).toEqual({
      data: [watch],
      next_cursor: null,
    });
  });

  it('rejects a wrong status, id and a page without next_cursor', () => {
    expect(WatchSchema.safeParse({ ...watch, status: 'stopped' }).success).toBe(false);
    expect(WatchSchema.safeParse({ ...watch, id: 'evt_1' }).success).toBe(false);
    expect(WatchListResponseSchema.safeParse({ data: [watch] }).success).toBe(false);
  });

  it('list query has only a cursor', () => {
    expect(WatchListQuerySchema.parse({ cursor: 'cur_1' })).toEqual({ cursor: 'cur_1' });
    expect(WatchListQuerySchema.safeParse({ limit: '10' }).success).toBe(false);
  });
});

import { jest } from '@jest/globals';
import {
  BOARD_SKIPPED_ID_MAX_CHARS,
  BOARD_SKIPPED_IDS_MAX,
  RefreshRecordsFetched,
  type NormalizedProviderRecord,
  type RefreshFetchRequested,
} from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import { BoardReadError, type BoardReader, type BoardReadRequest } from '@jobs/provider-adapters';
import { BOARD_PART_RECORDS, ReadBoardUseCase } from './read-board.usecase.js';
import { PART_MAX_BYTES } from './record-parts.js';

const logger = { warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger;

const sweep = (board: string): RefreshFetchRequested.Value => ({
  v: 1,
  refresh_id: 'rfr_1',
  kind: 'board',
  provider: 'own_index',
  scope: {
    key: `board:lever/${board}`,
    filters: {},
    board: {
      ats: 'lever',
      board,
      base_url: 'http://ats.test',
      company_domain: 'acme.com',
      company_name: 'Acme',
      validators: { etag: '"v1"' },
    },
  },
  timeout_ms: 120_000,
  call_timeout_ms: 30_000,
});

const record = (i: number): NormalizedProviderRecord => ({
  provider: 'own_index',
  provider_job_id: `lever:acme:${i}`,
  url: null,
  title: `Role ${i}`,
  company: { name: 'Acme', domain: 'acme.com' },
  location: { city: null, region: null, country_code: null, remote: null },
  employment_type: null,
  seniority: null,
  job_family: null,
  salary: null,
  description: null,
  apply_url: null,
  posted_at: null,
  seen_at: '2026-11-22T12:00:00.000Z',
});

function harness(read: (request: BoardReadRequest) => Promise<unknown>) {
  const published: RefreshRecordsFetched.Value[] = [];
  const publisher = {
    publish: (_topic: unknown, value: unknown) => {
      published.push(RefreshRecordsFetched.ValueSchema.parse(value));
      return Promise.resolve();
    },
  } as unknown as KafkaPublisher;
  const reader = { read } as unknown as BoardReader;
  return { useCase: new ReadBoardUseCase(publisher, reader, logger), published };
}

describe('ReadBoardUseCase', () => {
  it('hands a changed board to dedupe in parts, the last complete with how the read went', async () => {
    const records = Array.from({ length: BOARD_PART_RECORDS + 5 }, (_, i) => record(i));
    const { useCase, published } = harness((request) => {
      expect(request.validators).toEqual({ etag: '"v1"' });
      return Promise.resolve({
        changed: true,
        status: 200,
        validators: { etag: '"v2"' },
        jobs: { records, skipped: 0, skippedIds: [] },
      });
    });
    await useCase.execute(sweep('acme'));
    expect(published.map((p) => [p.part, p.final, p.records.length, p.complete])).toEqual([
      [0, false, BOARD_PART_RECORDS, false],
      [1, true, 5, true],
    ]);
    expect(published[1]!.board_read).toEqual({ changed: true, validators: { etag: '"v2"' }, error: null, skipped: 0 });
    // each part names the whole read's listings: one gone from the board is gone while any part merges
    for (const part of published) expect(part.read_listing_ids).toEqual(records.map((r) => r.provider_job_id));
  });

  it("names the read's listings beside the skipped items' ids, and none for a board too large to name", async () => {
    const read = async (records: NormalizedProviderRecord[], skippedIds: string[] = []) => {
      const { useCase, published } = harness(() =>
        Promise.resolve({
          changed: true,
          status: 200,
          validators: {},
          jobs: { records, skipped: skippedIds.length, skippedIds },
        }),
      );
      await useCase.execute(sweep('acme'));
      return published;
    };
    const [whole] = await read([record(1), record(2)], ['lever:acme:9']);
    expect(whole!.read_listing_ids).toEqual(['lever:acme:1', 'lever:acme:2', 'lever:acme:9']);
    // 3,000 uuid-long ids: more than a part's share, so the parts carry none (and their records still fit)
    const many = Array.from({ length: 3_000 }, (_, i) => ({
      ...record(i),
      provider_job_id: `lever:acme:${String(i).padStart(36, '0')}`,
      description: 'x'.repeat(2_000),
    }));
    const parts = await read(many);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part).not.toHaveProperty('read_listing_ids');
    expect(parts.at(-1)!.complete).toBe(true);
  });

  it('keeps every part of a board it names the listings of within the part bound', async () => {
    // 1,000 openings of 6 KB under uuid-long ids: the ids take 50 KB of each part beside its records
    const records = Array.from({ length: 1_000 }, (_, i) => ({
      ...record(i),
      provider_job_id: `lever:acme:${String(i).padStart(36, '0')}`,
      description: 'x'.repeat(6_000),
    }));
    const { useCase, published } = harness(() =>
      Promise.resolve({ changed: true, status: 200, validators: {}, jobs: { records, skipped: 0, skippedIds: [] } }),
    );
    await useCase.execute(sweep('acme'));
    expect(published.length).toBeGreaterThan(1);
    for (const part of published) {
      expect(part.read_listing_ids).toHaveLength(1_000);
      const bytes =
        Buffer.byteLength(JSON.stringify(part.records)) + Buffer.byteLength(JSON.stringify(part.read_listing_ids));
      expect(bytes).toBeLessThanOrEqual(PART_MAX_BYTES);
    }
    expect(published.flatMap((p) => p.records)).toHaveLength(1_000);
  });

  it('cuts a board of long descriptions into parts the broker takes; an opening too large is skipped', async () => {
    const long = (i: number, bytes: number) => ({ ...record(i), description: 'x'.repeat(bytes) });
    const huge = { ...record(150), title: 'x'.repeat(PART_MAX_BYTES) };
    const records = [...Array.from({ length: 150 }, (_, i) => long(i, 6_000)), huge];
    const { useCase, published } = harness(() =>
      Promise.resolve({ changed: true, status: 200, validators: {}, jobs: { records, skipped: 0, skippedIds: [] } }),
    );
    await useCase.execute(sweep('acme'));
    expect(published.length).toBeGreaterThan(1);
    for (const part of published) expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThan(1024 * 1024);
    expect(published.flatMap((p) => p.records)).toHaveLength(150);
    expect(published.map((p) => p.final)).toEqual(published.map((_, i) => i === published.length - 1));
    // the opening left out is an item not read, skipped under its id: its listing is not absent
    expect(published.at(-1)).toMatchObject({
      complete: true,
      board_read: { skipped: 1, skipped_ids: [huge.provider_job_id] },
    });
  });

  it('names an opening too large to hand on when its id fits the contract; else the read is not whole', async () => {
    const huge = (id: string) => ({ ...record(1), provider_job_id: id, title: 'x'.repeat(PART_MAX_BYTES) });
    const read = async (id: string) => {
      const { useCase, published } = harness(() =>
        Promise.resolve({
          changed: true,
          status: 200,
          validators: {},
          jobs: { records: [record(2), huge(id)], skipped: 0, skippedIds: [] },
        }),
      );
      await useCase.execute(sweep('acme'));
      return published.at(-1)!;
    };
    expect(await read('lever:acme:short')).toMatchObject({
      complete: true,
      board_read: { skipped: 1, skipped_ids: ['lever:acme:short'] },
    });
    const long = await read(`lever:acme:${'y'.repeat(BOARD_SKIPPED_ID_MAX_CHARS)}`);
    expect(long).toMatchObject({ complete: false, board_read: { skipped: 1 } });
    expect(long.board_read).not.toHaveProperty('skipped_ids');
  });

  it('ends a read that skipped an item naming no id incomplete: no listing is judged absent', async () => {
    const { useCase, published } = harness(() =>
      Promise.resolve({
        changed: true,
        status: 200,
        validators: {},
        jobs: { records: [record(1)], skipped: 2, skippedIds: ['lever:acme:7'] },
      }),
    );
    await useCase.execute(sweep('acme'));
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ final: true, outcome: 'ok', complete: false });
    expect(published[0]!.records).toHaveLength(1);
    expect(published[0]!.board_read).toMatchObject({ changed: true, skipped: 2, skipped_ids: ['lever:acme:7'] });
    expect(published[0]).not.toHaveProperty('read_listing_ids');
  });

  it('ends a read complete when every skipped item named its id; names none past the bound', async () => {
    const skippedIds = (n: number) => Array.from({ length: n }, (_, i) => `lever:acme:s${i}`);
    const read = (n: number) => {
      const { useCase, published } = harness(() =>
        Promise.resolve({
          changed: true,
          status: 200,
          validators: {},
          jobs: { records: [record(1)], skipped: n, skippedIds: skippedIds(n) },
        }),
      );
      return useCase.execute(sweep('acme')).then(() => published[0]!);
    };
    expect(await read(2)).toMatchObject({ complete: true, board_read: { skipped: 2, skipped_ids: skippedIds(2) } });
    const past = await read(BOARD_SKIPPED_IDS_MAX + 1);
    expect(past.complete).toBe(false);
    expect(past.board_read).not.toHaveProperty('skipped_ids');
  });

  it("gives the read the sweep's budget to wait for its host's slot, then the call deadline", async () => {
    const asked: BoardReadRequest[] = [];
    const { useCase } = harness((request) => {
      asked.push(request);
      return Promise.resolve({ changed: false, status: 304, validators: {} });
    });
    await useCase.execute(sweep('acme'));
    expect(asked[0]).toMatchObject({ maxWaitMs: 90_000, callTimeoutMs: 30_000 });
  });

  it("never counts a read that waited for the crawler's own slots in the board's breaker", async () => {
    let calls = 0;
    const { useCase, published } = harness(() => {
      calls += 1;
      return Promise.reject(new BoardReadError('queued', 'waited too long for a request slot to ats.test'));
    });
    for (let i = 0; i < 5; i++) await useCase.execute(sweep('queued'));
    expect(calls).toBe(5);
    expect(published.every((p) => p.outcome === 'provider_timeout' && !p.complete && p.records.length === 0)).toBe(
      true,
    );
    expect(published[0]!.board_read?.error).toMatch(/sweep budget/);
  });

  it("never counts a read its host's back-off kept from being sent in the board's breaker", async () => {
    let calls = 0;
    const { useCase, published } = harness(() => {
      calls += 1;
      return Promise.reject(new BoardReadError('host_backoff', 'ats.test asked to wait (429) until then', 429));
    });
    for (let i = 0; i < 5; i++) await useCase.execute(sweep('waiting'));
    // every sweep asked the reader: no breaker opened for a board that was never asked
    expect(calls).toBe(5);
    expect(published.every((p) => p.outcome === 'provider_error' && !p.complete)).toBe(true);
    expect(published.at(-1)!.board_read?.error).toMatch(/asked to wait/);
  });

  it('says an unchanged board is unchanged, with no records', async () => {
    const { useCase, published } = harness(() =>
      Promise.resolve({ changed: false, status: 304, validators: { etag: '"v1"' } }),
    );
    await useCase.execute(sweep('acme'));
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ final: true, complete: true, outcome: 'ok', records: [] });
    expect(published[0]!.board_read).toMatchObject({ changed: false, error: null });
  });

  it('fails a board that errors without closing anything, and opens only its breaker', async () => {
    let calls = 0;
    const { useCase, published } = harness((request) => {
      calls += 1;
      if (request.board === 'broken') return Promise.reject(new BoardReadError('status', 'answered 500', 500));
      return Promise.resolve({ changed: false, status: 304, validators: {} });
    });
    for (let i = 0; i < 4; i++) await useCase.execute(sweep('broken'));
    await useCase.execute(sweep('acme'));
    expect(calls).toBe(4); // three failures open the breaker: the fourth sweep asks nobody; acme is asked
    const broken = published.filter((p) => p.scope.key === 'board:lever/broken');
    expect(broken.every((p) => p.outcome === 'provider_error' && !p.complete && p.records.length === 0)).toBe(true);
    expect(broken[0]!.board_read?.error).toBe('answered 500');
    expect(broken[3]!.board_read?.error).toMatch(/^breaker open until/);
    expect(published.at(-1)).toMatchObject({ outcome: 'ok', complete: true });
  });

  it('tells a board that timed out from one that failed otherwise, by the kind of its failure', async () => {
    const { useCase, published } = harness((request) =>
      Promise.reject(
        request.board === 'slow'
          ? new BoardReadError('timeout', 'took longer than 30 s')
          : new BoardReadError('unreadable', 'no deadline in sight: not JSON'),
      ),
    );
    await useCase.execute(sweep('slow'));
    await useCase.execute(sweep('garbled'));
    expect(published.map((p) => p.outcome)).toEqual(['provider_timeout', 'provider_error']);
  });
});

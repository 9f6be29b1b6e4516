// Integration test against the real PostgreSQL: a board sweep's merge as dedupe writes it (a
// changed board read whole, an unchanged one, a failed one), the board's read row the admin list
// shows, a removed board's openings closing through the outbox, a closed opening the board
// lists again re-listed, and reads that skipped items: under their ids (absences judged, those
// openings kept) or not (no absences, no validators kept).
import type { JobLifecycleChanged, NormalizedProviderRecord, RefreshRecordsFetched } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import { toJob } from '../canonical-jobs/job-view.js';
import { MergeRefreshUseCase } from '../refresh/merge-refresh.usecase.js';
import type { RefreshPlanner } from '../refresh/refresh-planner.js';
import { CloseRemovedBoardsUseCase } from './close-removed-boards.usecase.js';

const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined } as unknown as Logger;
let db: ThrowawayDatabase;
let repository: CanonicalJobRepository;
let merge: MergeRefreshUseCase;

beforeAll(async () => {
  db = await throwawayDatabase('boards');
  repository = new CanonicalJobRepository(db.prisma, outboxStub());
  merge = new MergeRefreshUseCase(repository, { kick: () => undefined } as unknown as RefreshPlanner, logger);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

let clock = Date.parse('2026-11-20T12:00:00.000Z');
const tick = () => new Date((clock += 60_000)).toISOString();

/** One board of its own per test: its company, its openings as the connector reads them, its sweeps. */
function board(name: string) {
  const ats = 'greenhouse' as const;
  const domain = `${name}.example`;
  const opening = (id: number, title: string): NormalizedProviderRecord => ({
    provider: 'own_index',
    provider_job_id: `${ats}:${name}:${id}`,
    url: `https://${domain}/jobs/${id}`,
    title,
    company: { name: `Company ${name}`, domain },
    location: { city: 'Berlin', region: null, country_code: 'DE', remote: false },
    employment_type: null,
    seniority: null,
    job_family: null,
    salary: null,
    description: `The ${title} of ${domain}: build things that last, with a friendly team in Berlin.`,
    apply_url: `https://${domain}/jobs/${id}`,
    posted_at: '2026-11-19T09:00:00.000Z',
    seen_at: tick(),
  });
  const sweep = (
    records: NormalizedProviderRecord[],
    read: { changed: boolean; error?: string; etag?: string; skipped?: number; skippedIds?: string[] },
  ): RefreshRecordsFetched.Value => {
    const at = tick();
    const failed = read.error !== undefined;
    return {
      v: 1,
      refresh_id: `rfr_${name}_${clock}`,
      kind: 'board',
      scope: {
        key: `board:${ats}/${name}`,
        filters: {},
        board: {
          ats,
          board: name,
          base_url: 'https://boards-api.greenhouse.io',
          company_domain: domain,
          company_name: `Company ${name}`,
        },
      },
      provider: 'own_index',
      part: 0,
      final: true,
      outcome: failed ? 'provider_error' : 'ok',
      complete: !failed && (read.skipped ?? 0) === (read.skippedIds?.length ?? 0),
      started_at: at,
      latency_ms: 5,
      fetched_at: at,
      records: failed ? [] : records.map((r) => ({ ...r, seen_at: at })),
      board_read: {
        changed: read.changed,
        validators: failed ? {} : { etag: read.etag ?? '"e1"', content_hash: `h-${clock}` },
        error: read.error ?? null,
        skipped: read.skipped ?? 0,
        ...(read.skippedIds ? { skipped_ids: read.skippedIds } : {}),
      },
    };
  };
  const read = () => db.prisma.crawlerBoardRead.findUnique({ where: { ats_board: { ats, board: name } } });
  return { ats, name, domain, opening, sweep, read };
}

const jobIdOf = async (providerJobId: string) =>
  (await db.prisma.jobSource.findFirst({ where: { provider: 'own_index', providerJobId } }))!.canonicalJobId;
const statusOf = async (providerJobId: string) =>
  (await db.prisma.canonicalJob.findUnique({ where: { id: await jobIdOf(providerJobId) } }))!.status;
const jobOf = async (providerJobId: string) => toJob((await repository.load([await jobIdOf(providerJobId)]))[0]!);
const changesOf = async (jobId: string) =>
  (
    await db.prisma.outboxMessage.findMany({
      where: { topic: 'job.lifecycle.changed', key: jobId },
      orderBy: { id: 'asc' },
    })
  ).map((r) => (JSON.parse(r.value) as JobLifecycleChanged.Value).change);

describe('a board sweep merged', () => {
  it('opens a changed board read whole and records the read: when, its validators, its open jobs', async () => {
    const b = board('harbour');
    const a = b.opening(1, 'Harbour Pilot');
    const c = b.opening(2, 'Crane Operator');
    await merge.execute(b.sweep([a, c], { changed: true, etag: '"v1"' }));
    expect(await statusOf(a.provider_job_id)).toBe('open');
    expect(await statusOf(c.provider_job_id)).toBe('open');
    expect(await b.read()).toMatchObject({ lastError: null, openJobs: 2, etag: '"v1"', lastReadAt: expect.any(Date) });
  });

  it('sees every listing of an unchanged board in one statement: nothing closes, the read moves on', async () => {
    const b = board('quay');
    const a = b.opening(1, 'Quay Manager');
    await merge.execute(b.sweep([a], { changed: true }));
    const source = () => db.prisma.jobSource.findFirst({ where: { providerJobId: a.provider_job_id } });
    const before = (await source())!.lastSeenAt;
    const firstRead = (await b.read())!.lastReadAt!;
    await merge.execute(b.sweep([], { changed: false }));
    expect(await statusOf(a.provider_job_id)).toBe('open');
    expect((await source())!.lastSeenAt.getTime()).toBeGreaterThan(before.getTime());
    const row = (await b.read())!;
    expect(row.lastReadAt!.getTime()).toBeGreaterThan(firstRead.getTime());
    expect(row.openJobs).toBe(1);
  });

  it('closes an opening a changed board no longer lists, and only that one', async () => {
    const b = board('dock');
    const a = b.opening(1, 'Dock Worker');
    const c = b.opening(2, 'Dock Planner');
    await merge.execute(b.sweep([a, c], { changed: true }));
    await merge.execute(b.sweep([a], { changed: true }));
    expect(await statusOf(a.provider_job_id)).toBe('open');
    expect(await statusOf(c.provider_job_id)).toBe('closed');
    expect(await changesOf(await jobIdOf(c.provider_job_id))).toEqual(['opened', 'closed']);
    expect((await b.read())!.openJobs).toBe(1);
  });

  it("keeps a failed board's openings open, its last good read and validators, and says why", async () => {
    const b = board('pier');
    const a = b.opening(1, 'Pier Guard');
    await merge.execute(b.sweep([a], { changed: true, etag: '"good"' }));
    const good = (await b.read())!;
    await merge.execute(b.sweep([], { changed: true, error: 'answered 503' }));
    expect(await statusOf(a.provider_job_id)).toBe('open');
    expect(await b.read()).toMatchObject({
      lastError: 'answered 503',
      lastReadAt: good.lastReadAt,
      etag: '"good"',
      openJobs: 1,
    });
    await merge.execute(b.sweep([a], { changed: false }));
    expect((await b.read())!.lastError).toBeNull();
  });
});

describe('a removed board', () => {
  it('closes its openings through the outbox and forgets its read; a registered board is left alone', async () => {
    const gone = board('wharf');
    const kept = board('jetty');
    const a = gone.opening(1, 'Wharf Clerk');
    const k = kept.opening(1, 'Jetty Clerk');
    await merge.execute(gone.sweep([a], { changed: true }));
    await merge.execute(kept.sweep([k], { changed: true }));
    await db.prisma.crawlerBoard.create({
      data: {
        ats: kept.ats,
        board: kept.name,
        companyDomain: kept.domain,
        companyName: 'Jetty',
        baseUrl: 'https://x.example',
      },
    });
    await new CloseRemovedBoardsUseCase(db.prisma, repository, logger).execute(new Date(tick()));
    expect(await statusOf(a.provider_job_id)).toBe('closed');
    expect(await changesOf(await jobIdOf(a.provider_job_id))).toEqual(['opened', 'closed']);
    expect(await gone.read()).toBeNull();
    expect(await statusOf(k.provider_job_id)).toBe('open');
    expect(await kept.read()).not.toBeNull();
  });
});

describe('a removed board, its listing seen by a fetcher whose clock runs ahead', () => {
  it('closes that listing all the same: every listing of the board is absent', async () => {
    const b = board('quay');
    const a = b.opening(1, 'Quay Porter');
    await merge.execute(b.sweep([a], { changed: true }));
    // this dedupe's clock a minute behind the sighting's
    const behind = new Date(Date.parse(a.seen_at) - 60_000);
    await new CloseRemovedBoardsUseCase(db.prisma, repository, logger).execute(behind);
    expect(await statusOf(a.provider_job_id)).toBe('closed');
    expect(await b.read()).toBeNull();
  });
});

describe('an opening the board lists again after it closed', () => {
  it('re-lists its job once (open, repost_count 1, one job.reposted); a redelivered read changes nothing', async () => {
    const b = board('slipway');
    const kept = b.opening(1, 'Slipway Rigger');
    const back = b.opening(2, 'Slipway Painter');
    await merge.execute(b.sweep([kept, back], { changed: true }));
    // unpublished for a while (on hold, unlisted, or a read that missed it): absent from a whole read
    await merge.execute(b.sweep([kept], { changed: true }));
    const jobId = await jobIdOf(back.provider_job_id);
    expect(await jobOf(back.provider_job_id)).toMatchObject({ status: 'closed', repost_count: 0 });
    expect((await b.read())!.openJobs).toBe(1);

    const again = b.sweep([kept, back], { changed: true });
    await merge.execute(again);
    await merge.execute(again); // the same message redelivered
    expect(await jobOf(back.provider_job_id)).toMatchObject({
      id: jobId,
      status: 'open',
      closed_reason: null,
      repost_count: 1,
    });
    expect((await db.prisma.canonicalJob.findUniqueOrThrow({ where: { id: jobId } })).closedAt).toBeNull();
    expect(await changesOf(jobId)).toEqual(['opened', 'closed', 'reposted']);
    const source = await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: back.provider_job_id } });
    expect(source).toMatchObject({ listed: true, generation: 1 });
    expect((await b.read())!.openJobs).toBe(2);
    // the next read, a step later, is a sighting only
    await merge.execute(b.sweep([kept, back], { changed: true }));
    expect(await jobOf(back.provider_job_id)).toMatchObject({ status: 'open', repost_count: 1 });
    expect(await changesOf(jobId)).toEqual(['opened', 'closed', 'reposted']);
  });

  it('a read older than the one that found the opening gone, merged late, re-lists nothing', async () => {
    const b = board('capstan');
    const kept = b.opening(1, 'Capstan Rigger');
    const back = b.opening(2, 'Capstan Painter');
    await merge.execute(b.sweep([kept, back], { changed: true }));
    const late = b.sweep([kept, back], { changed: true }); // read before the next one, merged after it
    await merge.execute(b.sweep([kept], { changed: true }));
    const jobId = await jobIdOf(back.provider_job_id);
    await merge.execute(late);
    expect(await jobOf(back.provider_job_id)).toMatchObject({ status: 'closed', repost_count: 0 });
    expect(await changesOf(jobId)).toEqual(['opened', 'closed']);
    const source = await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: back.provider_job_id } });
    expect(source.listed).toBe(false);
    // a read after it does
    await merge.execute(b.sweep([kept, back], { changed: true }));
    expect(await jobOf(back.provider_job_id)).toMatchObject({ status: 'open', repost_count: 1 });
  });

  it('a removed board registered again re-lists the openings its removal closed', async () => {
    const b = board('mooring');
    const a = b.opening(1, 'Mooring Hand');
    await merge.execute(b.sweep([a], { changed: true }));
    // removed (its registration gone, its read kept): every opening of it closes
    await new CloseRemovedBoardsUseCase(db.prisma, repository, logger).execute(new Date(tick()));
    expect(await jobOf(a.provider_job_id)).toMatchObject({ status: 'closed', repost_count: 0 });
    // registered again: its first read finds every listing known
    await merge.execute(b.sweep([a], { changed: true }));
    expect(await jobOf(a.provider_job_id)).toMatchObject({ status: 'open', repost_count: 1 });
    expect(await changesOf(await jobIdOf(a.provider_job_id))).toEqual(['opened', 'closed', 'reposted']);
    expect((await b.read())!.openJobs).toBe(1);
  });
});

describe('a board read that skipped items', () => {
  it('closes none of the listings missing from its records; the next read of every item does', async () => {
    const b = board('wharf');
    const pilot = b.opening(1, 'Wharf Pilot');
    const crane = b.opening(2, 'Wharf Crane Operator');
    await merge.execute(b.sweep([pilot, crane], { changed: true }));
    // the crane operator's item could not be read this time: it may still be listed
    await merge.execute(b.sweep([pilot], { changed: true, skipped: 1 }));
    expect(await statusOf(crane.provider_job_id)).toBe('open');
    await merge.execute(b.sweep([pilot], { changed: true }));
    expect(await statusOf(crane.provider_job_id)).toBe('closed');
    expect(await statusOf(pilot.provider_job_id)).toBe('open');
  });

  it('keeps no validators when an item named no id, so the next read asks for the whole board', async () => {
    const b = board('slipway');
    const rigger = b.opening(1, 'Slipway Rigger');
    const welder = b.opening(2, 'Slipway Welder');
    await merge.execute(b.sweep([rigger, welder], { changed: true, etag: '"s1"' }));
    expect((await b.read())!.etag).toBe('"s1"');
    // the welder left; one item could not be read and named no id: nothing is judged absent
    await merge.execute(b.sweep([rigger], { changed: true, etag: '"s2"', skipped: 1 }));
    expect(await statusOf(welder.provider_job_id)).toBe('open');
    expect(await b.read()).toMatchObject({ etag: null, contentHash: null, lastError: null });
    // so the next read asks for the whole board (nothing to answer 304 to), and its records judge the welder gone
    await merge.execute(b.sweep([rigger], { changed: true, etag: '"s2"' }));
    expect(await statusOf(welder.provider_job_id)).toBe('closed');
    expect((await b.read())!.etag).toBe('"s2"');
  });

  it('judges absences when every skipped item named its id, keeping those openings listed and seen', async () => {
    const b = board('drydock');
    const [caulker, painter, fitter] = [
      b.opening(1, 'Drydock Caulker'),
      b.opening(2, 'Drydock Painter'),
      b.opening(3, 'Drydock Fitter'),
    ];
    await merge.execute(b.sweep([caulker, painter, fitter], { changed: true }));
    const sources = () =>
      db.prisma.jobSource.findMany({
        where: { providerJobId: { in: [caulker, painter, fitter].map((o) => o.provider_job_id) } },
        orderBy: { providerJobId: 'asc' },
      });
    const [, paintedBefore] = await sources();
    // the painter's item could not be read but named its id; the fitter left the board
    const read = b.sweep([caulker], { changed: true, skipped: 1, skippedIds: [painter.provider_job_id] });
    expect(read.complete).toBe(true);
    await merge.execute(read);
    expect(await statusOf(caulker.provider_job_id)).toBe('open');
    expect(await statusOf(painter.provider_job_id)).toBe('open');
    expect(await statusOf(fitter.provider_job_id)).toBe('closed');
    const [, painted] = await sources();
    expect(painted!.listed).toBe(true);
    expect(painted!.lastSeenAt.getTime()).toBeGreaterThan(paintedBefore!.lastSeenAt.getTime());
    // the read stands for the board: its validators are kept for the next conditional read
    expect((await b.read())!.etag).toBe('"e1"');
  });
});

/** The fetcher's parts of one read standing for the board: each names every listing the read shows. */
function inParts(
  read: RefreshRecordsFetched.Value,
  ...groups: NormalizedProviderRecord[][]
): RefreshRecordsFetched.Value[] {
  const { board_read: boardRead, ...rest } = read;
  const ids = [...groups.flat().map((r) => r.provider_job_id), ...(boardRead?.skipped_ids ?? [])];
  return groups.map((records, part) => {
    const final = part === groups.length - 1;
    return {
      ...rest,
      part,
      final,
      complete: final && read.complete,
      records: records.map((r) => ({ ...r, seen_at: read.fetched_at })),
      read_listing_ids: ids,
      ...(final && boardRead ? { board_read: boardRead } : {}),
    };
  });
}

describe('a board read that shows a new posting of an opening in place of its old one', () => {
  // the board's new posting, a day later, at a new posting URL
  const relisting = (b: ReturnType<typeof board>, id: number, title: string) => ({
    ...b.opening(id, title),
    posted_at: '2026-11-20T10:00:00.000Z',
  });

  it.each([
    ['its only part', 1],
    ['the first of its two parts', 2],
  ])('re-lists the job from %s: one job.reposted, no second job', async (_, parts) => {
    const b = board(`beacon${parts}`);
    const kept = b.opening(4001, 'Beacon Keeper');
    const old = b.opening(4002, 'Lamp Technician');
    await merge.execute(b.sweep([kept, old], { changed: true }));
    const jobId = await jobIdOf(old.provider_job_id);
    const fresh = relisting(b, 4003, 'Lamp Technician');
    const read = b.sweep([fresh, kept], { changed: true });
    for (const part of parts === 1 ? inParts(read, [fresh, kept]) : inParts(read, [fresh], [kept]))
      await merge.execute(part);
    expect(await jobIdOf(fresh.provider_job_id)).toBe(jobId);
    const job = await jobOf(fresh.provider_job_id);
    expect(job).toMatchObject({ status: 'open', repost_count: 1, apply_url: fresh.apply_url });
    expect(new Date(job.posted_at!).toISOString()).toBe(fresh.posted_at);
    // the apply URL moved to the new posting's: an update beside the re-listing
    expect(await changesOf(jobId)).toEqual(['opened', 'reposted', 'updated']);
    const gone = await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: old.provider_job_id } });
    expect(gone.listed).toBe(false);
    expect((await b.read())!.openJobs).toBe(2);
  });

  it('keeps the new posting a second opening while a later part of the read still shows the old one', async () => {
    const b = board('beacon3');
    const kept = b.opening(4001, 'Beacon Keeper');
    const old = b.opening(4002, 'Lamp Technician');
    await merge.execute(b.sweep([kept, old], { changed: true }));
    const second = relisting(b, 4003, 'Lamp Technician');
    const read = b.sweep([second, kept, old], { changed: true });
    for (const part of inParts(read, [second], [kept, old])) await merge.execute(part);
    expect(await jobIdOf(second.provider_job_id)).not.toBe(await jobIdOf(old.provider_job_id));
    expect(await statusOf(old.provider_job_id)).toBe('open');
    expect((await b.read())!.openJobs).toBe(3);
  });
});

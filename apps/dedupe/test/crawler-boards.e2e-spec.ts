// The own crawler's ATS boards over the running stack: one board per ATS published by the
// simulator in that ATS's format (admin /world/boards), registered as an operator would (admin
// /crawler/boards, base_url at the simulator), read by refresh passes through the real
// connectors, and followed through search, the lifecycle, a watch, failing boards and removal.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSchema, JobSchema, JobSearchResponseSchema, WatchSchema, type Event, type Job } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  eventually,
  refreshPass,
  refreshUntil,
  waitForStackReady,
  type WorldJob,
} from '@jobs/e2e-support';

const SIM = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const ATS_LIST = ['greenhouse', 'lever', 'ashby'] as const;
type Ats = (typeof ATS_LIST)[number];
/** Up to two refresh passes (the one under way, then the next) on a loaded machine. */
const WAIT_MS = 150_000;
/** How long a board's breaker stays open after three failed reads in a row (DEFAULT_BOARD_BREAKER). */
const BOARD_BREAKER_COOLDOWN_MS = 5 * 60_000;

/** Where each ATS's opening is, as the world holds it and as its board writes it. */
const PLACES = {
  greenhouse: { city: 'Berlin', region: 'Berlin', country_code: 'DE', remote: false },
  lever: { city: 'Toronto', region: 'ON', country_code: 'CA', remote: false },
  ashby: { city: 'Austin', region: 'TX', country_code: 'US', remote: true },
} as const;
const SALARY = { min: 70_000, max: 90_000, currency: 'EUR', period: 'year' } as const;
const DESCRIPTION = 'Ship the R&D platform: APIs, Kafka & "streams" <for> café owners.';

interface Board {
  ats: Ats;
  board: string;
  domain: string;
  /** listed by the board and provider_a */
  shared: WorldJob;
  /** listed by the board only */
  own: WorldJob;
  /** listed by the board only, at the ATS's own posting URL (a re-listing gets a new one) */
  posting: WorldJob;
  postedAt: string;
}

let key: string;
let receiver: Server;
let hookUrl: string;
const events: Event[] = [];
const boards = {} as Record<Ats, Board>;

beforeAll(async () => {
  await waitForStackReady();
  ({ live_key: key } = await createAccount({ plan: 'pro', credits: 1000 }));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      events.push(EventSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/board-hooks`;

  const postedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 86_400_000).toISOString();
  for (const ats of ATS_LIST) {
    const domain = await addWorldCompany();
    const board = domain.split('.')[0]!;
    await admin('PUT', `/world/boards/${ats}/${board}`, { company_domain: domain });
    await admin('PUT', `/crawler/boards/${ats}/${board}`, { company_domain: domain, base_url: `${SIM}/${ats}` });
    const fields = {
      company_domain: domain,
      location: PLACES[ats],
      employment_type: 'contract',
      salary: SALARY,
      description: DESCRIPTION,
      posted_at: postedAt,
    };
    // the employer's apply page: the same across a re-listing (an ATS's own job URL is not)
    const shared = await addWorldJob({
      ...fields,
      apply_url: `https://${domain}/careers/shared`,
      providers: ['own_index', 'provider_a'],
    });
    const own = await addWorldJob({ ...fields, apply_url: `https://${domain}/careers/own`, providers: ['own_index'] });
    const posting = await addWorldJob({ ...fields, providers: ['own_index'] });
    boards[ats] = { ats, board, domain, shared, own, posting, postedAt };
  }
  await refreshPass();
}, 600_000);

afterAll(async () => {
  for (const ats of ATS_LIST) {
    const b = boards[ats];
    if (!b) continue;
    await admin('DELETE', `/crawler/boards/${ats}/${b.board}`, undefined, 204).catch(() => undefined);
    await admin('DELETE', `/world/boards/${ats}/${b.board}`, undefined, 204).catch(() => undefined);
  }
  await new Promise((resolve) => receiver?.close(resolve));
});

async function searchOne(opening: WorldJob): Promise<Job> {
  const res = await api('/v1/jobs/search', {
    key,
    body: {
      filters: { title_or: [opening.keyword] },
      waterfall: { strategy: 'max_coverage', providers: ['own_index'] },
    },
  });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  const { data } = JobSearchResponseSchema.parse(res.body);
  expect(data).toHaveLength(1);
  return data[0]!;
}

const getJob = async (id: string) => JobSchema.parse((await api(`/v1/jobs/${id}`, { key })).body);
const boardSource = (job: Job, b: Board) =>
  job.sources.find((s) => s.provider === 'own_index' && s.provider_job_id.startsWith(`${b.ats}:${b.board}:`));

interface BoardStatus {
  ats: string;
  board: string;
  last_read_at: string | null;
  open_jobs: number;
  last_error: string | null;
}
async function boardStatus(b: Board): Promise<BoardStatus> {
  const list = (await admin('GET', '/crawler/boards'))!['data'] as BoardStatus[];
  return list.find((s) => s.ats === b.ats && s.board === b.board)!;
}

describe('the own crawler reads ATS boards', () => {
  it.each(ATS_LIST)('finds the openings of a %s board with their fields, merged with a partner', async (ats) => {
    const b = boards[ats];
    const job = await searchOne(b.shared);
    expect(job).toMatchObject({
      title: b.shared.title,
      status: 'open',
      company: { domain: b.domain },
      location: { city: PLACES[ats].city, country_code: PLACES[ats].country_code },
      employment_type: 'contract',
      posted_at: b.postedAt,
    });
    expect(job.description).toContain('R&D platform: APIs, Kafka & "streams" <for> café owners.');
    expect(job.description).not.toMatch(/<p>|&amp;|&lt;/);
    expect(job.salary).toMatchObject({ min: SALARY.min, max: SALARY.max, currency: 'EUR', period: 'year' });
    expect(job.apply_url).toBe(`https://${b.domain}/careers/shared`);
    expect(boardSource(job, b)).toBeDefined();
    expect(job.sources.map((s) => s.provider).sort()).toEqual(['own_index', 'provider_a']);

    const own = await searchOne(b.own);
    expect(own.sources.map((s) => s.provider)).toEqual(['own_index']);
    expect(boardSource(own, b)).toBeDefined();
    if (ats !== 'greenhouse') {
      // the board states pay and contract itself (Greenhouse's public board does not)
      expect(own.salary).toMatchObject({ ...SALARY, origin: 'declared' });
      expect(own.employment_type).toBe('contract');
    }
    if (ats === 'ashby') expect(own.location.remote).toBe(true);
    if (ats === 'lever') expect(own.location.region).toBe('ON');

    const status = await boardStatus(b);
    expect(status).toMatchObject({ last_error: null, open_jobs: 3 });
    expect(status.last_read_at).not.toBeNull();
  });

  it('sends job.updated to a watch when a board opening changes', async () => {
    const b = boards.greenhouse;
    const jobId = (await searchOne(b.shared)).id;
    const res = await api('/v1/watches', {
      key,
      body: { type: 'company', domain: b.domain, webhook_url: hookUrl, events: ['job.updated'] },
    });
    expect(res.status).toBe(201);
    const watch = WatchSchema.parse(res.body);
    await admin('PATCH', `/world/jobs/${b.shared.worldJobId}`, { description: `${DESCRIPTION} Now with on-call.` });
    const updated = await refreshUntil(
      () => events.find((e) => e.watch_id === watch.id && e.type === 'job.updated'),
      'job.updated for the changed board opening',
      WAIT_MS,
    );
    expect((updated.data as { job: Job }).job.id).toBe(jobId);
    expect((await getJob(jobId)).description).toContain('Now with on-call.');
    await api(`/v1/watches/${watch.id}`, { key, method: 'DELETE' });
  });

  it('takes a re-listing as a repost of the same job, in one read or after the opening closed', async () => {
    // every board also shows an item it cannot read (its id and nothing else), as a half-written posting
    // is: skipped under its id, it leaves the read standing for the board, whose gone openings still close
    const unreadable = (fail: 'unreadable_item' | 'none') =>
      Promise.all(
        ATS_LIST.map((ats) =>
          admin('PUT', `/world/boards/${ats}/${boards[ats].board}`, { company_domain: boards[ats].domain, fail }),
        ),
      );
    await unreadable('unreadable_item');
    // an employer's apply page, the same across the re-listing, and each ATS's own posting URL, which is not
    const openings = [
      { b: boards.greenhouse, opening: boards.greenhouse.own },
      ...ATS_LIST.map((ats) => ({ b: boards[ats], opening: boards[ats].posting })),
    ];
    const followed: { b: Board; opening: WorldJob; jobId: string; applyUrl: string | null; firstSource: string }[] = [];
    for (const { b, opening } of openings) {
      const job = await getJob((await searchOne(opening)).id);
      followed.push({
        b,
        opening,
        jobId: job.id,
        applyUrl: job.apply_url,
        firstSource: boardSource(job, b)!.provider_job_id,
      });
    }
    expect(followed.slice(1).every((f) => f.applyUrl?.includes(`/${f.b.board}/`))).toBe(true);
    const boardIdsOf = (job: Job, b: Board) =>
      job.sources
        .filter((s) => s.provider === 'own_index' && s.provider_job_id.startsWith(`${b.ats}:${b.board}:`))
        .map((s) => s.provider_job_id);
    // four reads a look, a look a second at most: well inside the account's rate limit
    const jobsNow = async () => {
      await new Promise((r) => setTimeout(r, 800));
      return Promise.all(followed.map((f) => getJob(f.jobId)));
    };
    const relistedAs = async (repostCount: number, what: string) => {
      const jobs = await refreshUntil(
        async () => {
          const now = await jobsNow();
          return now.every((j) => j.status === 'open' && j.repost_count === repostCount) ? now : undefined;
        },
        what,
        WAIT_MS,
      );
      for (const [i, { b, opening, jobId, applyUrl, firstSource }] of followed.entries()) {
        expect(jobs[i]).toMatchObject({ id: jobId, status: 'open', repost_count: repostCount });
        // one job for the opening: its search finds the re-listed job, not a second one
        expect((await searchOne(opening)).id).toBe(jobId);
        // the board's new id for it beside the earlier ones
        const boardIds = boardIdsOf(jobs[i]!, b);
        expect(boardIds).toContain(firstSource);
        expect(boardIds).toHaveLength(repostCount + 1);
        if (opening === b.posting) expect(jobs[i]!.apply_url).not.toBe(applyUrl);
      }
    };

    // re-listed a day after its posting while open: one read shows the new posting where the old one was
    const watches = await Promise.all(
      ATS_LIST.map(async (ats) => {
        const res = await api('/v1/watches', {
          key,
          body: {
            type: 'company',
            domain: boards[ats].domain,
            webhook_url: hookUrl,
            events: ['job.opened', 'job.closed', 'job.reposted'],
          },
        });
        expect(res.status).toBe(201);
        return WatchSchema.parse(res.body).id;
      }),
    );
    for (const { opening } of followed) await admin('POST', `/world/jobs/${opening.worldJobId}/repost`);
    await relistedAs(1, 'the openings re-listed while open reposted');
    // each watch heard its openings' re-listings, and no opening or closing
    const heard = await eventually(
      async () => {
        const mine = events.filter((e) => watches.includes(e.watch_id ?? ''));
        return mine.filter((e) => e.type === 'job.reposted').length >= followed.length ? mine : undefined;
      },
      30_000,
      'job.reposted for each re-listed opening',
      200,
    );
    expect(heard.map((e) => e.type)).toEqual(followed.map(() => 'job.reposted'));
    expect(heard.map((e) => (e.data as { job: Job }).job.id).sort()).toEqual(followed.map((f) => f.jobId).sort());
    for (const id of watches) await api(`/v1/watches/${id}`, { key, method: 'DELETE' });

    // closed, then listed again
    for (const { opening } of followed)
      await admin('POST', `/world/jobs/${opening.worldJobId}/close`, { reason: 'filled' });
    const closed = await refreshUntil(
      async () => ((await jobsNow()).every((j) => j.status === 'closed') ? true : undefined),
      'the unlisted openings closed',
      WAIT_MS,
    );
    expect(closed).toBe(true);
    for (const { opening } of followed) await admin('POST', `/world/jobs/${opening.worldJobId}/repost`);
    await relistedAs(2, 'the re-listed openings open again');
    await unreadable('none');
  });

  it('keeps a failing board open and says why, while the other boards are still read', async () => {
    const [ok, erring, garbled] = [boards.greenhouse, boards.lever, boards.ashby];
    await admin('PUT', `/world/boards/lever/${erring.board}`, { company_domain: erring.domain, fail: 'error' });
    await admin('PUT', `/world/boards/ashby/${garbled.board}`, { company_domain: garbled.domain, fail: 'garbage' });
    const before = (await boardStatus(ok)).last_read_at!;
    await refreshPass();
    const [okNow, erringNow, garbledNow] = [
      await boardStatus(ok),
      await boardStatus(erring),
      await boardStatus(garbled),
    ];
    expect(okNow.last_error).toBeNull();
    expect(Date.parse(okNow.last_read_at!)).toBeGreaterThan(Date.parse(before));
    expect(erringNow.last_error).toMatch(/503/);
    expect(garbledNow.last_error).not.toBeNull();
    for (const b of [erring, garbled]) {
      expect(boardSource(await searchOne(b.own), b)).toBeDefined();
      expect((await searchOne(b.own)).status).toBe('open');
    }
    await admin('PUT', `/world/boards/lever/${erring.board}`, { company_domain: erring.domain });
    await admin('PUT', `/world/boards/ashby/${garbled.board}`, { company_domain: garbled.domain });
    // the next read clears the error. A pass reads each board once: this test's pass and one that an earlier request
    // left pending make two failed reads in a row; a third (a scheduled pass meanwhile) opens the board's breaker,
    // whose cool-down then comes first
    const cleared = await refreshUntil(
      async () =>
        (await boardStatus(erring)).last_error === null && (await boardStatus(garbled)).last_error === null
          ? true
          : undefined,
      'the repaired boards read without an error',
      BOARD_BREAKER_COOLDOWN_MS + WAIT_MS,
    );
    expect(cleared).toBe(true);
  }, 900_000);

  it('closes the openings of a removed board that no partner lists', async () => {
    const b = boards.lever;
    const ownId = (await searchOne(b.own)).id;
    const sharedId = (await searchOne(b.shared)).id;
    await admin('DELETE', `/crawler/boards/lever/${b.board}`, undefined, 204);
    await eventually(
      async () => ((await getJob(ownId)).status === 'closed' ? true : undefined),
      WAIT_MS,
      'the removed board opening closed',
      500,
    );
    expect((await getJob(sharedId)).status).toBe('open');
    const list = (await admin('GET', '/crawler/boards'))!['data'] as BoardStatus[];
    expect(list.some((s) => s.ats === 'lever' && s.board === b.board)).toBe(false);
  });
});

// Integration test against the real PostgreSQL: a board read whose answer had items the reader
// could not read judges no absences, whatever its sweep says about being complete.
import type { NormalizedProviderRecord, RefreshRecordsFetched } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import { MergeRefreshUseCase } from './merge-refresh.usecase.js';
import type { RefreshPlanner } from './refresh-planner.js';

const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined } as unknown as Logger;
let db: ThrowawayDatabase;
let merge: MergeRefreshUseCase;

beforeAll(async () => {
  db = await throwawayDatabase('board_skipped');
  const repository = new CanonicalJobRepository(db.prisma, outboxStub());
  merge = new MergeRefreshUseCase(repository, { kick: () => undefined } as unknown as RefreshPlanner, logger);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

let clock = Date.parse('2026-11-20T12:00:00.000Z');
const tick = () => new Date((clock += 60_000)).toISOString();

const name = 'wharf';
const domain = `${name}.example`;

const opening = (id: number, title: string): NormalizedProviderRecord => ({
  provider: 'own_index',
  provider_job_id: `greenhouse:${name}:${id}`,
  url: `https://${domain}/jobs/${id}`,
  title,
  company: { name: 'Wharf', domain },
  location: { city: 'Hamburg', region: null, country_code: 'DE', remote: false },
  employment_type: null,
  seniority: null,
  job_family: null,
  salary: null,
  description: `The ${title} of ${domain}: keep the wharf running, with a friendly team in Hamburg.`,
  apply_url: `https://${domain}/jobs/${id}`,
  posted_at: '2026-11-19T09:00:00.000Z',
  seen_at: tick(),
});

/** A changed board's read whole sweep (as complete as a producer may say), `skipped` items left out. */
function sweep(records: NormalizedProviderRecord[], skipped: number): RefreshRecordsFetched.Value {
  const at = tick();
  return {
    v: 1,
    refresh_id: `rfr_${name}_${clock}`,
    kind: 'board',
    scope: {
      key: `board:greenhouse/${name}`,
      filters: {},
      board: {
        ats: 'greenhouse',
        board: name,
        base_url: 'https://boards-api.greenhouse.io',
        company_domain: domain,
        company_name: 'Wharf',
      },
    },
    provider: 'own_index',
    part: 0,
    final: true,
    outcome: 'ok',
    complete: true,
    started_at: at,
    latency_ms: 5,
    fetched_at: at,
    records: records.map((r) => ({ ...r, seen_at: at })),
    board_read: { changed: true, validators: { content_hash: `h-${clock}` }, error: null, skipped },
  };
}

const statusOf = async (providerJobId: string) => {
  const source = await db.prisma.jobSource.findFirst({ where: { provider: 'own_index', providerJobId } });
  return (await db.prisma.canonicalJob.findUnique({ where: { id: source!.canonicalJobId } }))!.status;
};

describe('a board read that skipped items', () => {
  it('closes none of the listings missing from its records; the next read of every item does', async () => {
    const pilot = opening(1, 'Wharf Pilot');
    const crane = opening(2, 'Wharf Crane Operator');
    await merge.execute(sweep([pilot, crane], 0));
    // the crane operator's item could not be read this time: it may still be listed
    await merge.execute(sweep([pilot], 1));
    expect(await statusOf(crane.provider_job_id)).toBe('open');
    await merge.execute(sweep([pilot], 0));
    expect(await statusOf(crane.provider_job_id)).toBe('closed');
    expect(await statusOf(pilot.provider_job_id)).toBe('open');
  });
});

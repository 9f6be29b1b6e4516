import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { BoardFormatError } from './board-format.js';
import { boardFixture, contextOf, SEEN_AT } from './board-fixture.spec-helper.js';
import { GREENHOUSE_BOARD } from './greenhouse.board.js';

const board = boardFixture('greenhouse.json');
const parse = (body: unknown) => GREENHOUSE_BOARD.parse(body, contextOf('greenhouse'));

describe('Greenhouse Job Board API', () => {
  it('asks for the board with content', () => {
    expect(GREENHOUSE_BOARD.url('https://boards-api.greenhouse.io/', 'acme').toString()).toBe(
      'https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true',
    );
  });

  it('maps a full job: place, escaped HTML as text, first publication, the registration company', () => {
    const { records } = parse(board);
    const r = records[0]!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toEqual({
      provider: 'own_index',
      provider_job_id: 'greenhouse:acme:4012345',
      url: 'https://boards.greenhouse.io/acme/jobs/4012345?gh_jid=4012345',
      title: 'Senior Backend Engineer',
      company: { name: 'Acme', domain: 'acme.com' },
      location: { city: 'San Francisco', region: 'CA', country_code: 'US', remote: null },
      employment_type: null,
      seniority: null,
      job_family: null,
      salary: null,
      description:
        "We're building the future of logistics — join us.\n\nWhat you’ll do\n\n- Design APIs\n- Run Postgres & Kafka",
      apply_url: 'https://boards.greenhouse.io/acme/jobs/4012345?gh_jid=4012345',
      posted_at: '2026-11-02T14:00:00.000Z',
      seen_at: SEEN_AT,
    });
  });

  it('takes the first place of a multi-location job, and no posting date when it was never published', () => {
    const r = parse(board).records[1]!;
    expect(r.location).toEqual({ city: 'London', region: null, country_code: 'GB', remote: null });
    // updated_at is an edit, not a posting
    expect(r.posted_at).toBeNull();
  });

  it('places a remote job at its office, keeps non-ASCII text and decodes &nbsp;', () => {
    const r = parse(board).records[2]!;
    expect(r.title).toBe('Ingénieure logicielle — Zürich équipe');
    expect(r.location).toEqual({ city: 'Zürich', region: null, country_code: 'CH', remote: true });
    expect(r.description).toBe('Travail à distance, équipe à Zürich & München. Gehalt: 90.000 €');
  });

  it('places a job in a part of the world nowhere, not at its first office; one in a country there', () => {
    const job = (location: string) => ({
      id: 4019999,
      title: 'Support Engineer',
      location: { name: location },
      offices: [{ id: 1, name: 'San Francisco', location: 'San Francisco, CA' }],
    });
    const [emea, canada] = parse({ jobs: [job('Remote - EMEA'), job('Remote (Canada)')] }).records;
    expect(emea!.location).toEqual({ city: null, region: null, country_code: null, remote: true });
    expect(canada!.location).toEqual({ city: null, region: null, country_code: 'CA', remote: true });
  });

  it('keeps a job with missing fields as unknowns, and skips one without a title under its id', () => {
    const { records, skipped, skippedIds } = parse(board);
    expect(records).toHaveLength(4);
    expect(skipped).toBe(1);
    expect(skippedIds).toEqual(['greenhouse:acme:4012349']);
    const r = records[3]!;
    expect(r).toMatchObject({ url: null, apply_url: null, description: null, posted_at: null });
    expect(r.location).toEqual({ city: null, region: null, country_code: null, remote: null });
  });

  it('has no posting date when first_published is no plausible date, whatever updated_at says', () => {
    const job = { ...board.jobs[0], first_published: 'Jan 1 10000', updated_at: '2026-11-20T10:15:02Z' };
    const { records, skipped } = parse({ jobs: [job] });
    expect(skipped).toBe(0);
    expect(records[0]!.posted_at).toBeNull();
  });

  it('reads hundreds of jobs on one board', () => {
    const jobs = Array.from({ length: 600 }, (_, i) => ({ ...board.jobs[0], id: 5_000_000 + i, title: `Role ${i}` }));
    const { records, skipped } = parse({ jobs, meta: { total: jobs.length } });
    expect(records).toHaveLength(600);
    expect(skipped).toBe(0);
    expect(new Set(records.map((r) => r.provider_job_id)).size).toBe(600);
  });

  it('refuses an answer that is not a board', () => {
    for (const body of [[], { error: 'not found' }, 'gone', null]) expect(() => parse(body)).toThrow(BoardFormatError);
    expect(parse({ jobs: [] }).records).toEqual([]);
  });
});

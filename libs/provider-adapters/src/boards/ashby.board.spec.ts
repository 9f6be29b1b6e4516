import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { ASHBY_BOARD } from './ashby.board.js';
import { BoardFormatError } from './board-format.js';
import { boardFixture, contextOf, SEEN_AT } from './board-fixture.spec-helper.js';

const board = boardFixture('ashby.json');
const parse = (body: unknown) => ASHBY_BOARD.parse(body, contextOf('ashby', 'example'));

describe('Ashby public job posting API', () => {
  it('asks for the board with compensation', () => {
    expect(ASHBY_BOARD.url('https://api.ashbyhq.com', 'example').toString()).toBe(
      'https://api.ashbyhq.com/posting-api/job-board/example?includeCompensation=true',
    );
  });

  it('maps a full job: postal address, workplace type, employment type, the salary component', () => {
    const r = parse(board).records[0]!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toEqual({
      provider: 'own_index',
      provider_job_id: 'ashby:example:7458d4e9-da2e-47bd-98cb-adfda43d42b2',
      url: 'https://jobs.ashbyhq.com/example/7458d4e9-da2e-47bd-98cb-adfda43d42b2',
      title: 'Engineering Manager - EU',
      company: { name: 'Acme', domain: 'acme.com' },
      location: { city: 'Amsterdam', region: 'North Holland', country_code: 'NL', remote: false },
      employment_type: 'full_time',
      seniority: null,
      job_family: null,
      salary: { min: 150000, max: 250000, currency: 'EUR', period: 'year', origin: 'declared' },
      description: 'Lead a team of 8 & grow it.',
      apply_url: 'https://jobs.ashbyhq.com/example/7458d4e9-da2e-47bd-98cb-adfda43d42b2/application',
      posted_at: '2026-11-04T14:29:08.532Z',
      seen_at: SEEN_AT,
    });
  });

  it('reads a remote hourly job in Japanese from its HTML when the plain text is empty', () => {
    const r = parse(board).records[1]!;
    expect(r.title).toBe('Support Specialist (日本語)');
    expect(r.location).toEqual({ city: null, region: null, country_code: 'JP', remote: true });
    expect(r.salary).toEqual({ min: 3000, max: 3500, currency: 'JPY', period: 'hour', origin: 'declared' });
    expect(r.description).toBe('お客様をサポートします。');
  });

  it('reads the place from the text without an address, and leaves out unlisted postings', () => {
    const { records, skipped } = parse(board);
    expect(records).toHaveLength(3);
    expect(skipped).toBe(0);
    const r = records[2]!;
    expect(r.location).toEqual({ city: 'Austin', region: 'TX', country_code: 'US', remote: null });
    expect(r).toMatchObject({ employment_type: 'temporary', salary: null, description: null });
    expect(r.apply_url).toBe('https://jobs.ashbyhq.com/example/9e9e9e9e-0000-4000-8000-000000000003');
  });

  it('refuses an answer that is not a board', () => {
    for (const body of [[], { success: false }, null]) expect(() => parse(body)).toThrow(BoardFormatError);
  });
});

import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { BoardFormatError } from './board-format.js';
import { boardFixture, contextOf, SEEN_AT } from './board-fixture.spec-helper.js';
import { LEVER_BOARD } from './lever.board.js';

const postings = boardFixture<unknown[]>('lever.json');
const parse = (body: unknown) => LEVER_BOARD.parse(body, contextOf('lever', 'leverdemo'));

describe('Lever Postings API', () => {
  it('asks for the site in JSON', () => {
    expect(LEVER_BOARD.url('https://api.lever.co', 'leverdemo').toString()).toBe(
      'https://api.lever.co/v0/postings/leverdemo?mode=json',
    );
  });

  it('maps a full posting: categories, country, workplace type, salary range, lists, createdAt in ms', () => {
    const r = parse(postings).records[0]!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toEqual({
      provider: 'own_index',
      provider_job_id: 'lever:leverdemo:5ac21346-8e0c-4494-8e7a-3eb92ff77902',
      url: 'https://jobs.lever.co/leverdemo/5ac21346-8e0c-4494-8e7a-3eb92ff77902',
      title: 'Staff Platform Engineer',
      company: { name: 'Acme', domain: 'acme.com' },
      location: { city: 'Toronto', region: 'ON', country_code: 'CA', remote: false },
      employment_type: 'full_time',
      seniority: null,
      job_family: null,
      salary: { min: 180000, max: 220000, currency: 'CAD', period: 'year', origin: 'declared' },
      description:
        'Build the platform that runs our payments.\n\n' +
        'Requirements\n- 5 years of TypeScript\n- Kafka & PostgreSQL\n\n' +
        'We offer equity and a learning budget.',
      apply_url: 'https://jobs.lever.co/leverdemo/5ac21346-8e0c-4494-8e7a-3eb92ff77902/apply',
      posted_at: '2026-11-22T06:02:30.000Z',
      seen_at: SEEN_AT,
    });
  });

  it('reads a remote part-time posting paid by the hour, in German', () => {
    const r = parse(postings).records[1]!;
    expect(r.title).toBe('Kundenberater (m/w/d)');
    expect(r.location).toEqual({ city: null, region: null, country_code: 'DE', remote: true });
    expect(r.employment_type).toBe('part_time');
    expect(r.salary).toEqual({ min: 22, max: 26, currency: 'EUR', period: 'hour', origin: 'declared' });
    expect(r.description).toBe('Hilf unseren Kundinnen in München und Köln.');
  });

  it('turns weekly pay into yearly, marked lossy; a state code places the job in the US', () => {
    const r = parse(postings).records[2]!;
    expect(r.employment_type).toBe('internship');
    expect(r.location).toEqual({ city: 'New York', region: 'NY', country_code: 'US', remote: null });
    expect(r.salary).toEqual({ min: 52000, max: 62400, currency: 'USD', period: 'year', origin: 'declared' });
    expect(r.lossy).toEqual(['salary']);
  });

  it('keeps missing fields unknown, drops a one-time amount, skips a posting without an id', () => {
    const { records, skipped, skippedIds } = parse(postings);
    expect(records).toHaveLength(4);
    expect(skipped).toBe(1);
    // a posting without an id names no listing: the read cannot stand for the whole board
    expect(skippedIds).toEqual([]);
    const r = records[3]!;
    expect(r).toMatchObject({ employment_type: 'contract', salary: null, posted_at: null, description: null });
    expect(r.apply_url).toBe('https://jobs.lever.co/leverdemo/d3a0c1de-0000-4000-8000-000000000004');
  });

  it('keeps a posting whose createdAt is no plausible date, its posted_at unknown', () => {
    // past Date's range; a year past 9999; seconds, not ms; microseconds
    for (const createdAt of [9e15, 1e15, 1_795_327_350, 1_795_327_350_000_000]) {
      const { records, skipped } = parse([{ ...(postings[0] as object), createdAt }]);
      expect(skipped).toBe(0);
      expect(records[0]!.posted_at).toBeNull();
    }
  });

  it('names a skipped posting by its id only when it is a plain token', () => {
    const ids = (id: unknown) => parse([{ ...(postings[0] as object), id, text: '' }]).skippedIds;
    const uuid = '9f1b2c3d-0000-4000-8000-00000000000a';
    expect(ids(uuid)).toEqual([`lever:leverdemo:${uuid}`]);
    expect(ids('a b')).toEqual([]);
    expect(ids('../x')).toEqual([]);
    expect(ids({ nested: 1 })).toEqual([]);
  });

  it('refuses an answer that is not a list of postings', () => {
    for (const body of [{ ok: false, error: 'Document not found' }, '<html>', null])
      expect(() => parse(body)).toThrow(BoardFormatError);
  });
});

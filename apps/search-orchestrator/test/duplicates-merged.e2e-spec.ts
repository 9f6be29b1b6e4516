import { JobSearchResponseSchema } from '@jobs/contracts';
import { addWorldJob, api, createAccount } from '@jobs/e2e-support';

/**
 * interface.md "metadata.duplicates_merged" (provider records merged into existing canonical
 * jobs), over HTTP against the running stack: a partner's record of a job the store already has
 * is merged into that job, and counts, on every search that brings it; the record that made a
 * job does not. Fixtures are openings with titles unique in the world.
 */
async function search(key: string, body: Record<string, unknown>) {
  const res = await api('/v1/jobs/search', { key, body });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return JobSearchResponseSchema.parse(res.body);
}

const ownAndA = (keyword: string) => ({
  filters: { title_or: [keyword] },
  waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
  limit: 10,
});

describe('duplicates_merged', () => {
  it('counts the sighting of a listing the store knows, on each search that brings it', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const opening = await addWorldJob({ providers: ['own_index', 'provider_a'] });

    // The first search brings the opening into the store: one job, whichever source made it.
    const first = await search(key, ownAndA(opening.keyword));
    expect(first.data.map((j) => j.title)).toEqual([opening.title]);
    expect(first.metadata.providers.failed).toEqual([]);
    const jobId = first.data[0]!.id;
    // provider_a's one record either made the job (0) or met it stored by the crawler (1)
    expect(first.metadata.duplicates_merged).toBeLessThanOrEqual(1);

    // The job is in the store now. Twice: the own index answers from the store (no record) and
    // provider_a's one record is a sighting of its known listing, merged into the stored job.
    for (const round of [1, 2]) {
      const again = await search(key, ownAndA(opening.keyword));
      expect([round, again.data.map((j) => j.id)]).toEqual([round, [jobId]]);
      expect([...again.metadata.providers.tried].sort()).toEqual(['own_index', 'provider_a']);
      expect(again.metadata.providers.failed).toEqual([]);
      expect(again.data[0]!.sources.map((s) => s.provider)).toContain('provider_a');
      expect([round, again.metadata.duplicates_merged]).toEqual([round, 1]);
    }
  });

  it('counts a record that joins a job made earlier in the same search, and one that meets a stored job', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    // new to the store: provider_a's and provider_b's records are two listings of one new job
    const fresh = await addWorldJob({ providers: ['provider_a', 'provider_b'] });
    // already in the store: provider_a's record is a sighting
    const stored = await addWorldJob({ providers: ['provider_a'] });
    const body = (keywords: string[]) => ({
      filters: { title_or: keywords },
      waterfall: { strategy: 'max_coverage', providers: ['provider_a', 'provider_b'] },
      limit: 10,
    });
    const before = await search(key, body([stored.keyword]));
    expect(before.data.map((j) => j.title)).toEqual([stored.title]);
    expect(before.metadata.duplicates_merged).toBe(0);

    const searchedAt = Date.now();
    const page = await search(key, body([fresh.keyword, stored.keyword]));
    expect(page.data.map((j) => j.title).sort()).toEqual([fresh.title, stored.title].sort());
    expect(page.metadata.providers.failed).toEqual([]);
    // three records, one new job: one record made it, the other two were merged into existing jobs
    // (unless a refresh pass stored the new opening just before: then all three were)
    const made = page.data.find((j) => j.title === fresh.title)!;
    expect(page.metadata.duplicates_merged).toBe(Date.parse(made.first_seen_at) < searchedAt ? 3 : 2);
  });
});

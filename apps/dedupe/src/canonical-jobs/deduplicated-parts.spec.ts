import { examples, type Job, type SearchRecordsDeduplicated } from '@jobs/contracts';
import { deduplicatedParts } from './deduplicated-parts.js';

const job = (id: string, size = 2_000): Job => ({ ...examples.job(), id, description: 'x'.repeat(size) });
const batch = (provider: SearchRecordsDeduplicated.DeduplicatedBatch['provider'], ids: string[]) =>
  ({
    provider,
    outcome: 'ok',
    latency_ms: 1,
    records_in: ids.length,
    duplicates_merged: 0,
    from_store: 0,
    job_ids: ids,
  }) as SearchRecordsDeduplicated.DeduplicatedBatch;
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `job_${prefix}${i}`);

describe('deduplicatedParts', () => {
  it('keeps a usual wave in one message', () => {
    const a = ids('a', 20);
    const parts = deduplicatedParts(
      a.map((id) => job(id)),
      [batch('provider_a', a), batch('provider_b', a)],
    );
    expect(parts).toHaveLength(1);
    expect(parts[0]!.jobs).toHaveLength(20);
  });

  it('splits a large wave into parts of whole batches, each with the jobs its batches name, under the bound', () => {
    const a = ids('a', 100);
    const b = ids('b', 100);
    const shared = [...a.slice(0, 50), ...ids('c', 50)];
    const jobs = [...new Set([...a, ...b, ...shared])].map((id) => job(id, 3_000));
    const batches = [batch('provider_a', a), batch('provider_b', b), batch('provider_c', shared)];
    const parts = deduplicatedParts(jobs, batches, 400 * 1024);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flatMap((p) => p.batches.map((x) => x.provider))).toEqual(['provider_a', 'provider_b', 'provider_c']);
    for (const part of parts) {
      const named = new Set(part.batches.flatMap((x) => x.job_ids));
      expect(new Set(part.jobs.map((j) => j.id))).toEqual(named);
      expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThan(400 * 1024 + 10_000);
    }
  });
});

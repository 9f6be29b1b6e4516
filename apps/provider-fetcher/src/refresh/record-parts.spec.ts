import { examples, type NormalizedProviderRecord } from '@jobs/contracts';
import { PART_MAX_BYTES, recordParts } from './record-parts.js';

const record = (id: number, descriptionBytes = 0): NormalizedProviderRecord => ({
  ...examples.normalizedRecord(),
  provider_job_id: `r${id}`,
  description: descriptionBytes > 0 ? 'x'.repeat(descriptionBytes) : null,
});
const ids = (parts: NormalizedProviderRecord[][]) => parts.map((p) => p.map((r) => r.provider_job_id));

describe('recordParts', () => {
  it('cuts by count, in order', () => {
    const { parts, oversized } = recordParts(
      [1, 2, 3, 4, 5].map((i) => record(i)),
      2,
    );
    expect(ids(parts)).toEqual([['r1', 'r2'], ['r3', 'r4'], ['r5']]);
    expect(oversized).toBe(0);
  });

  it('cuts by bytes: 200 openings of 5 KB are more than one message may carry', () => {
    const records = Array.from({ length: 200 }, (_, i) => record(i, 5_000));
    const { parts } = recordParts(records, 200);
    expect(parts.length).toBeGreaterThan(1);
    // the records' bytes, and the array's brackets and commas
    for (const part of parts)
      expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThanOrEqual(PART_MAX_BYTES + part.length + 1);
    expect(parts.flat()).toEqual(records);
  });

  it('leaves out a record larger than a part alone, and counts it', () => {
    const { parts, oversized } = recordParts([record(1), record(2, PART_MAX_BYTES), record(3)], 10);
    expect(ids(parts)).toEqual([['r1', 'r3']]);
    expect(oversized).toBe(1);
  });

  it('gives one empty part for no records', () => {
    expect(recordParts([], 200)).toEqual({ parts: [[]], oversized: 0 });
  });
});

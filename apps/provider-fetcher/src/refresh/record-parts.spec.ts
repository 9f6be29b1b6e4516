import { examples, type NormalizedProviderRecord } from '@jobs/contracts';
import { DESCRIPTION_MAX_CHARS, PART_MAX_BYTES, recordParts } from './record-parts.js';

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
    expect(oversized).toEqual([]);
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

  it('cuts a description too long for a part, keeping the record; leaves out a record still too large', () => {
    const { parts, oversized } = recordParts([record(1), record(2, PART_MAX_BYTES), record(3)], 10);
    expect(ids(parts)).toEqual([['r1', 'r2', 'r3']]);
    expect(parts[0]![1]!.description).toHaveLength(DESCRIPTION_MAX_CHARS);
    expect(oversized).toEqual([]);
    const huge = { ...record(4), title: 'x'.repeat(PART_MAX_BYTES) };
    expect(recordParts([record(1), huge], 10)).toMatchObject({ oversized: [huge.provider_job_id] });
  });

  it('gives one empty part for no records', () => {
    expect(recordParts([], 200)).toEqual({ parts: [[]], oversized: [] });
  });
});

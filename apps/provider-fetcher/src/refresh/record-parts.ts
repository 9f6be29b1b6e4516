import { MESSAGE_PART_MAX_BYTES, type NormalizedProviderRecord } from '@jobs/contracts';

/**
 * What one `refresh.records.fetched` part may carry: a refused part would end its sweep without a
 * final part, holding the pass. Real boards' descriptions run to kilobytes a job, so a count alone
 * does not bound a part.
 */
export const PART_MAX_BYTES = MESSAGE_PART_MAX_BYTES;

/** A description longer than this is cut: a record must fit a part, and no real posting is longer. */
export const DESCRIPTION_MAX_CHARS = 100_000;

export interface RecordParts {
  parts: NormalizedProviderRecord[][];
  /**
   * The ids of the records left out: larger than a part alone even with their description cut
   * (listings the sweep could not hand on, so not read whole).
   */
  oversized: string[];
}

/**
 * Records in order, in parts of at most `maxRecords` records and `maxBytes` of JSON each; at least
 * one part (empty when there are no records).
 */
export function recordParts(
  records: readonly NormalizedProviderRecord[],
  maxRecords: number,
  maxBytes = PART_MAX_BYTES,
): RecordParts {
  const parts: NormalizedProviderRecord[][] = [];
  let current: NormalizedProviderRecord[] = [];
  let bytes = 0;
  const oversized: string[] = [];
  for (const original of records) {
    let record = original;
    let size = Buffer.byteLength(JSON.stringify(record));
    if (size > maxBytes && record.description !== null && record.description.length > DESCRIPTION_MAX_CHARS) {
      record = { ...record, description: record.description.slice(0, DESCRIPTION_MAX_CHARS) };
      size = Buffer.byteLength(JSON.stringify(record));
    }
    if (size > maxBytes) {
      oversized.push(record.provider_job_id);
      continue;
    }
    if (current.length > 0 && (current.length >= maxRecords || bytes + size > maxBytes)) {
      parts.push(current);
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0 || parts.length === 0) parts.push(current);
  return { parts, oversized };
}

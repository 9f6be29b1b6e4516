import { MESSAGE_PART_MAX_BYTES, type Job, type SearchRecordsDeduplicated } from '@jobs/contracts';

/** What one `search.records.deduplicated` message may carry: a refused answer would come back for ever. */
export const PART_MAX_BYTES = MESSAGE_PART_MAX_BYTES;
/** Below this many jobs a wave's answer is one message without measuring it (100 jobs are about 300 KB). */
const MEASURE_FROM_JOBS = 150;

type Batch = SearchRecordsDeduplicated.DeduplicatedBatch;

/**
 * A wave's answer as one message, or as several when its jobs would make it too large: each part
 * holds whole provider batches and the jobs they name (the orchestrator gathers a wave's batches
 * from several messages, as it does when some providers answer late). A batch larger than a part
 * goes alone.
 */
export function deduplicatedParts(
  jobs: readonly Job[],
  batches: readonly Batch[],
  maxBytes = PART_MAX_BYTES,
): { jobs: Job[]; batches: Batch[] }[] {
  if (jobs.length < MEASURE_FROM_JOBS || batches.length < 2) return [{ jobs: [...jobs], batches: [...batches] }];
  const byId = new Map(jobs.map((job) => [job.id, job]));
  const bytes = new Map(jobs.map((job) => [job.id, Buffer.byteLength(JSON.stringify(job))]));
  const parts: { jobs: Job[]; batches: Batch[] }[] = [];
  let current: { ids: Set<string>; batches: Batch[]; bytes: number } = { ids: new Set(), batches: [], bytes: 0 };
  const close = () => {
    if (current.batches.length === 0) return;
    parts.push({ jobs: [...current.ids].map((id) => byId.get(id)!), batches: current.batches });
    current = { ids: new Set(), batches: [], bytes: 0 };
  };
  for (const batch of batches) {
    const added = batch.job_ids.filter((id) => !current.ids.has(id) && byId.has(id));
    const size = added.reduce((sum, id) => sum + bytes.get(id)!, 0);
    if (current.batches.length > 0 && current.bytes + size > maxBytes) close();
    for (const id of batch.job_ids)
      if (byId.has(id) && !current.ids.has(id)) {
        current.ids.add(id);
        current.bytes += bytes.get(id)!;
      }
    current.batches.push(batch);
  }
  close();
  return parts;
}

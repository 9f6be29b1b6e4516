import type { PrismaService } from '@jobs/db';

/** Which held `job.opened` events a change ends: a watch's (or one job's of it), made no later than `madeBy`. */
export interface HeldOpenings {
  accountId: string;
  watchId: string;
  jobId?: string;
  /**
   * The change's moment: a held `job.opened` made after it stays (the job came back into the
   * watch, or the watch was resumed), so a redelivered change never drops a newer opening.
   * Absent (a message of an earlier version): every one of them.
   */
  madeBy?: string;
}

/** Drops the held `job.opened` events a change ended; how many. */
export function dropHeldOpenings(prisma: PrismaService, held: HeldOpenings): Promise<number> {
  const jobId = held.jobId ?? null;
  const madeBy = held.madeBy ?? null;
  return prisma.$executeRaw`
    DELETE FROM held_watch_events WHERE account_id = ${held.accountId} AND watch_id = ${held.watchId}
      AND (${jobId}::text IS NULL OR job_id = ${jobId}::text)
      AND (${madeBy}::timestamptz IS NULL OR (event ->> 'created_at')::timestamptz <= ${madeBy}::timestamptz)`;
}

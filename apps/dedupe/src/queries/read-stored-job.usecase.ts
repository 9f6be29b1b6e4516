import { Injectable } from '@nestjs/common';
import type { DedupeQueryRequested, Job } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { toJob } from '../canonical-jobs/job-view.js';

type JobGetQuery = Extract<DedupeQueryRequested.Value['query'], { kind: 'job.get' }>;

/**
 * One canonical job by id, answered only when a provider routable on the caller's plan saw it
 * (operator.md): otherwise it does not exist for that caller.
 */
@Injectable()
export class ReadStoredJobUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async execute(query: JobGetQuery): Promise<Job | null> {
    const row = await this.prisma.canonicalJob.findUnique({
      where: { id: query.job_id },
      include: { company: true, sources: true },
    });
    if (!row || !row.sources.some((s) => query.providers_routable.includes(s.provider))) return null;
    return toJob(row);
  }
}

import { Injectable } from '@nestjs/common';
import type { CompanyProfile, DedupeQueryRequested, ProviderSlug } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { companyProfile } from './company-profile.js';

type CompanyProfileQuery = Extract<DedupeQueryRequested.Value['query'], { kind: 'company.profile' }>;

/**
 * A company's hiring profile from the jobs a provider routable on the caller's plan saw (and
 * only those sources): a company no such provider saw a job of does not exist for the caller.
 */
@Injectable()
export class BuildCompanyProfileUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async execute(query: CompanyProfileQuery, now = new Date()): Promise<CompanyProfile | null> {
    const company = await this.prisma.company.findUnique({ where: { domain: query.domain.toLowerCase() } });
    if (!company) return null;
    const routable = query.providers_routable as ProviderSlug[];
    const jobs = await this.prisma.canonicalJob.findMany({
      where: { companyId: company.id, sources: { some: { provider: { in: routable } } } },
      select: {
        status: true,
        firstSeenAt: true,
        lastSeenAt: true,
        closedAt: true,
        reopenedFrom: true,
        reopenedAt: true,
        pReal: true,
        jobFamily: true,
        sources: { where: { provider: { in: routable } }, select: { provider: true, lastSeenAt: true } },
      },
    });
    if (jobs.length === 0) return null;
    return companyProfile({ id: company.id, name: company.name, domain: company.domain }, jobs, now);
  }
}

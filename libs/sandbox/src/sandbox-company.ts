import { PROVIDER_SLUGS, type CompanyProfile, type ProviderSlug } from '@jobs/contracts';
import { DAY_MS } from './sandbox-clock.js';
import { SANDBOX_AS_OF, SANDBOX_JOBS } from './sandbox-dataset.js';

/**
 * The hiring profile of a sandbox company (test keys: fictional, fixed, never charged), from
 * the sandbox jobs at sandbox time; undefined for a domain the sandbox does not know.
 */
export function sandboxCompanyProfile(domain: string): CompanyProfile | undefined {
  const jobs = SANDBOX_JOBS.filter((j) => j.company.domain === domain.toLowerCase());
  if (jobs.length === 0) return undefined;
  const now = Date.parse(SANDBOX_AS_OF);
  const open = jobs.filter((j) => j.status === 'open');
  const openThen = open.filter((j) => Date.parse(j.first_seen_at) <= now - 30 * DAY_MS).length;
  const change = open.length - openThen;
  const families = new Map<string, number>();
  for (const j of open) if (j.job_family) families.set(j.job_family, (families.get(j.job_family) ?? 0) + 1);
  const sources = new Map<ProviderSlug, { open: number; lastSeen: string }>();
  for (const j of jobs) {
    for (const s of j.sources) {
      const entry = sources.get(s.provider) ?? { open: 0, lastSeen: s.last_seen_at };
      if (s.last_seen_at > entry.lastSeen) entry.lastSeen = s.last_seen_at;
      if (j.status === 'open') entry.open += 1;
      sources.set(s.provider, entry);
    }
  }
  return {
    company: jobs[0]!.company,
    open_jobs_count: open.length,
    is_hiring:
      open.length > 0
        ? {
            value: true,
            confidence: 0.9,
            basis: `Sandbox data: ${open.length} open job${open.length === 1 ? '' : 's'}.`,
          }
        : { value: null, confidence: 0, basis: 'Sandbox data: no open job.' },
    hiring_pulse: { direction: change > 0 ? 'up' : change < 0 ? 'down' : 'flat', open_jobs_30d_change: change },
    top_job_families: [...families]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, 5)
      .map(([job_family, open_jobs]) => ({ job_family, open_jobs })),
    sources: PROVIDER_SLUGS.filter((p) => sources.has(p)).map((provider) => ({
      provider,
      open_jobs: sources.get(provider)!.open,
      last_seen_at: sources.get(provider)!.lastSeen,
    })),
  };
}

/**
 * A company's hiring profile from its canonical jobs (plain TypeScript, no Nest or Prisma).
 *
 * - `is_hiring.value` is true when an open job of the company was seen in the last 30 days;
 *   false only when it has no open job and one of its jobs closed in the last 90 days (jobs
 *   close only when absent from complete refreshes, never after a failed fetch); null
 *   (unknown, never a guess of false) otherwise: no job ever seen, open jobs not seen for over
 *   30 days, or nothing closed recently. Confidence: open jobs' corroboration combined
 *   (1 - Π(1 - p_real)), at most 0.99; 0.8 for false; 0 for null.
 * - `hiring_pulse.open_jobs_30d_change`: open jobs now minus open jobs 30 days ago (first seen
 *   by then, not closed by then, and not inside the closing a re-listing ended); direction up,
 *   down or flat by its sign.
 * - `top_job_families`: the five largest families of open jobs.
 * - `sources`: per provider that saw a job of the company, its open jobs and latest sighting.
 */
import {
  PROVIDER_SLUGS,
  type CompanyProfile,
  type CompanyRef,
  type HiringPulse,
  type IsHiring,
  type ProviderSlug,
} from '@jobs/contracts';

export const HIRING_FRESH_DAYS = 30;
export const CLOSED_RECENT_DAYS = 90;
const PULSE_DAYS = 30;
const TOP_FAMILIES = 5;
const DAY_MS = 86_400_000;

/** One canonical job of the company, as the profile reads it. */
export interface CompanyJobFacts {
  status: 'open' | 'closed';
  firstSeenAt: Date;
  lastSeenAt: Date;
  closedAt: Date | null;
  /** The last closing a re-listing ended (null when none did). */
  reopenedFrom: Date | null;
  reopenedAt: Date | null;
  pReal: number;
  jobFamily: string | null;
  sources: readonly { provider: ProviderSlug; lastSeenAt: Date }[];
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * What the hiring judgement reads of a company's jobs: its open ones, and of its closed ones only
 * how many and the latest closing, so a judgement costs what is open, not the company's history.
 */
export interface HiringFacts {
  open: readonly Pick<CompanyJobFacts, 'lastSeenAt' | 'pReal'>[];
  closedCount: number;
  lastClosedAt: Date | null;
}

export function isHiring(jobs: readonly CompanyJobFacts[], now: Date): IsHiring {
  const closings = jobs.flatMap((j) => (j.status === 'closed' && j.closedAt ? [j.closedAt.getTime()] : []));
  return isHiringFrom(
    {
      open: jobs.filter((j) => j.status === 'open'),
      closedCount: jobs.filter((j) => j.status === 'closed').length,
      lastClosedAt: closings.length > 0 ? new Date(Math.max(...closings)) : null,
    },
    now,
  );
}

export function isHiringFrom({ open, closedCount, lastClosedAt }: HiringFacts, now: Date): IsHiring {
  const fresh = open.filter((j) => now.getTime() - j.lastSeenAt.getTime() <= HIRING_FRESH_DAYS * DAY_MS);
  if (fresh.length > 0) {
    const latest = new Date(Math.max(...fresh.map((j) => j.lastSeenAt.getTime())));
    const confidence = Math.min(0.99, 1 - fresh.reduce((p, j) => p * (1 - j.pReal), 1));
    return {
      value: true,
      confidence: round2(confidence),
      basis:
        `${fresh.length} open job${fresh.length === 1 ? '' : 's'} ` +
        `seen in the last ${HIRING_FRESH_DAYS} days (latest on ` +
        `${day(latest)}).`,
    };
  }
  if (open.length > 0) {
    return {
      value: null,
      confidence: 0,
      basis:
        `Unknown: its ${open.length} open ` +
        `job${open.length === 1 ? ' was' : 's were'} not seen for ` +
        `over ${HIRING_FRESH_DAYS} days.`,
    };
  }
  if (lastClosedAt !== null && now.getTime() - lastClosedAt.getTime() <= CLOSED_RECENT_DAYS * DAY_MS) {
    return {
      value: false,
      confidence: 0.8,
      basis:
        `No open jobs: all ${closedCount} known ` +
        `job${closedCount === 1 ? '' : 's'} closed (absent from ` +
        `complete refreshes), the last on ` +
        `${day(lastClosedAt)}.`,
    };
  }
  if (closedCount === 0) return { value: null, confidence: 0, basis: 'Unknown: no job of this company was ever seen.' };
  return {
    value: null,
    confidence: 0,
    basis: `Unknown: no open job, and none closed in the last ${CLOSED_RECENT_DAYS} days.`,
  };
}

export function hiringPulse(jobs: readonly CompanyJobFacts[], now: Date): HiringPulse {
  const then = now.getTime() - PULSE_DAYS * DAY_MS;
  const openNow = jobs.filter((j) => j.status === 'open').length;
  // a closing from `from` until `until` (null: still closed) covers the day of `then`
  const closedThen = (from: Date | null, until: Date | null) =>
    from !== null && from.getTime() <= then && (until === null || until.getTime() > then);
  const openThen = jobs.filter(
    (j) =>
      j.firstSeenAt.getTime() <= then &&
      !(j.status === 'closed' && closedThen(j.closedAt, null)) &&
      !(j.reopenedAt !== null && closedThen(j.reopenedFrom, j.reopenedAt)),
  ).length;
  const change = openNow - openThen;
  return { direction: change > 0 ? 'up' : change < 0 ? 'down' : 'flat', open_jobs_30d_change: change };
}

export function companyProfile(company: CompanyRef, jobs: readonly CompanyJobFacts[], now: Date): CompanyProfile {
  const open = jobs.filter((j) => j.status === 'open');
  const families = new Map<string, number>();
  for (const j of open) if (j.jobFamily) families.set(j.jobFamily, (families.get(j.jobFamily) ?? 0) + 1);
  const bySource = new Map<ProviderSlug, { open: number; lastSeen: number }>();
  for (const j of jobs) {
    const providers = new Set<ProviderSlug>();
    for (const s of j.sources) {
      const entry = bySource.get(s.provider) ?? { open: 0, lastSeen: 0 };
      entry.lastSeen = Math.max(entry.lastSeen, s.lastSeenAt.getTime());
      bySource.set(s.provider, entry);
      providers.add(s.provider);
    }
    if (j.status === 'open') for (const p of providers) bySource.get(p)!.open += 1;
  }
  return {
    company,
    open_jobs_count: open.length,
    is_hiring: isHiring(jobs, now),
    hiring_pulse: hiringPulse(jobs, now),
    top_job_families: [...families]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, TOP_FAMILIES)
      .map(([job_family, open_jobs]) => ({ job_family, open_jobs })),
    sources: PROVIDER_SLUGS.filter((p) => bySource.has(p)).map((provider) => ({
      provider,
      open_jobs: bySource.get(provider)!.open,
      last_seen_at: new Date(bySource.get(provider)!.lastSeen).toISOString(),
    })),
  };
}

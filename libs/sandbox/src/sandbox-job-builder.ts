import type { CompanyRef, Job, ProviderSlug, Source } from '@jobs/contracts';
import { DAY_MS, HOUR_MS, SANDBOX_AS_OF } from './sandbox-clock.js';
import type { SandboxOpening } from './sandbox-opening.js';

/** An opening at its employer, before it is numbered and built into a full Job. */
export interface SandboxListing {
  readonly company: CompanyRef;
  readonly opening: SandboxOpening;
}

const asOf = Date.parse(SANDBOX_AS_OF);

/** A partner's made-up host in the sandbox (`provider-a.example`): its slug, hyphenated. */
const partnerHost = (provider: ProviderSlug) => `${provider.replaceAll('_', '-')}.example`;

const iso = (ms: number) => new Date(ms).toISOString();
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** What each source contributed: the first sighting brings the core fields, later ones enrich. */
function contributedFields(opening: SandboxOpening, index: number): string[] {
  if (index === 0)
    return ['title', 'company', 'location', 'employment_type', ...(opening.sparse ? [] : ['description', 'apply_url'])];
  const extras = [['salary', 'seniority'], ['location.remote', 'job_family'], ['posted_at'], ['last_verified_at']];
  return extras[(index - 1) % extras.length] ?? ['title'];
}

/**
 * The full Job of the listing at `index` in the dataset: the index numbers the job and its
 * provider ids and staggers when it was last seen.
 */
export function buildSandboxJob({ company, opening }: SandboxListing, index: number): Job {
  const n = String(index + 1).padStart(2, '0');
  const firstSeen = asOf - opening.age * DAY_MS;
  // A closed job stopped being seen a while ago; an open one was seen in the last hours.
  const lastSeen = opening.closed ? firstSeen + Math.floor(opening.age / 2) * DAY_MS : asOf - (index % 5) * HOUR_MS;
  const applyHost = company.domain ? `careers.${company.domain}` : 'jobs.quiet-pines.example';
  const applyUrl = opening.sparse ? null : `https://${applyHost}/openings/${n}-${slugOf(opening.title)}`;
  const sources: Source[] = opening.via.map((provider, i) => ({
    provider,
    provider_job_id: `${provider.replace('_', '-')}-${1000 + index * 7 + i}`,
    url: provider === 'own_index' ? applyUrl : `https://${partnerHost(provider)}/jobs/${1000 + index * 7 + i}`,
    first_seen_at: iso(firstSeen + i * 3 * HOUR_MS),
    last_seen_at: iso(Math.max(firstSeen + i * 3 * HOUR_MS, lastSeen - i * HOUR_MS)),
    fields: contributedFields(opening, i),
  }));
  const [city, region, country_code, remote] = opening.place;
  const pay = opening.pay;
  return {
    id: `job_sandbox_${n}`,
    title: opening.title,
    company,
    location: { city, region, country_code, remote },
    employment_type: opening.type,
    seniority: opening.level,
    job_family: opening.family,
    salary: pay ? { min: pay[0], max: pay[1], currency: pay[2], period: pay[3], origin: pay[4] } : null,
    description: opening.sparse
      ? null
      : `${company.name} is hiring a ${opening.title}. This is fictional ` +
        `sandbox data: the company, the job and every link are ` +
        `illustrative.`,
    apply_url: applyUrl,
    posted_at: opening.sparse ? null : iso(firstSeen - 2 * DAY_MS),
    first_seen_at: iso(firstSeen),
    last_seen_at: iso(lastSeen),
    last_verified_at: opening.sparse ? null : iso(lastSeen - HOUR_MS),
    status: opening.closed ? 'closed' : 'open',
    closed_reason: opening.closed ?? null,
    repost_count: opening.reposts ?? 0,
    p_real: opening.pReal,
    sources,
    // Jobs from the own index may be resold; partner data is licensed for display only.
    license: { display: true, resale: opening.via.includes('own_index') },
  };
}

/**
 * The sandbox's fixed illustrative data: 40 canonical jobs at twelve FICTIONAL companies.
 * Every domain and URL uses the reserved `.example` top-level domain (RFC 2606), so no row can
 * ever name or link to a real company.
 *
 * The data is built once from a compact table so that it shows every feature of a full Job:
 * several sources per job (up to all seven providers), salaries in nine currencies and three
 * periods (declared and inferred, open-ended ranges), unknown values (`null`), remote and
 * on-site jobs, reposts, and two closed jobs. The sync sandbox's fixed page shows all 40;
 * a test key's filtered async search returns the closed ones only with `include_closed`.
 *
 * Sandbox time stands still at `SANDBOX_AS_OF` (sandbox-clock.ts). The employers are in
 * sandbox-employers.ts, their openings per region in sandbox-openings-*.ts, and the Job built
 * from an opening in sandbox-job-builder.ts.
 */
import { PROVIDER_SLUGS, type Job, type ProviderSlug } from '@jobs/contracts';
import { SANDBOX_COMPANIES, type SandboxCompanyKey } from './sandbox-employers.js';
import { buildSandboxJob, type SandboxListing } from './sandbox-job-builder.js';
import type { SandboxOpening } from './sandbox-opening.js';
import { AMERICAS_OPENINGS } from './sandbox-openings-americas.js';
import { ASIA_PACIFIC_OPENINGS } from './sandbox-openings-asia-pacific.js';
import { EUROPE_OPENINGS } from './sandbox-openings-europe.js';

export { SANDBOX_AS_OF } from './sandbox-clock.js';
export { SANDBOX_COMPANIES } from './sandbox-employers.js';

const OPENINGS_BY_COMPANY: Record<SandboxCompanyKey, readonly SandboxOpening[]> = {
  ...AMERICAS_OPENINGS,
  ...EUROPE_OPENINGS,
  ...ASIA_PACIFIC_OPENINGS,
};

// Employer by employer in the order of SANDBOX_COMPANIES: a listing's position numbers its job.
const LISTINGS: readonly SandboxListing[] = (Object.keys(SANDBOX_COMPANIES) as SandboxCompanyKey[]).flatMap((at) =>
  OPENINGS_BY_COMPANY[at].map((opening) => ({ company: SANDBOX_COMPANIES[at], opening })),
);

/** The 40 sandbox jobs, newest first sighting first. Frozen: callers never mutate them. */
export const SANDBOX_JOBS: readonly Job[] = Object.freeze(
  LISTINGS.map(buildSandboxJob).sort(
    (a, b) => b.first_seen_at.localeCompare(a.first_seen_at) || a.id.localeCompare(b.id),
  ),
);

/** Every provider appears in the sandbox data. */
export const SANDBOX_PROVIDERS: readonly ProviderSlug[] = PROVIDER_SLUGS;

/** One sandbox job by id (for `GET /jobs/{id}` with a test key); undefined when not in the sandbox. */
export function findSandboxJob(id: string): Job | undefined {
  return SANDBOX_JOBS.find((job) => job.id === id);
}

import { PARTNER_PROVIDER_SLUGS, type ProviderSlug } from '@jobs/contracts';

/** The seven sources, as named by the public interface (interface.md "Conventions"). */
export { PROVIDER_SLUGS, type ProviderSlug } from '@jobs/contracts';

export const PARTNER_SLUGS = PARTNER_PROVIDER_SLUGS;

export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract', 'internship', 'temporary'] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

export const SENIORITIES = ['intern', 'junior', 'mid', 'senior', 'lead', 'director', 'vp', 'c_level'] as const;
export type Seniority = (typeof SENIORITIES)[number];

export const SALARY_PERIODS = ['year', 'month', 'hour'] as const;
export type SalaryPeriod = (typeof SALARY_PERIODS)[number];

export const CLOSED_REASONS = ['filled', 'expired', 'removed'] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];

export const JOB_FAMILIES = [
  'engineering',
  'data',
  'design',
  'product',
  'sales',
  'marketing',
  'customer_support',
  'operations',
  'finance',
  'hr',
  'legal',
] as const;
export type JobFamily = (typeof JOB_FAMILIES)[number];

export interface Salary {
  min: number | null;
  max: number | null;
  currency: string;
  period: SalaryPeriod;
}

export interface Location {
  city: string | null;
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string | null;
  remote: boolean | null;
}

export interface Company {
  domain: string;
  name: string;
  /** ISO 3166-1 alpha-2 of the headquarters. */
  countryCode: string;
  industry: string;
  /** Legal form as written in registers ("Inc.", "GmbH"); partners add or drop it. */
  legalSuffix: string;
  /** True for companies added through the control API. */
  added: boolean;
}

/** The editable fields of an opening (what the admin API can set or patch). */
export interface JobFields {
  title: string;
  companyDomain: string;
  location: Location;
  employmentType: EmploymentType | null;
  seniority: Seniority | null;
  jobFamily: string | null;
  salary: Salary | null;
  description: string | null;
  applyUrl: string | null;
}

/** The truth about one opening at one instant, as the world (not a provider) knows it. */
export interface WorldJob extends JobFields {
  id: string;
  companyName: string;
  /** Epoch milliseconds. */
  postedAt: number;
  status: 'open' | 'closed';
  closedReason: ClosedReason | null;
  closedAt: number | null;
  repostCount: number;
  providers: ProviderSlug[];
  /** True for openings created through the control API. */
  added: boolean;
}

/** The search every provider supports, whatever its own parameter names. */
export interface SearchQuery {
  /** Any of these keywords; every word of a keyword must start a word of the title. */
  titleAny?: string[];
  /** ISO alpha-2. */
  countryCode?: string;
  /** Epoch milliseconds: posted at or after. */
  postedSince?: number;
  /**
   * Epoch milliseconds: first listed by this provider at or after (an aggregator's own "added"
   * date, which a posting the employer published days earlier can be much later than).
   */
  listedSince?: number;
  /** One company domain, or several as a comma-separated list (any of them). */
  companyDomain?: string;
  remote?: boolean;
  /**
   * Also list openings closed within the last 30 days (after the open ones), as closed, with
   * their reason. Only the own crawler offers it: it checks the employer's page, where a
   * closed opening says why. Openings closed through the control API (and those pinned by it).
   */
  includeClosed?: boolean;
  /**
   * Only the own crawler's change feed: the openings that opened, changed or closed at or after
   * this moment (epoch ms; closed ones as closed, with their reason), instead of its listing.
   */
  changedSince?: number;
}

/** One provider's listing of one opening, at the provider's (lagged) view time. */
export interface Listing {
  provider: ProviderSlug;
  providerJobId: string;
  job: WorldJob;
}

export interface GroundTruthEntry {
  provider: ProviderSlug;
  providerJobId: string;
  worldJobId: string;
}

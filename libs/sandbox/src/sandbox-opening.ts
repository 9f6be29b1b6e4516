import type {
  ClosedReason,
  EmploymentType,
  ProviderSlug,
  SalaryOrigin,
  SalaryPeriod,
  Seniority,
} from '@jobs/contracts';
import type { SandboxCompanyKey } from './sandbox-employers.js';

type Place = readonly [city: string | null, region: string | null, country: string | null, remote: boolean | null];
type Pay = readonly [
  min: number | null,
  max: number | null,
  currency: string,
  period: SalaryPeriod,
  origin: SalaryOrigin,
];

/** One opening of a sandbox employer, in the compact form the sandbox Job is built from. */
export interface SandboxOpening {
  readonly title: string;
  readonly place: Place;
  readonly type: EmploymentType | null;
  readonly level: Seniority | null;
  readonly family: string | null;
  readonly pay: Pay | null;
  /** the providers that saw the job, in the order they first saw it */
  readonly via: readonly ProviderSlug[];
  /** days between the first sighting and SANDBOX_AS_OF */
  readonly age: number;
  readonly closed?: ClosedReason;
  readonly reposts?: number;
  readonly pReal: number;
  /** true when no source reported the description / posting date / live check */
  readonly sparse?: boolean;
}

/** The openings of some sandbox employers (one region's), by employer. */
export type SandboxOpeningsByCompany = Partial<Record<SandboxCompanyKey, readonly SandboxOpening[]>>;

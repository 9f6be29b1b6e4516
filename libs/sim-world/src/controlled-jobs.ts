import { titleSearchText } from '@jobs/job-filters';
import { ADDED_SLOT_BASE, MAX_SLOTS, type Market } from './market.js';
import {
  PROVIDER_SLUGS,
  type ClosedReason,
  type EmploymentType,
  type JobFields,
  type Location,
  type ProviderSlug,
  type Salary,
  type Seniority,
  type WorldJob,
} from './types.js';
import type { WorldCompanies } from './world-companies.js';
import { WorldError } from './world-error.js';
import { quantize, quantizeSecond } from './listing-entries.js';

export interface NewJobInput {
  companyDomain: string;
  title: string;
  providers: ProviderSlug[];
  location?: Partial<Location> | null;
  employmentType?: EmploymentType | null;
  seniority?: Seniority | null;
  jobFamily?: string | null;
  salary?: Salary | null;
  description?: string | null;
  applyUrl?: string | null;
  /** Epoch milliseconds; default now. */
  postedAt?: number;
}

export type JobPatch = Partial<NewJobInput>;

/** An opening created through the control API, or an organic one "pinned" by a mutation. */
export interface AddedJob {
  id: string;
  slot: number;
  /** Period used in provider ids (0 for created openings). */
  period: number;
  fields: JobFields;
  titleNorm: string;
  providers: ProviderSlug[];
  status: 'open' | 'closed';
  closedReason: ClosedReason | null;
  closedAt: number | null;
  postedAt: number;
  repostCount: number;
  adminReposts: number;
  created: boolean;
  /** When a control call last changed it (epoch ms): the own crawler's change feed reports it from then. */
  changedAt: number;
  /** When its providers started listing its current listing (epoch ms): created, re-listed or given new providers. */
  listedAt: number;
}

/** The key of an organic opening (its slot and origin) in `ControlledJobs.pinned`. */
export const PIN_KEY = (slot: number, origin: number): number => slot * 65_536 + origin;

export interface ControlledJobsOptions {
  market: Market;
  companies: WorldCompanies;
  clock: () => number;
  /** Tells this process's created openings apart from an earlier process's (`WorldOptions.addedEpoch`). */
  addedEpoch: number;
  /** The truth about an opening now (an organic one is pinned from it). */
  truth: (id: string) => WorldJob | null;
  /** How late each source shows organic openings. */
  lagMs: Readonly<Record<ProviderSlug, number>>;
}

/**
 * The control API's mutations, layered over the seeded market in memory: openings it created,
 * and organic ones it changed (pinned: frozen into an added opening that mutations then own).
 * `version` moves on every change, so cached provider views know to rebuild.
 */
export class ControlledJobs {
  /** Every added or pinned opening by world id. */
  readonly byId = new Map<string, AddedJob>();
  /** Created openings by slot. */
  readonly bySlot = new Map<number, AddedJob>();
  /** Pinned organic openings by `PIN_KEY`. */
  readonly pinned = new Map<number, AddedJob>();
  version = 0;
  private nextSlot = ADDED_SLOT_BASE;

  constructor(private readonly options: ControlledJobsOptions) {}

  add(input: NewJobInput): AddedJob {
    if (this.nextSlot >= MAX_SLOTS) throw new WorldError('capacity', 'no room for more added openings');
    const slot = this.nextSlot++;
    const domain = this.options.companies.ensure(input.companyDomain);
    const fields: JobFields = {
      title: input.title,
      companyDomain: domain,
      location: { city: null, region: null, countryCode: null, remote: null, ...dropUndefined(input.location ?? {}) },
      employmentType: input.employmentType ?? null,
      seniority: input.seniority ?? null,
      jobFamily: input.jobFamily ?? null,
      salary: input.salary ?? null,
      description: input.description ?? null,
      applyUrl: input.applyUrl ?? null,
    };
    const job: AddedJob = {
      id: this.options.market.worldJobId(slot, 0),
      slot,
      // the listing key's period bits carry the epoch: ids differ from an earlier process's
      period: this.options.addedEpoch,
      fields,
      titleNorm: titleSearchText(fields.title),
      providers: uniqueProviders(input.providers),
      status: 'open',
      closedReason: null,
      closedAt: null,
      postedAt: input.postedAt ?? quantizeSecond(this.options.clock()),
      repostCount: 0,
      adminReposts: 0,
      created: true,
      changedAt: this.options.clock(),
      listedAt: this.options.clock(),
    };
    this.byId.set(job.id, job);
    this.bySlot.set(slot, job);
    this.version++;
    return job;
  }

  patch(id: string, patch: JobPatch): AddedJob {
    const job = this.pin(id);
    const f = job.fields;
    if (patch.companyDomain !== undefined) f.companyDomain = this.options.companies.ensure(patch.companyDomain);
    if (patch.title !== undefined) {
      f.title = patch.title;
      job.titleNorm = titleSearchText(patch.title);
    }
    if (patch.location !== undefined)
      f.location =
        patch.location === null
          ? { city: null, region: null, countryCode: null, remote: null }
          : { ...f.location, ...dropUndefined(patch.location) };
    if (patch.employmentType !== undefined) f.employmentType = patch.employmentType;
    if (patch.seniority !== undefined) f.seniority = patch.seniority;
    if (patch.jobFamily !== undefined) f.jobFamily = patch.jobFamily;
    if (patch.salary !== undefined) f.salary = patch.salary;
    if (patch.description !== undefined) f.description = patch.description;
    if (patch.applyUrl !== undefined) f.applyUrl = patch.applyUrl;
    if (patch.postedAt !== undefined) job.postedAt = patch.postedAt;
    if (patch.providers !== undefined) {
      const added = uniqueProviders(patch.providers).some((p) => !job.providers.includes(p));
      job.providers = uniqueProviders(patch.providers);
      // a provider that starts listing it lists it now (the others show the same listing again)
      if (added) job.listedAt = this.options.clock();
    }
    job.changedAt = this.options.clock();
    this.version++;
    return job;
  }

  close(id: string, reason: ClosedReason): AddedJob {
    const job = this.pin(id);
    job.closedAt = job.status === 'closed' ? job.closedAt : quantizeSecond(this.options.clock());
    job.status = 'closed';
    job.closedReason = reason;
    job.changedAt = this.options.clock();
    this.version++;
    return job;
  }

  /** Lists the opening again under new provider ids, as a re-listing (also when it is open). */
  repost(id: string): AddedJob {
    const job = this.pin(id);
    job.status = 'open';
    job.closedReason = null;
    job.closedAt = null;
    job.adminReposts++;
    job.repostCount++;
    job.postedAt = quantizeSecond(this.options.clock());
    job.changedAt = this.options.clock();
    job.listedAt = this.options.clock();
    this.version++;
    return job;
  }

  /** Freezes an organic opening's current truth into an added one that mutations then own. */
  private pin(id: string): AddedJob {
    const existing = this.byId.get(id);
    if (existing) return existing;
    const { market } = this.options;
    const truth = this.options.truth(id);
    const ref = market.parseWorldJobId(id);
    if (!truth || !ref) throw new WorldError('not_found', `no world job ${id}`, 'world_job_id');
    const t = quantize(this.options.clock());
    const k = market.periodIndex(ref.slot, t);
    const period = market.originOf(ref.slot, k) === ref.origin ? k : market.lastPeriodOf(ref.slot, ref.origin);
    const job: AddedJob = {
      id,
      slot: ref.slot,
      period,
      fields: {
        title: truth.title,
        companyDomain: truth.companyDomain,
        location: { ...truth.location },
        employmentType: truth.employmentType,
        seniority: truth.seniority,
        jobFamily: truth.jobFamily,
        salary: truth.salary ? { ...truth.salary } : null,
        description: truth.description,
        applyUrl: truth.applyUrl,
      },
      titleNorm: titleSearchText(truth.title),
      providers: truth.providers,
      status: truth.status,
      closedReason: truth.closedReason,
      closedAt: truth.closedAt,
      postedAt: truth.postedAt,
      repostCount: truth.repostCount,
      adminReposts: 0,
      created: false,
      changedAt: this.options.clock(),
      // pinned from the market: listed when its provider with the most lag showed it
      listedAt: truth.postedAt + Math.max(...truth.providers.map((p) => this.options.lagMs[p])),
    };
    this.byId.set(id, job);
    this.pinned.set(PIN_KEY(ref.slot, ref.origin), job);
    return job;
  }
}

function uniqueProviders(list: readonly ProviderSlug[]): ProviderSlug[] {
  return PROVIDER_SLUGS.filter((s) => list.includes(s));
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

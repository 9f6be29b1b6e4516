import { TIME_BUCKET_MS, type OpeningBase } from './market.js';
import { packListingKey } from './provider-ids.js';
import type { AddedJob } from './controlled-jobs.js';
import type { TitleIndex } from './title-index.js';

/** One listing of a provider's view, as much of it as searching needs (the job is materialized only for a page). */
export interface Entry {
  packed: number;
  postedAt: number;
  /** When the provider first listed it (its "listed since" filter): posted, plus its lag and any delay. */
  listedAt: number;
  titleNorm: string;
  countryCode: string | null;
  remote: boolean | null;
  domain: string;
  slot: number;
  period: number;
  origin: number;
  added: AddedJob | null;
  /** An organic opening listed as closed (the own crawler's change feed): when its period closed. */
  closedAt?: number;
}

/** A provider's listings at one view time, freshest first, cached while `key` holds. */
export interface Snapshot {
  at: number;
  key: string;
  entries: Entry[];
  byPacked?: Map<number, Entry>;
  /** Built on the first keyword search of the snapshot: see `TitleIndex`. */
  titles?: TitleIndex;
  /** Each recent query's matching entries, by the query's JSON: see `snapshotMatches`. */
  matches?: Map<string, Entry[]>;
}

/**
 * The listing entry of an organic opening (`base`, its slot and origin) in period `period`, posted
 * at `postedAt` and listed by the provider at `listedAt`.
 */
export function organicEntry(base: OpeningBase, period: number, postedAt: number, listedAt: number): Entry {
  return {
    packed: packListingKey(base.slot, period, 0),
    postedAt,
    listedAt,
    titleNorm: base.titleNorm,
    countryCode: base.fields.location.countryCode,
    remote: base.fields.location.remote,
    domain: base.fields.companyDomain,
    slot: base.slot,
    period,
    origin: base.origin,
    added: null,
  };
}

/** The listing entry of an opening the control API created or pinned. */
export function addedEntry(job: AddedJob): Entry {
  return {
    packed: packListingKey(job.slot, job.period, job.adminReposts),
    postedAt: job.postedAt,
    listedAt: job.listedAt,
    titleNorm: job.titleNorm,
    countryCode: job.fields.location.countryCode,
    remote: job.fields.location.remote,
    domain: job.fields.companyDomain,
    slot: job.slot,
    period: job.period,
    origin: 0,
    added: job,
  };
}

/** Freshest first, then by listing key: a stable, deterministic order. */
export function byFreshness(a: Entry, b: Entry): number {
  return b.postedAt - a.postedAt || a.packed - b.packed;
}

/** Two lists in `byFreshness` order as one. */
export function mergeSorted(a: Entry[], b: Entry[]): Entry[] {
  const out: Entry[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) out[n++] = byFreshness(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out;
}

/** The time bucket of `t`: views, snapshots and periods move in these steps. */
export function quantize(t: number): number {
  return Math.floor(t / TIME_BUCKET_MS) * TIME_BUCKET_MS;
}

export function quantizeSecond(t: number): number {
  return Math.floor(t / 1000) * 1000;
}

import { DAY_MS } from './market.js';
import { fnv1a, hash32, unit } from './prng.js';
import type { Entry } from './listing-entries.js';
import type { ProviderSlug, WorldJob } from './types.js';

/** Share of a partner's organic postings it lists late, and how late (uniform, days). */
export const LATE_LISTING_SHARE = 0.25;
export const LATE_LISTING_DAYS: readonly [number, number] = [1, 5];
/** Share of a partner's re-listings that leave out the salary and description the posting states. */
export const RELISTING_FIELD_DROP_SHARE = 0.3;
/** Share of a partner's listings whose apply URL carries its tracking parameters. */
export const TRACKED_URL_SHARE = 0.5;

const TAG = {
  late: fnv1a('late-listing'),
  drop: fnv1a('relisting-drop'),
  tracked: fnv1a('tracked-url'),
};

/**
 * How a messy market's partners show the organic openings (`WorldOptions.messy`), as real
 * aggregators do: a pure function of (seed, provider, slot, period), so every process agrees.
 * The own crawler reads employers' pages and shows none of it. (The openings themselves are
 * messier too: bare ones and one requisition in several cities, `generateOpening`.)
 */
export class Messiness {
  constructor(private readonly seed: number) {}

  /** How long after the employer posted it a partner first lists the posting of `slot`'s period `k` (ms). */
  listingDelay(slug: ProviderSlug, slot: number, k: number): number {
    if (slug === 'own_index') return 0;
    const provider = fnv1a(slug);
    if (unit(this.seed, TAG.late, provider, slot, k) >= LATE_LISTING_SHARE) return 0;
    const [from, to] = LATE_LISTING_DAYS;
    const days = from + (to - from) * unit(this.seed, TAG.late + 1, provider, slot, k);
    return Math.floor((days * DAY_MS) / 60_000) * 60_000;
  }

  /** The opening as a partner's listing shows it: fields left out on a re-listing, a tracked apply URL. */
  asListed(slug: ProviderSlug, entry: Entry, job: WorldJob): WorldJob {
    if (slug === 'own_index') return job;
    const provider = fnv1a(slug);
    let out = job;
    if (
      entry.period > entry.origin &&
      unit(this.seed, TAG.drop, provider, entry.slot, entry.period) < RELISTING_FIELD_DROP_SHARE
    )
      out = { ...out, salary: null, description: null };
    if (out.applyUrl && unit(this.seed, TAG.tracked, provider, entry.slot, entry.origin) < TRACKED_URL_SHARE) {
      const campaign = (hash32(this.seed, TAG.tracked, provider, entry.slot) % 9000) + 1000;
      const tracking = `utm_source=${slug}&utm_medium=jobfeed&utm_campaign=${campaign}`;
      out = { ...out, applyUrl: `${out.applyUrl}${out.applyUrl.includes('?') ? '&' : '?'}${tracking}` };
    }
    return out;
  }
}

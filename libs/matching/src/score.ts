import type { MatchFeatures } from './features.js';
import { postingUrlPattern } from './normalize.js';
import { resemblance } from './text-sketch.js';

/** A canonical job as the matcher sees it. */
export interface CandidateJob {
  id: string;
  /** Features of the job's merged fields. */
  features: MatchFeatures;
  /** Union of the blocking keys of every record merged into it (holds all its apply URLs and company spellings). */
  keys: ReadonlySet<string>;
  /** Providers that already list it. */
  providers: ReadonlySet<string>;
  /**
   * Providers whose listing of it is in the read being merged (both ids live at once). Absent:
   * every provider that lists it counts as read now, the cautious reading.
   */
  readNow?: ReadonlySet<string>;
  /** The job's re-listings so far (`repost_count`). */
  generation?: number;
  /** Per provider listing it, the job's `generation` when that listing was first seen (its newest). */
  listedGeneration?: ReadonlyMap<string, number>;
  /** Per provider that stopped listing it, the generation of its newest listing. */
  unlistedGeneration?: ReadonlyMap<string, number>;
  /** Closed jobs are candidates too: a new listing of one re-lists it. */
  closed?: boolean;
}

export interface RecordToMatch {
  provider: string;
  features: MatchFeatures;
  keys: readonly string[];
}

/**
 * Evidence weights, roughly log-odds that a record and a canonical job are one opening. Every
 * comparison only counts when both sides know the field; a missing field is no evidence.
 *
 * | evidence | weight |
 * |---|---|
 * | same canonical apply URL (host + path + non-tracking query) | +5 |
 * | both have apply URLs, none equal | −4 |
 * | both have company domains, different | veto |
 * | different country | veto |
 * | title tokens: equal / Jaccard ≥ 0.75 / ≥ 0.5 / below | +1.5 / +0.5 / −1 / −3 |
 * | city equal / different (one ad for several cities is several openings) | +1 / −5 |
 * | region different (city unknown on a side) | −1 |
 * | remote flag different (providers map hybrid to either) | −0.5 |
 * | employment type different | −2 |
 * | seniority two or more levels apart (exec levels are one bucket) | −2 |
 * | declared salaries (same currency and period) overlap / disjoint | +0.5 / −1.5 |
 * | full descriptions: containment ≥ 0.9 / ≥ 0.7 / ≥ 0.5 / below | +2 / +1 / −1 / −3 |
 * | snippet vs description: containment ≥ 0.9 / below 0.5 | +1 / −2 |
 * | posted times (second precision): ≤ 1 min / ≤ 1 day / ≤ 2 days / more apart | +2 / 0 / −1 / −3 |
 * | posted dates (a side has the day only): same day / next day / further | +1 / −0.5 / −3 |
 * | the provider already lists this job under another id (and the URL does not vouch) | −4 |
 *
 * A record joins the best-scoring candidate when it reaches `MATCH_THRESHOLD`; otherwise it
 * starts a new canonical job. Blocking guarantees every candidate shares the company (domain or
 * normalized name) and title, or the apply URL.
 */
export const WEIGHTS = {
  applyUrlSame: 5,
  applyUrlDifferent: -4,
  titleSame: 1.5,
  titleClose: 0.5,
  titleLoose: -1,
  titleDifferent: -3,
  citySame: 1,
  cityDifferent: -5,
  regionDifferent: -1,
  remoteDifferent: -0.5,
  employmentDifferent: -2,
  seniorityFar: -2,
  salaryOverlap: 0.5,
  salaryDisjoint: -1.5,
  descriptionSame: 2,
  descriptionClose: 1,
  descriptionLoose: -1,
  descriptionDifferent: -3,
  snippetContained: 1,
  snippetDifferent: -2,
  postedSameMinute: 2,
  postedTwoDays: -1,
  postedFar: -3,
  postedSameDay: 1,
  postedNextDay: -0.5,
  providerAlreadyListed: -4,
} as const;

export const MATCH_THRESHOLD = 2;

/**
 * A re-listing: the record is posted more than `RELIST_MIN_GAP_MS` after the job it resembles.
 * Leaving out what a re-listing changes by nature (the posting time, a new id at a provider
 * that listed it before, the URL of the board's new posting), the rest must be strong evidence:
 * same title, place and description at least (1.5 + 1 + 2 + 0.5 for an equal salary).
 */
export const RELIST_THRESHOLD = 5;
export const RELIST_MIN_GAP_MS = 86_400_000;

const SENIORITY_RANK: Readonly<Record<string, number>> = {
  intern: 0,
  junior: 1,
  mid: 2,
  senior: 3,
  lead: 4,
  director: 5,
  vp: 5,
  c_level: 5,
};
const DAY_MS = 86_400_000;

/**
 * Log-odds-like score that `record` is the opening `job` stands for; `-Infinity` when it cannot
 * be. Pass `explain` to receive each contribution by name (tests, debugging).
 */
export function scoreCandidate(record: RecordToMatch, job: CandidateJob, explain?: Record<string, number>): number {
  const a = record.features;
  const b = job.features;
  const add = (name: string, weight: number): number => {
    if (explain) explain[name] = weight;
    return weight;
  };
  if (a.domain && b.domain && a.domain !== b.domain) return add('domain', -Infinity);
  if (a.countryCode && b.countryCode && a.countryCode !== b.countryCode) return add('country', -Infinity);
  let score = 0;

  let urlVouches = false;
  if (a.applyUrl) {
    if (job.keys.has(`u:${a.applyUrl}`)) {
      urlVouches = true;
      score += add('applyUrl', WEIGHTS.applyUrlSame);
    } else if (b.applyUrl || hasUrlKey(job.keys)) {
      // another posting of the same board: a different listing, though perhaps the opening re-listed
      const name = sharesPostingPattern(a.applyUrl, job) ? 'postingUrl' : 'applyUrl';
      score += add(name, WEIGHTS.applyUrlDifferent);
    }
  }

  const title = a.titleKey === b.titleKey ? 1 : jaccard(a.titleTokens, b.titleTokens);
  score += add(
    'title',
    title === 1
      ? WEIGHTS.titleSame
      : title >= 0.75
        ? WEIGHTS.titleClose
        : title >= 0.5
          ? WEIGHTS.titleLoose
          : WEIGHTS.titleDifferent,
  );

  if (a.city && b.city) score += add('city', a.city === b.city ? WEIGHTS.citySame : WEIGHTS.cityDifferent);
  else if (a.region && b.region && a.region !== b.region) score += add('region', WEIGHTS.regionDifferent);
  if (a.remote !== null && b.remote !== null && a.remote !== b.remote) score += add('remote', WEIGHTS.remoteDifferent);
  if (a.employmentType && b.employmentType && a.employmentType !== b.employmentType)
    score += add('employmentType', WEIGHTS.employmentDifferent);
  if (a.seniority && b.seniority) {
    const ra = SENIORITY_RANK[a.seniority];
    const rb = SENIORITY_RANK[b.seniority];
    if (ra !== undefined && rb !== undefined && Math.abs(ra - rb) >= 2) score += add('seniority', WEIGHTS.seniorityFar);
  }

  if (a.salary && b.salary && a.salary.currency === b.salary.currency && a.salary.period === b.salary.period) {
    const lo = Math.max(a.salary.min ?? a.salary.max!, b.salary.min ?? b.salary.max!);
    const hi = Math.min(a.salary.max ?? a.salary.min!, b.salary.max ?? b.salary.min!);
    // bounds are rounded differently by providers ("$100K"): allow 5 % slack
    score += add('salary', lo <= hi * 1.05 ? WEIGHTS.salaryOverlap : WEIGHTS.salaryDisjoint);
  }

  if (a.description && b.description) {
    const { containment } = resemblance(a.description, b.description);
    if (a.description.truncated || b.description.truncated) {
      if (containment >= 0.9) score += add('description', WEIGHTS.snippetContained);
      else if (containment < 0.5) score += add('description', WEIGHTS.snippetDifferent);
    } else {
      score += add(
        'description',
        containment >= 0.9
          ? WEIGHTS.descriptionSame
          : containment >= 0.7
            ? WEIGHTS.descriptionClose
            : containment >= 0.5
              ? WEIGHTS.descriptionLoose
              : WEIGHTS.descriptionDifferent,
      );
    }
  }

  if (a.postedAt !== null && b.postedAt !== null) {
    if (a.postedDayOnly || b.postedDayOnly) {
      const days = Math.abs(Math.floor(a.postedAt / DAY_MS) - Math.floor(b.postedAt / DAY_MS));
      score += add(
        'posted',
        days === 0 ? WEIGHTS.postedSameDay : days === 1 ? WEIGHTS.postedNextDay : WEIGHTS.postedFar,
      );
    } else {
      const gap = Math.abs(a.postedAt - b.postedAt);
      if (gap <= 60_000) score += add('posted', WEIGHTS.postedSameMinute);
      else if (gap > 2 * DAY_MS) score += add('posted', WEIGHTS.postedFar);
      else if (gap > DAY_MS) score += add('posted', WEIGHTS.postedTwoDays);
    }
  }

  if (!urlVouches && listsInThisRead(job, record.provider)) score += add('provider', WEIGHTS.providerAlreadyListed);
  return score;
}

/** The provider lists the job under another id that the same read shows live: two listings at once. */
function listsInThisRead(job: CandidateJob, provider: string): boolean {
  return job.providers.has(provider) && (job.readNow?.has(provider) ?? true);
}

/**
 * Whether the provider of `record` listed the job and lists it no more: only then may a new
 * posting URL of the same board be its re-listing. While its earlier posting is still listed (in
 * this read or another part of the same sweep), a second posting of the board is a second opening.
 */
function earlierPostingGone(record: RecordToMatch, job: CandidateJob): boolean {
  return !job.providers.has(record.provider) && (job.unlistedGeneration?.has(record.provider) ?? false);
}

/** What a re-listing changes by nature, so never evidence against one (see `earlierPostingGone`). */
function changedByRelisting(name: string, record: RecordToMatch, job: CandidateJob): boolean {
  return name === 'posted' || (name === 'postingUrl' && earlierPostingGone(record, job));
}

/**
 * The record is the provider's new listing of an opening it lists or listed under another id,
 * which this read does not show: the same company and title, and no field that both state
 * disagrees. A provider re-listing an opening replaces its listing, whether or not the earlier one
 * is gone by now (the job closed with it); an employer's second opening that agrees with the first
 * on every stated field cannot be told from it, and is read as the same opening (docs/decisions/0021).
 */
function replacesOwnListing(record: RecordToMatch, job: CandidateJob, explain: Record<string, number>): boolean {
  const listedIt = job.providers.has(record.provider) || (job.unlistedGeneration?.has(record.provider) ?? false);
  if (!listedIt || listsInThisRead(job, record.provider)) return false;
  if (record.features.titleKey !== job.features.titleKey) return false;
  return Object.entries(explain).every(([name, weight]) => changedByRelisting(name, record, job) || weight >= 0);
}

export interface MatchDecision {
  /** The canonical job to join, or null to create one. */
  jobId: string | null;
  /** Best candidate's score (-Infinity without candidates). */
  score: number;
  /** The record re-lists the job (see `relists`). */
  relisted: boolean;
}

/** Whether a record of an opening is posted more than a day after the job's posting time. */
export function isRelisting(record: RecordToMatch, job: CandidateJob): boolean {
  const a = record.features;
  const b = job.features;
  if (a.postedAt === null || b.postedAt === null) return false;
  if (a.postedDayOnly || b.postedDayOnly) return Math.floor(a.postedAt / DAY_MS) - Math.floor(b.postedAt / DAY_MS) > 1;
  return a.postedAt - b.postedAt > RELIST_MIN_GAP_MS;
}

/**
 * Whether a new listing that joins `job` re-lists it (one more repost) rather than catching up
 * with it: the job is closed; or the provider's own newest listing of it belongs to the job's
 * current generation (the provider shows it anew); or it is posted more than a day after the
 * job. A provider whose newest listing predates the job's last re-listing shows that re-listing
 * late: it joins it. Otherwise two live listings in one read are one provider listing it twice.
 */
export function relists(record: RecordToMatch, job: CandidateJob): boolean {
  if (job.closed || isRelisting(record, job)) return true;
  const provider = record.provider;
  if (listsInThisRead(job, provider)) return false;
  const generation = job.generation ?? 0;
  const own = job.listedGeneration?.get(provider) ?? job.unlistedGeneration?.get(provider);
  if (own !== undefined) return own >= generation;
  // without generations recorded, a provider that listed the job shows it anew
  return job.listedGeneration === undefined && job.providers.has(provider);
}

/**
 * The best candidate that reaches the threshold or that the record's provider lists under an
 * older id this read does not show (`replacesOwnListing`); ties go to the first (oldest)
 * candidate. When none qualifies, the best candidate posted more than a day earlier whose score
 * without the posting time and the provider's earlier listing reaches `RELIST_THRESHOLD` (the
 * opening was listed again).
 */
export function decide(record: RecordToMatch, candidates: Iterable<CandidateJob>): MatchDecision {
  let bestScore = -Infinity;
  let chosen: CandidateJob | null = null;
  let chosenScore = -Infinity;
  let relist: CandidateJob | null = null;
  let relistScore = -Infinity;
  for (const job of candidates) {
    const explain: Record<string, number> = {};
    const s = scoreCandidate(record, job, explain);
    if (s > bestScore) bestScore = s;
    if (s > chosenScore && (s >= MATCH_THRESHOLD || (s > -Infinity && replacesOwnListing(record, job, explain)))) {
      chosen = job;
      chosenScore = s;
    }
    if (s < MATCH_THRESHOLD && s > -Infinity && isRelisting(record, job)) {
      const postingUrl = earlierPostingGone(record, job) ? (explain['postingUrl'] ?? 0) : 0;
      const withoutRelisting = s - (explain['posted'] ?? 0) - postingUrl - (explain['provider'] ?? 0);
      if (withoutRelisting >= RELIST_THRESHOLD && withoutRelisting > relistScore) {
        relist = job;
        relistScore = withoutRelisting;
      }
    }
  }
  if (chosen) return { jobId: chosen.id, score: chosenScore, relisted: relists(record, chosen) };
  if (relist) return { jobId: relist.id, score: bestScore, relisted: true };
  return { jobId: null, score: bestScore, relisted: false };
}

/** Whether the job holds another posting URL of the board `applyUrl` is a posting of. */
function sharesPostingPattern(applyUrl: string, job: CandidateJob): boolean {
  const pattern = postingUrlPattern(applyUrl);
  if (pattern === null) return false;
  if (job.features.applyUrl && postingUrlPattern(job.features.applyUrl) === pattern) return true;
  for (const k of job.keys) if (k.startsWith('u:') && postingUrlPattern(k.slice(2)) === pattern) return true;
  return false;
}

function hasUrlKey(keys: ReadonlySet<string>): boolean {
  for (const k of keys) if (k.startsWith('u:')) return true;
  return false;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const t of a) if (b.has(t)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 1 : both / union;
}

import { z } from 'zod';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { toCountryCode } from '../normalize/country.js';
import { EMPLOYMENT_WORDS, fromVocab, lossyFields, toUrl } from '../normalize/fields.js';
import { validRecord } from '../paging.js';
import { parseLocationText, remoteFromText } from './board-location.js';
import { declaredSalary, type StatedPeriod } from './board-salary.js';
import {
  boardDate,
  BoardFormatError,
  boardHtmlToText,
  boardJobId,
  companyOf,
  readBoardItems,
  type BoardContext,
  type BoardFormat,
  type BoardJobs,
} from './board-format.js';

/**
 * Lever Postings API, `GET /v0/postings/{site}?mode=json`: a JSON array of postings (github.com/lever/postings-api).
 * Each: `id`, `text` (title), `categories` (`location`, `commitment`, `team`, `department`, `allLocations`),
 * `country` (ISO 3166-1 alpha-2 or null), `workplaceType` (`on-site`, `remote`, `hybrid`, `unspecified`),
 * `salaryRange` (`currency`, `interval`, `min`, `max`), `createdAt` (epoch ms), `hostedUrl`, `applyUrl`,
 * `descriptionPlain` / `description`, `lists[]`, `additionalPlain`.
 */
const LeverPosting = z.object({
  id: z.string().min(1),
  text: z.string().trim().min(1),
  categories: z
    .object({
      location: z.string().nullish(),
      commitment: z.string().nullish(),
      allLocations: z.array(z.string()).nullish(),
    })
    .nullish(),
  country: z.string().nullish(),
  workplaceType: z.string().nullish(),
  salaryRange: z
    .object({
      currency: z.string().nullish(),
      interval: z.string().nullish(),
      min: z.number().nullish(),
      max: z.number().nullish(),
    })
    .nullish(),
  createdAt: z.number().nullish(),
  hostedUrl: z.string().nullish(),
  applyUrl: z.string().nullish(),
  descriptionPlain: z.string().nullish(),
  description: z.string().nullish(),
  lists: z.array(z.object({ text: z.string().nullish(), content: z.string().nullish() })).nullish(),
  additionalPlain: z.string().nullish(),
});

/** Lever's `salaryRange.interval` values. */
const LEVER_INTERVALS: Readonly<Record<string, StatedPeriod>> = {
  'per-year-salary': 'year',
  'per-month-salary': 'month',
  'per-week-salary': 'week',
  'per-day-wage': 'day',
  'per-hour-wage': 'hour',
};

/** Lever commitments are the employer's own words; the common ones. */
const LEVER_COMMITMENTS = {
  ...EMPLOYMENT_WORDS,
  fulltime: 'full_time',
  'full time employee': 'full_time',
  permanent: 'full_time',
  parttime: 'part_time',
  contractor: 'contract',
  freelance: 'contract',
  intern: 'internship',
  temp: 'temporary',
  'fixed term': 'temporary',
} as const;

export const LEVER_BOARD: BoardFormat = {
  url(baseUrl, board) {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v0/postings/${encodeURIComponent(board)}`);
    url.searchParams.set('mode', 'json');
    return url;
  },
  parse(body, context): BoardJobs {
    if (!Array.isArray(body)) throw new BoardFormatError('lever: the answer is not a list of postings');
    return readBoardItems(body, context, (raw) => {
      const posting = LeverPosting.safeParse(raw);
      return posting.success ? mapLeverPosting(posting.data, context) : null;
    });
  },
};

function mapLeverPosting(p: z.infer<typeof LeverPosting>, context: BoardContext): NormalizedProviderRecord | null {
  const place = parseLocationText(p.categories?.location ?? p.categories?.allLocations?.[0]);
  const workplace = (p.workplaceType ?? '').toLowerCase();
  const remote =
    workplace === 'remote'
      ? true
      : workplace === 'on-site' || workplace === 'onsite' || workplace === 'hybrid'
        ? false
        : (place.remote ?? remoteFromText(p.categories?.location));
  const stated = p.salaryRange
    ? declaredSalary({
        min: p.salaryRange.min,
        max: p.salaryRange.max,
        currency: p.salaryRange.currency,
        period: LEVER_INTERVALS[p.salaryRange.interval ?? ''] ?? null,
      })
    : null;
  const applyUrl = toUrl(p.applyUrl) ?? toUrl(p.hostedUrl);
  return validRecord({
    provider: 'own_index',
    provider_job_id: boardJobId(context, p.id),
    url: toUrl(p.hostedUrl) ?? applyUrl,
    title: p.text,
    company: companyOf(context),
    location: { ...place, country_code: toCountryCode(p.country) ?? place.country_code, remote },
    employment_type: fromVocab(LEVER_COMMITMENTS, p.categories?.commitment),
    seniority: null,
    job_family: null,
    salary: stated?.salary ?? null,
    description: leverDescription(p),
    apply_url: applyUrl,
    posted_at: boardDate(p.createdAt),
    seen_at: context.seenAt,
    ...lossyFields({ salary: stated?.converted }),
  });
}

/** The posting's whole text: its description, its lists (requirements, benefits) under their names, its closing. */
function leverDescription(p: z.infer<typeof LeverPosting>): string | null {
  const parts = [p.descriptionPlain?.trim() || boardHtmlToText(p.description)];
  for (const list of p.lists ?? []) {
    const items = boardHtmlToText(list.content);
    if (items) parts.push(list.text ? `${list.text}\n${items}` : items);
  }
  parts.push(p.additionalPlain?.trim() || null);
  const text = parts.filter((s): s is string => !!s).join('\n\n');
  return text === '' ? null : text;
}

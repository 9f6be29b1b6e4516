import { z } from 'zod';
import type { EmploymentType, NormalizedProviderRecord } from '@jobs/contracts';
import { toCountryCode } from '../normalize/country.js';
import { lossyFields, toUrl } from '../normalize/fields.js';
import { validRecord } from '../paging.js';
import { parseLocationText } from './board-location.js';
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
 * Ashby public job posting API, `GET /posting-api/job-board/{board}?includeCompensation=true`:
 * `{apiVersion, jobs: [...]}` (developers.ashbyhq.com/docs/public-job-posting-api). Each job: `id`,
 * `title`, `location` (text), `secondaryLocations[]`, `address.postalAddress` (`addressLocality`,
 * `addressRegion`, `addressCountry`), `isRemote`, `workplaceType` (`OnSite`, `Remote`, `Hybrid`),
 * `employmentType` (`FullTime`, `PartTime`, `Intern`, `Contract`, `Temporary`), `publishedAt`,
 * `isListed`, `jobUrl`, `applyUrl`, `descriptionPlain`, `descriptionHtml`, and with compensation
 * `compensation.summaryComponents[]` / `compensationTiers[].components[]` (`compensationType`,
 * `interval` such as `1 YEAR`, `currencyCode`, `minValue`, `maxValue`).
 */
const PostalAddress = z.object({
  addressLocality: z.string().nullish(),
  addressRegion: z.string().nullish(),
  addressCountry: z.string().nullish(),
});
const CompensationComponent = z.object({
  compensationType: z.string().nullish(),
  interval: z.string().nullish(),
  currencyCode: z.string().nullish(),
  minValue: z.number().nullish(),
  maxValue: z.number().nullish(),
});
const AshbyJob = z.object({
  id: z.string().min(1),
  title: z.string().trim().min(1),
  location: z.string().nullish(),
  address: z.object({ postalAddress: PostalAddress.nullish() }).nullish(),
  isRemote: z.boolean().nullish(),
  workplaceType: z.string().nullish(),
  employmentType: z.string().nullish(),
  publishedAt: z.string().nullish(),
  isListed: z.boolean().nullish(),
  jobUrl: z.string().nullish(),
  applyUrl: z.string().nullish(),
  descriptionPlain: z.string().nullish(),
  descriptionHtml: z.string().nullish(),
  compensation: z
    .object({
      summaryComponents: z.array(CompensationComponent).nullish(),
      compensationTiers: z.array(z.object({ components: z.array(CompensationComponent).nullish() })).nullish(),
    })
    .nullish(),
});
const AshbyBoard = z.object({ jobs: z.array(z.unknown()) });

const ASHBY_EMPLOYMENT: Readonly<Record<string, EmploymentType>> = {
  FullTime: 'full_time',
  PartTime: 'part_time',
  Intern: 'internship',
  Contract: 'contract',
  Temporary: 'temporary',
};

const ASHBY_INTERVALS: Readonly<Record<string, StatedPeriod>> = {
  '1 YEAR': 'year',
  '1 MONTH': 'month',
  '1 WEEK': 'week',
  '1 DAY': 'day',
  '1 HOUR': 'hour',
};

export const ASHBY_BOARD: BoardFormat = {
  url(baseUrl, board) {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/posting-api/job-board/${encodeURIComponent(board)}`);
    url.searchParams.set('includeCompensation', 'true');
    return url;
  },
  parse(body, context): BoardJobs {
    const board = AshbyBoard.safeParse(body);
    if (!board.success) throw new BoardFormatError('ashby: the answer has no jobs list');
    return readBoardItems(board.data.jobs, context, (raw) => {
      // an unlisted posting is reachable by link only: not an opening the board shows
      if ((raw as { isListed?: unknown } | null)?.isListed === false) return 'not_listed';
      const job = AshbyJob.safeParse(raw);
      return job.success ? mapAshbyJob(job.data, context) : null;
    });
  },
};

function mapAshbyJob(job: z.infer<typeof AshbyJob>, context: BoardContext): NormalizedProviderRecord | null {
  const postal = job.address?.postalAddress;
  const fromText = parseLocationText(job.location);
  const workplace = job.workplaceType ?? null;
  const remote =
    workplace === 'Remote' ? true : workplace === 'OnSite' || workplace === 'Hybrid' ? false : (job.isRemote ?? null);
  const location = postal
    ? {
        city: postal.addressLocality?.trim() || fromText.city,
        region: postal.addressRegion?.trim() || fromText.region,
        country_code: toCountryCode(postal.addressCountry) ?? fromText.country_code,
        remote,
      }
    : { ...fromText, remote: remote ?? fromText.remote };
  const stated = ashbySalary(job);
  const applyUrl = toUrl(job.applyUrl) ?? toUrl(job.jobUrl);
  return validRecord({
    provider: 'own_index',
    provider_job_id: boardJobId(context, job.id),
    url: toUrl(job.jobUrl) ?? applyUrl,
    title: job.title,
    company: companyOf(context),
    location,
    employment_type: ASHBY_EMPLOYMENT[job.employmentType ?? ''] ?? null,
    seniority: null,
    job_family: null,
    salary: stated?.salary ?? null,
    description: job.descriptionPlain?.trim() || boardHtmlToText(job.descriptionHtml),
    apply_url: applyUrl,
    posted_at: boardDate(job.publishedAt),
    seen_at: context.seenAt,
    ...lossyFields({ salary: stated?.converted }),
  });
}

/**
 * The salary component of the job's summary (its range over every tier), else of its first tier
 * that states one; equity, bonus and commission components are not salary.
 */
function ashbySalary(job: z.infer<typeof AshbyJob>) {
  const components = [
    ...(job.compensation?.summaryComponents ?? []),
    ...(job.compensation?.compensationTiers ?? []).flatMap((t) => t.components ?? []),
  ];
  const salary = components.find((c) => c.compensationType === 'Salary');
  if (!salary) return null;
  return declaredSalary({
    min: salary.minValue,
    max: salary.maxValue,
    currency: salary.currencyCode,
    period: ASHBY_INTERVALS[salary.interval ?? ''] ?? null,
  });
}

import type { EmploymentType, Listing, SalaryPeriod } from '../types.js';
import { descriptionHtml, uuidOf, type BoardPage } from './board-common.js';

const COMMITMENTS: Readonly<Record<EmploymentType, string>> = {
  full_time: 'Full-time',
  part_time: 'Part-time',
  contract: 'Contract',
  internship: 'Internship',
  temporary: 'Temporary',
};

const INTERVALS: Readonly<Record<SalaryPeriod, string>> = {
  year: 'per-year-salary',
  month: 'per-month-salary',
  hour: 'per-hour-wage',
};

/**
 * A Lever Postings API answer, `GET /v0/postings/{site}?mode=json`: an array of postings with a
 * UUID id, `text`, `categories` (`location`, `commitment`, `team`), ISO `country`, `workplaceType`,
 * `salaryRange`, `createdAt` in ms, `hostedUrl`, `applyUrl`, `descriptionPlain` and `description`.
 */
export function leverBoard(page: BoardPage): unknown {
  return page.listings.map((l) => leverPosting(l, page));
}

function leverPosting({ providerJobId, job }: Listing, page: BoardPage): Record<string, unknown> {
  const id = uuidOf(providerJobId);
  const hostedUrl = `https://jobs.lever.co/${page.board.board}/${id}`;
  const { city, region, countryCode, remote } = job.location;
  const location = [city, region].filter((p): p is string => !!p).join(', ') || (remote ? 'Remote' : null);
  return {
    additionalPlain: '',
    additional: '',
    categories: {
      commitment: job.employmentType ? COMMITMENTS[job.employmentType] : undefined,
      department: job.jobFamily ?? undefined,
      location: location ?? undefined,
      team: job.jobFamily ?? undefined,
      allLocations: location ? [location] : [],
    },
    country: countryCode,
    createdAt: job.postedAt,
    descriptionPlain: job.description ?? '',
    description: descriptionHtml(job.description) ?? '',
    id,
    lists: [],
    text: job.title,
    hostedUrl,
    applyUrl: job.applyUrl ?? `${hostedUrl}/apply`,
    workplaceType: remote === true ? 'remote' : remote === false ? 'on-site' : 'unspecified',
    ...(job.salary
      ? {
          salaryRange: {
            currency: job.salary.currency,
            interval: INTERVALS[job.salary.period],
            min: job.salary.min ?? job.salary.max,
            max: job.salary.max ?? job.salary.min,
          },
        }
      : {}),
  };
}

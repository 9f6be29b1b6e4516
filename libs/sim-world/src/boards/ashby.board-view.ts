import type { EmploymentType, Listing, SalaryPeriod } from '../types.js';
import { countryName, descriptionHtml, iso, uuidOf, type BoardPage } from './board-common.js';

const EMPLOYMENT: Readonly<Record<EmploymentType, string>> = {
  full_time: 'FullTime',
  part_time: 'PartTime',
  contract: 'Contract',
  internship: 'Intern',
  temporary: 'Temporary',
};

const INTERVALS: Readonly<Record<SalaryPeriod, string>> = { year: '1 YEAR', month: '1 MONTH', hour: '1 HOUR' };

/**
 * An Ashby public job posting API answer, `GET /posting-api/job-board/{board}?includeCompensation=true`:
 * `{apiVersion, jobs}`, each with a UUID id, `location` text, `address.postalAddress`, `isRemote`,
 * `workplaceType`, `employmentType`, `publishedAt`, `jobUrl`, `applyUrl`, descriptions and `compensation`.
 */
export function ashbyBoard(page: BoardPage): unknown {
  return { apiVersion: '1', jobs: page.listings.map((l) => ashbyJob(l, page)) };
}

function ashbyJob({ providerJobId, job }: Listing, page: BoardPage): Record<string, unknown> {
  const id = uuidOf(providerJobId);
  const jobUrl = `https://jobs.ashbyhq.com/${page.board.board}/${id}`;
  const { city, region, countryCode, remote } = job.location;
  const country = countryName(countryCode);
  const salary = job.salary
    ? {
        compensationType: 'Salary',
        interval: INTERVALS[job.salary.period],
        currencyCode: job.salary.currency,
        minValue: job.salary.min,
        maxValue: job.salary.max,
      }
    : null;
  return {
    id,
    title: job.title,
    department: job.jobFamily,
    team: job.jobFamily,
    employmentType: job.employmentType ? EMPLOYMENT[job.employmentType] : null,
    location: city ?? country ?? (remote ? 'Remote' : ''),
    secondaryLocations: [],
    publishedAt: iso(job.postedAt),
    isListed: true,
    isRemote: remote === true,
    workplaceType: remote === true ? 'Remote' : remote === false ? 'OnSite' : null,
    address:
      city || country
        ? { postalAddress: { addressLocality: city, addressRegion: region, addressCountry: country } }
        : null,
    jobUrl,
    applyUrl: job.applyUrl ?? `${jobUrl}/application`,
    descriptionHtml: descriptionHtml(job.description) ?? '',
    descriptionPlain: job.description ?? '',
    shouldDisplayCompensationOnJobPostings: salary !== null,
    compensation: salary
      ? {
          compensationTiers: [{ id: `${id}-tier`, title: null, components: [{ id: `${id}-salary`, ...salary }] }],
          summaryComponents: [salary],
        }
      : { compensationTiers: [], summaryComponents: [] },
  };
}

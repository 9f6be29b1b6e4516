import { z } from 'zod';
import { toUrl } from '../normalize/fields.js';
import { validRecord } from '../paging.js';
import { namesWorldRegion, parseLocationText } from './board-location.js';
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
 * Greenhouse Job Board API, `GET /v1/boards/{board}/jobs?content=true`: `{jobs: [...], meta: {total}}`.
 * Each job: `id`, `title`, `location.name` (free text), `offices[]` (`name`, `location`),
 * `absolute_url`, `first_published`, `updated_at`, `content` (entity-escaped HTML), `departments[]`.
 * No employment type or structured pay on the public board. `updated_at` is not read: an edit is
 * no posting, and a job stored with an older posting date would read as re-listed at the edit.
 */
const GreenhouseJob = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  title: z.string().trim().min(1),
  location: z.object({ name: z.string().nullish() }).nullish(),
  offices: z.array(z.object({ name: z.string().nullish(), location: z.string().nullish() })).nullish(),
  absolute_url: z.string().nullish(),
  first_published: z.string().nullish(),
  content: z.string().nullish(),
});
const GreenhouseBoard = z.object({ jobs: z.array(z.unknown()) });

export const GREENHOUSE_BOARD: BoardFormat = {
  url(baseUrl, board) {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v1/boards/${encodeURIComponent(board)}/jobs`);
    url.searchParams.set('content', 'true');
    return url;
  },
  parse(body, context): BoardJobs {
    const board = GreenhouseBoard.safeParse(body);
    if (!board.success) throw new BoardFormatError('greenhouse: the answer has no jobs list');
    return readBoardItems(board.data.jobs, context, (raw) => {
      const job = GreenhouseJob.safeParse(raw);
      return job.success ? mapGreenhouseJob(job.data, context) : null;
    });
  },
};

function mapGreenhouseJob(job: z.infer<typeof GreenhouseJob>, context: BoardContext) {
  const text = job.location?.name ?? null;
  let location = parseLocationText(text);
  // "Remote" alone, or a name the parser cannot place: the first office with a location says where;
  // not for a job in a part of the world ("Remote - EMEA"), which no one office places
  const office = job.offices?.find((o) => o.location || o.name);
  if (location.country_code === null && office && !namesWorldRegion(text)) {
    const fromOffice = parseLocationText(office.location ?? office.name);
    location = { ...fromOffice, remote: location.remote ?? fromOffice.remote };
  }
  const applyUrl = toUrl(job.absolute_url);
  return validRecord({
    provider: 'own_index',
    provider_job_id: boardJobId(context, job.id),
    url: applyUrl,
    title: job.title,
    company: companyOf(context),
    location,
    employment_type: null,
    seniority: null,
    job_family: null,
    salary: null,
    description: boardHtmlToText(job.content),
    apply_url: applyUrl,
    posted_at: boardDate(job.first_published),
    seen_at: context.seenAt,
  });
}

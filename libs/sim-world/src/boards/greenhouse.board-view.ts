import type { Listing } from '../types.js';
import { descriptionHtml, escapeHtml, iso, numericIdOf, placeText, type BoardPage } from './board-common.js';

/**
 * A Greenhouse Job Board API answer, `GET /v1/boards/{board}/jobs?content=true`: `{jobs, meta}`, each
 * job with an integer id, free-text `location.name`, `offices`, entity-escaped HTML `content`,
 * `first_published` and `updated_at`. The public board states neither pay nor employment type.
 */
export function greenhouseBoard(page: BoardPage): unknown {
  return { jobs: page.listings.map((l) => greenhouseJob(l, page)), meta: { total: page.listings.length } };
}

function greenhouseJob({ providerJobId, job }: Listing, page: BoardPage): Record<string, unknown> {
  const id = numericIdOf(providerJobId);
  const place = placeText(job);
  const html = descriptionHtml(job.description);
  return {
    absolute_url: job.applyUrl ?? `https://boards.greenhouse.io/${page.board.board}/jobs/${id}`,
    data_compliance: [{ type: 'gdpr', requires_consent: false, retention_period: null }],
    internal_job_id: id - 1_000_000_000,
    location: { name: place ?? '' },
    metadata: null,
    id,
    updated_at: iso(job.postedAt),
    requisition_id: null,
    title: job.title,
    company_name: page.companyName,
    first_published: iso(job.postedAt),
    language: 'en',
    // Greenhouse escapes the HTML once more: `&lt;p&gt;…`
    content: html === null ? '' : escapeHtml(html),
    departments: job.jobFamily ? [{ id: 1, name: job.jobFamily, child_ids: [], parent_id: null }] : [],
    offices: job.location.city
      ? [{ id: 1, name: job.location.city, location: place, child_ids: [], parent_id: null }]
      : [],
  };
}

import type { Job } from '../api.js';
import { JobRow, JOB_COLUMNS } from '../job-row.js';
import { PagedList, useCursorPages } from '../paging.js';
import { Table } from '../table.js';

/** Jobs per page of a search's results (GET /v1/searches/{id} reads up to 100). */
const PAGE_SIZE = 25;

/** The jobs an async search collected, a page at a time; reading them is free. */
export function AsyncSearchJobs({ searchId }: { searchId: string }) {
  const jobs = useCursorPages<Job>(`/searches/${encodeURIComponent(searchId)}?limit=${PAGE_SIZE}`);
  return (
    <section aria-labelledby="search-jobs-title" data-testid="search-jobs">
      <h3 id="search-jobs-title">
        Jobs of <code>{searchId}</code>
      </h3>
      <PagedList
        pages={jobs}
        what="the jobs of this search"
        empty="This search collected no jobs."
        pager={`Job pages of ${searchId}`}
      >
        {(rows) => (
          <Table region={`Jobs of ${searchId}`} columns={JOB_COLUMNS}>
            {rows.map((job) => (
              <JobRow key={job.id} job={job} />
            ))}
          </Table>
        )}
      </PagedList>
    </section>
  );
}

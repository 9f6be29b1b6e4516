import { useState } from 'preact/hooks';
import type { AsyncSearchView } from '../api.js';
import { formatNumber } from '../format.js';
import { PagedList, useCursorPages } from '../paging.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { MessageLine, useMessages } from '../ui.js';
import { AsyncSearchJobs } from './async-search-jobs.js';
import { AsyncSearchStartForm } from './async-search-start.js';

/** An async search's jobs can be read once it has finished collecting them. */
const hasResults = (search: AsyncSearchView) => search.status === 'completed' || search.status === 'partial';

const cost = (search: AsyncSearchView) =>
  `${formatNumber(search.credits_charged)} ${search.credits_charged === 1 ? 'credit' : 'credits'}` +
  (search.max_credits === null ? '' : ` of ${formatNumber(search.max_credits)}`);

export function AsyncSearchesPage() {
  const searches = useCursorPages<AsyncSearchView>('/searches');
  const messages = useMessages();
  const [shown, setShown] = useState<string | null>(null);
  return (
    <section aria-labelledby="page-title">
      <p>
        An async search collects up to 10,000 jobs in the background (<code>POST /v1/searches</code>). Each new unique
        job costs a credit as it is collected, never more than the budget; reading the jobs afterwards is free.
      </p>
      <h2>New async search</h2>
      <AsyncSearchStartForm
        messages={messages}
        started={(search) => {
          messages.succeed(`Async search ${search.id} started (${search.status}).`);
          searches.toFirstPage();
          searches.reload();
        }}
      />
      <MessageLine messages={messages} />
      <h2>Your async searches</h2>
      <p>
        <button
          type="button"
          class="outline secondary"
          onClick={() => {
            messages.begin();
            searches.reload();
          }}
        >
          Refresh
        </button>
      </p>
      <PagedList pages={searches} what="async searches" empty="No async searches yet." pager="Async search pages">
        {(rows) => (
          <Table
            region="Async searches"
            testId="searches"
            caption="Newest first. Cost: credits charged so far, of the budget."
            columns={['Search', 'Status', 'Jobs found', 'Cost', 'Started', 'Finished', { muted: 'Jobs' }]}
          >
            {rows.map((search) => (
              <Row
                key={search.id}
                data-search-id={search.id}
                cells={[
                  <code>{search.id}</code>,
                  <span class={`search-${search.status}`}>{search.status.replace('_', ' ')}</span>,
                  `${formatNumber(search.jobs_found)} of ${formatNumber(search.limit)}`,
                  cost(search),
                  <Time iso={search.created_at} />,
                  <Time iso={search.completed_at} />,
                  hasResults(search) ? (
                    <button
                      type="button"
                      class="secondary"
                      aria-pressed={shown === search.id ? 'true' : 'false'}
                      aria-label={`Show the jobs of ${search.id}`}
                      onClick={() => setShown(shown === search.id ? null : search.id)}
                    >
                      Jobs
                    </button>
                  ) : (
                    <span class="muted">once finished</span>
                  ),
                ]}
              />
            ))}
          </Table>
        )}
      </PagedList>
      {shown && <AsyncSearchJobs key={shown} searchId={shown} />}
    </section>
  );
}

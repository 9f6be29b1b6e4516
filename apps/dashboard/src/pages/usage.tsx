import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { get, type Account, type DailyUsage, type LedgerEntry, type LedgerRequest } from '../api.js';
import { formatNumber } from '../format.js';
import { PagedList, useCursorPages } from '../paging.js';
import { FullRow, Row, Table } from '../table.js';
import { Time } from '../time.js';
import { ErrorNote, Loaded, useLoad } from '../ui.js';
import { UsageChart } from './usage-chart.js';

const JOB_ID = /^job_[A-Za-z0-9_-]+$/;
const reasonWords = (line: LedgerEntry) => (line.reason === 'already_paid' ? 'already paid (free)' : 'charged');
const total = (days: readonly DailyUsage[]) => days.reduce((sum, day) => sum + day.credits, 0);
const LEDGER_PAGES = 'Ledger pages';

export function UsagePage() {
  const [account] = useLoad(() => get<Account>('/account'));
  const [daily] = useLoad(() => get<{ data: DailyUsage[] }>('/usage/daily'));
  return (
    <section aria-labelledby="page-title">
      <Loaded load={account} what="the account">
        {(a) => (
          <div class="grid">
            <article>
              <header>Credits remaining</header>
              <p>
                <strong data-testid="credits-remaining">{formatNumber(a.credits_remaining)}</strong>
              </p>
            </article>
            <article>
              <header>Credits reset</header>
              <p>
                <Time iso={a.credits_reset_at} />
              </p>
            </article>
            <article>
              <header>Plan</header>
              <p>
                {a.plan}, {a.rate_limit.limit} requests per {a.rate_limit.window_seconds} s
              </p>
            </article>
          </div>
        )}
      </Loaded>
      <h2>Credits per day</h2>
      <Loaded load={daily} what="usage per day">
        {({ data }) => (
          <figure>
            <UsageChart days={data} />
            <figcaption class="muted">
              {formatNumber(total(data))} {total(data) === 1 ? 'credit' : 'credits'} over the last {data.length} days
              (UTC).
            </figcaption>
            <details>
              <summary>Show the figures as a table</summary>
              <Table region="Credits per day" columns={['Day', 'Credits', 'Ledger lines']}>
                {data
                  .filter((d) => d.entries > 0)
                  .map((d) => (
                    <Row key={d.day} cells={[d.day, d.credits, d.entries]} />
                  ))}
              </Table>
            </details>
          </figure>
        )}
      </Loaded>
      <Ledger />
    </section>
  );
}

function Ledger() {
  const [jobFilter, setJobFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [filterError, setFilterError] = useState<string | null>(null);
  return (
    <>
      <h2 id="ledger-title">Ledger</h2>
      <p class="muted">
        One row per request: a search, an async search, a job or company read, a watch event. Open a row for the jobs it
        returned and what each cost.
      </p>
      <form
        role="search"
        aria-labelledby="ledger-title"
        onSubmit={(event) => {
          event.preventDefault();
          const value = jobFilter.trim();
          if (value && !JOB_ID.test(value)) {
            setFilterError('A job id starts with job_ (for example job_abc123).');
            return;
          }
          setFilterError(null);
          setApplied(value);
        }}
      >
        <fieldset role="group">
          <input
            aria-label="Filter by job id"
            placeholder="job_… (empty for every request)"
            value={jobFilter}
            onInput={(e) => setJobFilter((e.target as HTMLInputElement).value)}
            aria-invalid={filterError ? 'true' : undefined}
          />
          <button type="submit">Filter</button>
        </fieldset>
      </form>
      {filterError && <ErrorNote message={filterError} />}
      {applied ? <JobLedger jobId={applied} key={applied} /> : <RequestLedger />}
    </>
  );
}

/** The ledger by request, newest first; each request's lines behind its toggle. */
function RequestLedger() {
  const ledger = useCursorPages<LedgerRequest>('/ledger/requests');
  const [open, setOpen] = useState<Record<string, boolean>>({});
  return (
    <PagedList
      pages={ledger}
      what="the ledger"
      empty="No ledger lines yet: searches and job reads appear here."
      pager={LEDGER_PAGES}
    >
      {(requests) => (
        <Table
          region="Ledger by request"
          testId="ledger"
          columns={[{ muted: 'Jobs' }, 'When', 'Operation', 'Lines', 'Credits', 'Request']}
        >
          {requests.map((request) => {
            const expanded = open[request.request_id] === true;
            const linesId = `lines-${request.request_id}`;
            return (
              <Fragment key={request.request_id}>
                <Row
                  data-request-id={request.request_id}
                  cells={[
                    <button
                      type="button"
                      class="secondary outline expander"
                      aria-expanded={expanded ? 'true' : 'false'}
                      aria-controls={linesId}
                      aria-label={
                        `${expanded ? 'Hide' : 'Show'} the ${request.entries} ` +
                        `${request.entries === 1 ? 'line' : 'lines'} of request ` +
                        `${request.request_id}`
                      }
                      onClick={() => setOpen((all) => ({ ...all, [request.request_id]: !expanded }))}
                    >
                      {expanded ? '−' : '+'}
                    </button>,
                    <Time iso={request.last_at} />,
                    request.operation,
                    <>
                      {request.entries}
                      {request.already_paid > 0 ? (
                        <span class="muted"> ({request.already_paid} already paid, free)</span>
                      ) : null}
                    </>,
                    request.credits,
                    <code>{request.request_id}</code>,
                  ]}
                />
                {expanded && (
                  <FullRow id={linesId}>
                    <RequestLines requestId={request.request_id} />
                  </FullRow>
                )}
              </Fragment>
            );
          })}
        </Table>
      )}
    </PagedList>
  );
}

/** The lines of one request (a job each), with more pages for a large async search. */
function RequestLines({ requestId }: { requestId: string }) {
  const lines = useCursorPages<LedgerEntry>(`/ledger/requests/${encodeURIComponent(requestId)}`);
  return (
    <PagedList pages={lines} what="the lines of this request" pager={`Lines of ${requestId}`} pagerOnlyWhenPaged>
      {(entries) => (
        <Table
          testId={`lines-of-${requestId}`}
          caption={`Lines of request ${requestId}`}
          columns={['Job', 'Credits', 'Reason', 'When']}
        >
          {entries.map((line) => (
            <Row
              key={line.id}
              cells={[
                <code>{line.job_id ?? '— (company profile)'}</code>,
                line.credits,
                reasonWords(line),
                <Time iso={line.created_at} />,
              ]}
            />
          ))}
        </Table>
      )}
    </PagedList>
  );
}

/** Every request that returned one job: its ledger lines (one per request). */
function JobLedger({ jobId }: { jobId: string }) {
  const ledger = useCursorPages<LedgerEntry>(`/ledger?${new URLSearchParams({ job_id: jobId }).toString()}`);
  return (
    <PagedList pages={ledger} what="the ledger" empty={<>No ledger lines for {jobId}.</>} pager={LEDGER_PAGES}>
      {(entries) => (
        <Table
          region={`Ledger of ${jobId}`}
          testId="ledger"
          caption={`Requests that returned ${jobId}`}
          columns={['When', 'Operation', 'Credits', 'Reason', 'Request']}
        >
          {entries.map((line) => (
            <Row
              key={line.id}
              cells={[
                <Time iso={line.created_at} />,
                line.operation,
                line.credits,
                reasonWords(line),
                <code>{line.request_id}</code>,
              ]}
            />
          ))}
        </Table>
      )}
    </PagedList>
  );
}

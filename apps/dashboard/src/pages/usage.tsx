import { useState } from 'preact/hooks';
import { get, type Account, type DailyUsage, type LedgerEntry, type Page } from '../api.js';
import { formatDate, formatNumber } from '../format.js';
import { CursorPager, Empty, ErrorNote, Loaded, useLoad } from '../ui.js';
import { UsageChart } from './usage-chart.js';

const JOB_ID = /^job_[A-Za-z0-9_-]+$/;

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
              <p>{formatDate(a.credits_reset_at)}</p>
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
              {formatNumber(data.reduce((sum, d) => sum + d.credits, 0))} credits over the last {data.length} days (UTC).
            </figcaption>
            <details>
              <summary>Show the figures as a table</summary>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Credits</th>
                    <th scope="col">Ledger lines</th>
                  </tr>
                </thead>
                <tbody>
                  {data
                    .filter((d) => d.entries > 0)
                    .map((d) => (
                      <tr key={d.day}>
                        <td>{d.day}</td>
                        <td>{d.credits}</td>
                        <td>{d.entries}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
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
  const [cursors, setCursors] = useState<string[]>([]);
  const [filterError, setFilterError] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];
  const [page, reload] = useLoad(() => {
    const query = new URLSearchParams();
    if (applied) query.set('job_id', applied);
    if (cursor) query.set('cursor', cursor);
    const qs = query.toString();
    return get<Page<LedgerEntry>>(`/ledger${qs ? `?${qs}` : ''}`);
  }, [applied, cursor]);
  return (
    <>
      <h2 id="ledger-title">Ledger</h2>
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
          setCursors([]);
          setApplied(value);
          reload();
        }}
      >
        <fieldset role="group">
          <input
            aria-label="Filter by job id"
            placeholder="job_… (empty for every job)"
            value={jobFilter}
            onInput={(e) => setJobFilter((e.target as HTMLInputElement).value)}
            aria-invalid={filterError ? 'true' : undefined}
          />
          <button type="submit">Filter</button>
        </fieldset>
      </form>
      {filterError && <ErrorNote message={filterError} />}
      <Loaded load={page} what="the ledger">
        {({ data, next_cursor }) => (
          <>
            {data.length === 0 ? (
              <Empty>{applied ? `No ledger lines for ${applied}.` : 'No ledger lines yet: searches and job reads appear here.'}</Empty>
            ) : (
              <table data-testid="ledger">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Job</th>
                    <th scope="col">Operation</th>
                    <th scope="col">Credits</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Request</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((line) => (
                    <tr key={line.id}>
                      <td>{formatDate(line.created_at)}</td>
                      <td>
                        <code>{line.job_id ?? '—'}</code>
                      </td>
                      <td>{line.operation}</td>
                      <td>{line.credits}</td>
                      <td>{line.reason}</td>
                      <td>
                        <code>{line.request_id}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <CursorPager label="Ledger pages" cursors={cursors} setCursors={setCursors} next={next_cursor} back="Newer" forward="Older" />
          </>
        )}
      </Loaded>
    </>
  );
}

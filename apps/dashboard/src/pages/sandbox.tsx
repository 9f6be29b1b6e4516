import { useState } from 'preact/hooks';
import { sandboxSearch, type SandboxResult } from '../api.js';
import { splitList } from '../format.js';
import { InputField, SubmitButton, useFormAction } from '../forms.js';
import { JobRow, JOB_COLUMNS } from '../job-row.js';
import { Table } from '../table.js';
import { Empty, Loading, MessageLine, useMessages, type FieldMap } from '../ui.js';

const FIELDS: FieldMap = {
  limit: { label: 'Limit', hint: 'a whole number from 1 to 100' },
  'filters.title_or': { label: 'Title keywords' },
};

export function SandboxPage() {
  const [titles, setTitles] = useState('engineer');
  const [remote, setRemote] = useState(false);
  const [limit, setLimit] = useState(5);
  const [result, setResult] = useState<SandboxResult | null>(null);
  const messages = useMessages();
  const search = useFormAction(messages, FIELDS);
  return (
    <section aria-labelledby="page-title">
      <p>
        Runs <code>POST /v1/sandbox/jobs/search</code>: no key, never charged. The sandbox answers the same fixed,
        fictional jobs whatever you send; the filters only need to be valid. Live results need a live key (
        <a href="/docs/sandbox">the sandbox guide</a>).
      </p>
      <form
        onSubmit={search.onSubmit(() => {
          setResult(null);
          const filters: Record<string, unknown> = {};
          const words = splitList(titles);
          if (words.length) filters['title_or'] = words;
          if (remote) filters['remote'] = true;
          return sandboxSearch({ filters, limit });
        }, setResult)}
      >
        <div class="grid">
          <InputField id="sandbox-titles" label="Title keywords (comma-separated)" value={titles} onValue={setTitles} />
          <InputField
            id="sandbox-limit"
            label="Limit"
            type="number"
            min={1}
            max={100}
            value={limit}
            onValue={(value) => setLimit(Number(value))}
          />
        </div>
        <label for="sandbox-remote">
          <input
            id="sandbox-remote"
            type="checkbox"
            checked={remote}
            onChange={(e) => setRemote((e.target as HTMLInputElement).checked)}
          />
          Remote only
        </label>
        <SubmitButton busy={search.busy}>Run sandbox search</SubmitButton>
      </form>
      <MessageLine messages={messages} />
      {search.busy && <Loading what="sandbox jobs" />}
      {result &&
        (result.data.length === 0 ? (
          <Empty>No jobs matched.</Empty>
        ) : (
          <Table
            region="Sandbox jobs"
            caption={
              <>
                {result.data.length} jobs, request <code>{result.metadata.request_id}</code>,{' '}
                {result.metadata.credits_charged} credits charged
              </>
            }
            columns={JOB_COLUMNS}
          >
            {result.data.map((job) => (
              <JobRow key={job.id} job={job} />
            ))}
          </Table>
        ))}
    </section>
  );
}

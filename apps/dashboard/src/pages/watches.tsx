import { useState } from 'preact/hooks';
import { del, patch, post, type Watch } from '../api.js';
import { FiltersFields } from '../filters-form.js';
import { describeFilters, FILTER_FIELDS, narrowsJobs, NO_FILTERS, toFilters } from '../filters.js';
import { InputField, SelectField, SubmitButton, useFormAction, WebhookUrlField } from '../forms.js';
import { PagedList, useCursorPages } from '../paging.js';
import { ConfirmRemoval, RemoveButton, useRemoval } from '../removal.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { describe, MessageLine, useMessages, type FieldMap } from '../ui.js';

const FIELDS: FieldMap = {
  ...FILTER_FIELDS,
  domain: { label: 'Company domain', hint: 'a domain such as acme.com, without https:// or a path' },
  webhook_url: { label: 'Webhook URL' },
  type: { label: 'Type' },
};
const EVERY_JOB =
  'Add at least one filter: a search watch without filters sends every new job in the market, each one a credit.';
const TYPES = [
  { value: 'company', words: 'company (a domain)' },
  { value: 'search', words: 'search (saved filters)' },
] as const;

export function WatchesPage() {
  const watches = useCursorPages<Watch>('/watches');
  const [type, setType] = useState<'company' | 'search'>('company');
  const [domain, setDomain] = useState('');
  const [filters, setFilters] = useState(NO_FILTERS);
  const [url, setUrl] = useState('');
  const messages = useMessages();
  const creation = useFormAction(messages, FIELDS);
  // Watches paused or resumed here, as the server answered: the row changes in place (no reload),
  // so the button keeps the keyboard focus and now offers the opposite.
  const [changed, setChanged] = useState<Record<string, Watch>>({});
  const [switching, setSwitching] = useState<string | null>(null);

  const toggle = (watch: Watch) => {
    if (switching) return;
    const next = watch.status === 'active' ? 'paused' : 'active';
    setSwitching(watch.id);
    messages.begin();
    patch<Watch>(`/watches/${encodeURIComponent(watch.id)}`, { status: next }).then(
      (updated) => {
        setChanged((all) => ({ ...all, [updated.id]: updated }));
        const outcome =
          updated.status === 'paused'
            ? 'paused: it sends no events until you resume it'
            : 'resumed: it sends events for changes from now on';
        messages.succeed(`Watch ${updated.id} ${outcome}.`);
        setSwitching(null);
      },
      (problem: unknown) => {
        messages.failWith(
          `Watch ${watch.id} could not be ${next === 'paused' ? 'paused' : 'resumed'}: ${describe(problem)}`,
        );
        setSwitching(null);
      },
    );
  };
  const refresh = () => {
    setChanged({});
    watches.reload();
  };
  const deletion = useRemoval<Watch>({
    messages,
    remove: (watch) => del<void>(`/watches/${encodeURIComponent(watch.id)}`),
    removed: (watch) => `Watch ${watch.id} deleted.`,
    reload: refresh,
  });

  return (
    <section aria-labelledby="page-title">
      <h2>New watch</h2>
      <form
        onSubmit={creation.onSubmit(
          () => {
            if (type === 'company')
              return post<Watch>('/watches', { type, domain: domain.trim(), webhook_url: url.trim() });
            const chosen = toFilters(filters);
            // The API takes a watch on every job; from a form, that is nearly always a filter forgotten.
            if (!narrowsJobs(chosen)) return Promise.reject(new Error(EVERY_JOB));
            return post<Watch>('/watches', { type, filters: chosen, webhook_url: url.trim() });
          },
          (watch) => {
            messages.succeed(`Watch ${watch.id} created.`);
            watches.toFirstPage();
            refresh();
          },
        )}
      >
        <div class="grid">
          <SelectField id="watch-type" label="Type" value={type} options={TYPES} onValue={setType} />
          {type === 'company' ? (
            <InputField
              id="watch-domain"
              label="Company domain"
              required
              placeholder="acme.com"
              value={domain}
              onValue={setDomain}
            />
          ) : null}
        </div>
        {type === 'search' && <FiltersFields id="watch" draft={filters} onDraft={setFilters} />}
        <WebhookUrlField id="watch-url" label="Webhook URL" value={url} onValue={setUrl} />
        <SubmitButton busy={creation.busy}>Create watch</SubmitButton>
      </form>
      <MessageLine messages={messages} />
      <h2>Your watches</h2>
      <p class="muted">
        A paused watch sends no events (and costs nothing) for changes that happen while it is paused; resuming it does
        not send them later, only changes from then on.
      </p>
      <PagedList pages={watches} what="watches" empty="No watches yet." pager="Watch pages">
        {(rows) => (
          <Table region="Watches" columns={['Watch', 'What', 'Webhook', 'Status', 'Created', { muted: 'Action' }]}>
            {rows.map((row) => {
              const w = changed[row.id] ?? row;
              const busy = switching === w.id;
              return (
                <Row
                  key={w.id}
                  data-watch-id={w.id}
                  cells={[
                    <code>{w.id}</code>,
                    w.type === 'company' ? w.domain : describeFilters(w.filters),
                    <span class="endpoint-url">{w.webhook_url}</span>,
                    <span class={`watch-${w.status}`}>{w.status}</span>,
                    <Time iso={w.created_at} />,
                    <div class="row-actions">
                      {/* aria-disabled, not disabled, while it runs: a disabled button would drop the
                          keyboard focus */}
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`${w.status === 'active' ? 'Pause' : 'Resume'} watch ${w.id}`}
                        aria-busy={busy ? 'true' : undefined}
                        aria-disabled={busy ? 'true' : undefined}
                        onClick={() => toggle(w)}
                      >
                        {w.status === 'active' ? 'Pause' : 'Resume'}
                      </button>
                      <RemoveButton removal={deletion} row={w} label={`Delete watch ${w.id}`}>
                        Delete
                      </RemoveButton>
                    </div>,
                  ]}
                />
              );
            })}
          </Table>
        )}
      </PagedList>
      <ConfirmRemoval removal={deletion} title="Delete this watch?" confirmLabel="Delete watch">
        <p>
          Watch <code>{deletion.asking?.id}</code> stops sending events at once. Past events stay in the feed.
        </p>
      </ConfirmRemoval>
    </section>
  );
}

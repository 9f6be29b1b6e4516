import { useState } from 'preact/hooks';
import { post, type AsyncSearch, type AsyncSearchStart } from '../api.js';
import { FiltersFields } from '../filters-form.js';
import { FILTER_FIELDS, NO_FILTERS, toFilters } from '../filters.js';
import { InputField, SubmitButton, useFormAction } from '../forms.js';
import type { FieldMap, Messages } from '../ui.js';

const FIELDS: FieldMap = {
  ...FILTER_FIELDS,
  limit: { label: 'Jobs to collect', hint: 'a whole number from 1 to 10,000' },
  'waterfall.max_credits': { label: 'Budget (credits)', hint: 'a whole number of 0 or more' },
  webhook_url: { label: 'Webhook URL' },
};

/**
 * Starts an async search with the body POST /v1/searches takes. The budget (`max_credits`) is
 * asked for, not left open: a search of thousands of jobs could otherwise spend thousands of credits.
 */
export function AsyncSearchStartForm({
  messages,
  started,
}: {
  messages: Messages;
  started: (search: AsyncSearch) => void;
}) {
  const [filters, setFilters] = useState(NO_FILTERS);
  const [limit, setLimit] = useState('100');
  const [budget, setBudget] = useState('25');
  const [url, setUrl] = useState('');
  const start = useFormAction(messages, FIELDS);
  return (
    <form
      onSubmit={start.onSubmit(() => {
        const body: AsyncSearchStart = {
          filters: toFilters(filters),
          limit: Number(limit),
          waterfall: { max_credits: Number(budget) },
          ...(url.trim() ? { webhook_url: url.trim() } : {}),
        };
        return post<AsyncSearch>('/searches', body);
      }, started)}
    >
      <FiltersFields id="search" draft={filters} onDraft={setFilters} />
      <div class="grid">
        <InputField
          id="search-limit"
          label="Jobs to collect"
          type="number"
          required
          min={1}
          max={10000}
          value={limit}
          onValue={setLimit}
        />
        <InputField
          id="search-budget"
          label="Budget (credits, at most)"
          type="number"
          required
          min={0}
          value={budget}
          onValue={setBudget}
        />
      </div>
      <InputField
        id="search-url"
        label="Webhook URL for search.completed (optional)"
        type="url"
        placeholder="https://example.com/hooks/jobs"
        value={url}
        onValue={setUrl}
      />
      <SubmitButton busy={start.busy}>Start async search</SubmitButton>
    </form>
  );
}

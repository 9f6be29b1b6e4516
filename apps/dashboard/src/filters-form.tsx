import { InputField, SelectField } from './forms.js';
import { EMPLOYMENT_TYPES, SENIORITIES, type FiltersDraft, type Remote } from './filters.js';

const REMOTE: readonly { value: Remote; words: string }[] = [
  { value: 'any', words: 'any' },
  { value: 'remote', words: 'remote only' },
  { value: 'on_site', words: 'on-site or hybrid only' },
];

/**
 * Every filter of the API's Filters object, for a search or a search watch: the title keywords in
 * sight, the rest behind "More filters". `id` prefixes the fields' ids (a page may hold two forms).
 */
export function FiltersFields({
  id,
  draft,
  onDraft,
}: {
  id: string;
  draft: FiltersDraft;
  onDraft: (draft: FiltersDraft) => void;
}) {
  const set =
    <K extends keyof FiltersDraft>(key: K) =>
    (value: FiltersDraft[K]) =>
      onDraft({ ...draft, [key]: value });
  return (
    <fieldset>
      <legend>Filters</legend>
      <div class="grid">
        <InputField
          id={`${id}-title-or`}
          label="Title keywords (comma-separated)"
          placeholder="engineer, developer"
          value={draft.title_or}
          onValue={set('title_or')}
        />
        <InputField
          id={`${id}-country`}
          label="Countries (comma-separated codes)"
          placeholder="GB, DE"
          value={draft.country_code_or}
          onValue={set('country_code_or')}
        />
      </div>
      <details>
        <summary>More filters</summary>
        <div class="grid">
          <InputField
            id={`${id}-title-not`}
            label="Leave out titles with"
            placeholder="intern"
            value={draft.title_not}
            onValue={set('title_not')}
          />
          <InputField
            id={`${id}-posted`}
            label="Posted within (days)"
            type="number"
            min={1}
            max={365}
            value={draft.posted_within_days}
            onValue={set('posted_within_days')}
          />
        </div>
        <Choices
          id={`${id}-seniority`}
          legend="Seniority"
          options={SENIORITIES}
          chosen={draft.seniority_or}
          onChosen={set('seniority_or')}
        />
        <Choices
          id={`${id}-employment`}
          legend="Employment type"
          options={EMPLOYMENT_TYPES}
          chosen={draft.employment_type_or}
          onChosen={set('employment_type_or')}
        />
        <div class="grid">
          <SelectField
            id={`${id}-remote`}
            label="Remote"
            value={draft.remote}
            options={REMOTE}
            onValue={set('remote')}
          />
          <InputField
            id={`${id}-salary`}
            label="Minimum yearly salary"
            type="number"
            min={0}
            value={draft.salary_min_gte}
            onValue={set('salary_min_gte')}
          />
        </div>
        <div class="grid">
          <InputField
            id={`${id}-domains`}
            label="Company domains (comma-separated)"
            placeholder="acme.com"
            value={draft.company_domain_or}
            onValue={set('company_domain_or')}
          />
          <InputField
            id={`${id}-families`}
            label="Job families (comma-separated)"
            placeholder="engineering"
            value={draft.job_family_or}
            onValue={set('job_family_or')}
          />
        </div>
        <label for={`${id}-closed`}>
          <input
            id={`${id}-closed`}
            type="checkbox"
            checked={draft.include_closed}
            onChange={(e) => set('include_closed')((e.target as HTMLInputElement).checked)}
          />
          Include closed jobs
        </label>
      </details>
    </fieldset>
  );
}

/** A choice of several values, each a checkbox with the value's words ("full time"). */
function Choices({
  id,
  legend,
  options,
  chosen,
  onChosen,
}: {
  id: string;
  legend: string;
  options: readonly string[];
  chosen: readonly string[];
  onChosen: (chosen: string[]) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div class="choices">
        {options.map((option) => (
          <label key={option} for={`${id}-${option}`}>
            <input
              id={`${id}-${option}`}
              type="checkbox"
              checked={chosen.includes(option)}
              onChange={(e) =>
                onChosen(
                  (e.target as HTMLInputElement).checked
                    ? options.filter((o) => o === option || chosen.includes(o))
                    : chosen.filter((o) => o !== option),
                )
              }
            />
            {option.replace(/_/g, ' ')}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Turns a zod validation error of a request (body, query or params) into the public error
 * fields: `code` (`unknown_filter` or `invalid_request`), `param` and `message`.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `param` is the path of the offending field, dot-separated with array indices in brackets:
 *   `filters.title_or[2]`, `waterfall.timeout_ms`, `limit`. For an unknown key the path
 *   includes the key itself (`filters.titel_or`, `foo`).
 * - An unknown key directly inside a `filters` object is `unknown_filter` (and wins over any
 *   other issue of the same request); every other issue is `invalid_request`. The message of an
 *   unknown filter suggests the closest known filter name when one is close.
 */
import type { z } from 'zod';
import { FILTER_KEYS } from './filters.schema.js';

export interface RequestProblem {
  readonly code: 'invalid_request' | 'unknown_filter';
  /** path of the offending field; undefined when the whole input is wrong (e.g. not an object) */
  readonly param: string | undefined;
  readonly message: string;
}

type Issue = z.core.$ZodIssue;

/** The issue's path, extended by the unknown key for `unrecognized_keys` issues. */
export function issuePath(issue: Issue): PropertyKey[] {
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) {
    return [...issue.path, issue.keys[0]];
  }
  return [...issue.path];
}

/**
 * The longest part of a name an error repeats: a request may name a key of almost its whole body
 * (1 MiB), and an answer that echoes it twice costs what the request did, again.
 */
export const SHOWN_NAME_MAX = 64;

/** A name as an error shows it: cut at `SHOWN_NAME_MAX` characters, with an ellipsis. */
export function shownName(name: string): string {
  return name.length > SHOWN_NAME_MAX ? `${name.slice(0, SHOWN_NAME_MAX)}…` : name;
}

/** `['filters', 'title_or', 2]` -> `filters.title_or[2]`; `[]` -> undefined. Each name as `shownName` cuts it. */
export function formatParam(path: readonly PropertyKey[]): string | undefined {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? shownName(String(segment)) : `.${shownName(String(segment))}`;
  }
  return out === '' ? undefined : out;
}

function isUnknownFilter(issue: Issue): issue is Extract<Issue, { code: 'unrecognized_keys' }> {
  return issue.code === 'unrecognized_keys' && issue.path[issue.path.length - 1] === 'filters';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

const SUGGESTION_EDITS_MAX = 3;
const LONGEST_FILTER_NAME = Math.max(...FILTER_KEYS.map((name) => name.length));

/**
 * The known filter name closest to `key`, if it is within 3 edits. A key longer than every name by
 * more than that is none of them (the edits are at least the difference in length): it is not
 * compared, so the work stays bounded whatever the key's length.
 */
export function suggestFilterName(key: string): string | undefined {
  if (key.length > LONGEST_FILTER_NAME + SUGGESTION_EDITS_MAX) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of FILTER_KEYS) {
    const distance = editDistance(key.toLowerCase(), name);
    if (distance <= SUGGESTION_EDITS_MAX && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** The message of an unknown filter: its name as shown, and the closest known name when one is close. */
export function unknownFilterMessage(key: string): string {
  const suggestion = suggestFilterName(key);
  return `Unknown filter "${shownName(key)}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}`;
}

export function describeRequestError(error: z.ZodError): RequestProblem {
  const unknownFilter = error.issues.find(isUnknownFilter);
  if (unknownFilter) {
    return {
      code: 'unknown_filter',
      param: formatParam(issuePath(unknownFilter)),
      message: unknownFilterMessage(unknownFilter.keys[0] ?? ''),
    };
  }
  const first = error.issues[0];
  if (!first) return { code: 'invalid_request', param: undefined, message: 'Invalid request.' };
  const param = formatParam(issuePath(first));
  const message =
    first.code === 'unrecognized_keys'
      ? `Unknown field "${param ?? ''}".`
      : param
        ? `${param}: ${first.message}`
        : first.message;
  return { code: 'invalid_request', param, message };
}

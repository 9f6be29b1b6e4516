/**
 * Every problem of a tool call's arguments, told in one answer. A model fixes what it is told
 * about: told one problem at a time, it spends a call (and a request of its rate limit) per
 * problem. The API's own error names one `param`; here nothing has been sent yet, so the whole
 * list can be given, in the API's words (`invalid_request`, `unknown_filter` with the name it
 * probably meant, the `param` path).
 */
import type { z } from 'zod';
import { formatParam, unknownFilterMessage } from '@jobs/contracts';

export interface ArgumentProblem {
  code: 'invalid_request' | 'unknown_filter';
  /** Path of the argument, as the API's `error.param` writes it; undefined for the call as a whole. */
  param: string | undefined;
  message: string;
}

type Issue = z.core.$ZodIssue;

/**
 * The most problems one answer describes: enough for any call a model meant to make, while one
 * that names thousands of unknown arguments gets an answer of bounded size and work.
 */
export const ARGUMENT_PROBLEMS_SHOWN = 20;

export interface ArgumentProblems {
  /** The first `ARGUMENT_PROBLEMS_SHOWN` problems. */
  shown: ArgumentProblem[];
  /** Every problem, those shown included. */
  total: number;
}

/** One problem per issue, and one per unknown name where an issue lists several; the first few described. */
export function argumentProblems(error: z.ZodError): ArgumentProblems {
  const shown: ArgumentProblem[] = [];
  let total = 0;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const inFilters = issue.path[issue.path.length - 1] === 'filters';
      for (const key of issue.keys.slice(0, Math.max(0, ARGUMENT_PROBLEMS_SHOWN - shown.length)))
        shown.push(unknownName(issue, key, inFilters));
      total += issue.keys.length;
      continue;
    }
    total += 1;
    if (shown.length >= ARGUMENT_PROBLEMS_SHOWN) continue;
    const param = formatParam(issue.path);
    shown.push({ code: 'invalid_request', param, message: param ? `${param}: ${issue.message}` : issue.message });
  }
  return { shown, total };
}

function unknownName(issue: Issue, key: string, inFilters: boolean): ArgumentProblem {
  const param = formatParam([...issue.path, key]);
  if (!inFilters) return { code: 'invalid_request', param, message: `Unknown argument "${param}".` };
  return { code: 'unknown_filter', param, message: unknownFilterMessage(key) };
}

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);
const paramTag = (problem: ArgumentProblem): string => (problem.param ? ` [param: ${problem.param}]` : '');

/**
 * The tool error's text: one line for one problem, as the API's error line reads; for several, a
 * head line with their number, then a line per problem. The head's code is `unknown_filter` when
 * every problem is one, else `invalid_request`.
 */
export function describeArgumentProblems({ shown, total }: ArgumentProblems): string {
  const notSent = 'The call was not sent: nothing was charged.';
  if (total === 1 && shown.length === 1) {
    const [problem] = shown as [ArgumentProblem];
    return `${problem.code}: ${sentence(problem.message)} ${notSent}${paramTag(problem)}`;
  }
  const code = shown.every((problem) => problem.code === 'unknown_filter') ? 'unknown_filter' : 'invalid_request';
  const count =
    total > shown.length
      ? `${total} problems with the arguments, the first ${shown.length} below`
      : `${total} problems with the arguments`;
  return [
    `${code}: ${count}. ${notSent}`,
    ...shown.map((problem) => `- ${problem.code}: ${sentence(problem.message)}${paramTag(problem)}`),
  ].join('\n');
}

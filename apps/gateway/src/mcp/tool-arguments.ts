/**
 * Every problem of a tool call's arguments, told in one answer. A model fixes what it is told
 * about: told one problem at a time, it spends a call (and a request of its rate limit) per
 * problem. The API's own error names one `param`; here nothing has been sent yet, so the whole
 * list can be given, in the API's words (`invalid_request`, `unknown_filter` with the name it
 * probably meant, the `param` path).
 */
import type { z } from 'zod';
import { formatParam, suggestFilterName } from '@jobs/contracts';

export interface ArgumentProblem {
  code: 'invalid_request' | 'unknown_filter';
  /** Path of the argument, as the API's `error.param` writes it; undefined for the call as a whole. */
  param: string | undefined;
  message: string;
}

type Issue = z.core.$ZodIssue;

/** One problem per issue, and one per unknown name where an issue lists several. */
export function argumentProblems(error: z.ZodError): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const inFilters = issue.path[issue.path.length - 1] === 'filters';
      for (const key of issue.keys) problems.push(unknownName(issue, key, inFilters));
      continue;
    }
    const param = formatParam(issue.path);
    problems.push({ code: 'invalid_request', param, message: param ? `${param}: ${issue.message}` : issue.message });
  }
  return problems;
}

function unknownName(issue: Issue, key: string, inFilters: boolean): ArgumentProblem {
  const param = formatParam([...issue.path, key]);
  if (!inFilters) return { code: 'invalid_request', param, message: `Unknown argument "${param}".` };
  const suggestion = suggestFilterName(key);
  return {
    code: 'unknown_filter',
    param,
    message: `Unknown filter "${key}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
  };
}

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);
const paramTag = (problem: ArgumentProblem): string => (problem.param ? ` [param: ${problem.param}]` : '');

/**
 * The tool error's text: one line for one problem, as the API's error line reads; for several, a
 * head line with their number, then a line per problem. The head's code is `unknown_filter` when
 * every problem is one, else `invalid_request`.
 */
export function describeArgumentProblems(problems: readonly ArgumentProblem[]): string {
  const notSent = 'The call was not sent: nothing was charged.';
  if (problems.length === 1) {
    const [problem] = problems as [ArgumentProblem];
    return `${problem.code}: ${sentence(problem.message)} ${notSent}${paramTag(problem)}`;
  }
  const code = problems.every((problem) => problem.code === 'unknown_filter') ? 'unknown_filter' : 'invalid_request';
  return [
    `${code}: ${problems.length} problems with the arguments. ${notSent}`,
    ...problems.map((problem) => `- ${problem.code}: ${sentence(problem.message)}${paramTag(problem)}`),
  ].join('\n');
}

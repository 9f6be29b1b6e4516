import { ApiError } from '../http/api-error.js';
import type { SimAnswer } from '../providers/provider-sim.client.js';

/**
 * The simulator's answer when it has the expected status; otherwise its refusal in the public
 * error envelope: 404 is `not_found`, another 4xx `invalid_request` naming the field, anything
 * else an internal failure.
 */
export function expectSimAnswer(answer: SimAnswer, expected: number): unknown {
  if (answer.status === expected) return answer.body;
  const error = (answer.body as { error?: { param?: unknown; message?: unknown } } | null)?.error;
  const message =
    typeof error?.message === 'string' && error.message
      ? error.message
      : `The simulator refused the request (${answer.status}).`;
  if (answer.status === 404) throw new ApiError('not_found', capitalize(message));
  if (answer.status >= 400 && answer.status < 500) {
    const param = typeof error?.param === 'string' && error.param ? toPublicParam(error.param) : 'body';
    throw new ApiError('invalid_request', `${param}: ${message}`, { param });
  }
  throw new Error(`provider-sim answered ${answer.status}`);
}

/** `salary.min` stays, `providers.2` becomes `providers[2]` (the public `param` format). */
export function toPublicParam(simParam: string): string {
  return simParam
    .split('.')
    .reduce((out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment), '');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

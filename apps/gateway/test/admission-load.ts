import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { api, metricsEndpoints, scrape, sumOf } from './stack.js';

const TITLES = ['engineer', 'designer', 'manager', 'analyst'];

/** A sync search, the `i`-th of a load (titles cycle), at the given gateway. */
export const search = (key: string, i: number, waterfall: Record<string, unknown> = {}, baseUrl?: string) =>
  api('/v1/jobs/search', {
    key,
    body: { filters: { title_or: [TITLES[i % TITLES.length]!] }, waterfall, limit: 5 },
    ...(baseUrl ? { baseUrl } : {}),
  });

/** Admission's counters, summed over every gateway. */
export async function admissionTotals(): Promise<{ waited: number; admitted: number; refused: number }> {
  let waited = 0;
  let admitted = 0;
  let refused = 0;
  for (const gateway of metricsEndpoints().filter((endpoint) => endpoint.service === 'gateway')) {
    const { exposition } = await scrape(gateway.url);
    const all = sumOf(exposition, 'gateway_admission_wait_seconds_count', { pool: 'sync-search' });
    admitted += all;
    waited += all - sumOf(exposition, 'gateway_admission_wait_seconds_bucket', { pool: 'sync-search', le: '0' });
    refused += sumOf(exposition, 'gateway_admission_refused_total', { pool: 'sync-search' });
  }
  return { waited, admitted, refused };
}

type Answer = Awaited<ReturnType<typeof api>>;

/** Every refusal is a 503 with the `rate_limited` envelope and an integer Retry-After. */
export function expectWellFormedRefusals(answers: Answer[]): Answer[] {
  expect(
    [...new Set(answers.map((answer) => answer.status))].filter((status) => status !== 200 && status !== 503),
  ).toEqual([]);
  const refused = answers.filter((answer) => answer.status === 503);
  for (const refusal of refused) {
    expect(refusal.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(ErrorEnvelopeSchema.parse(refusal.body).error.code).toBe('rate_limited');
  }
  return refused;
}

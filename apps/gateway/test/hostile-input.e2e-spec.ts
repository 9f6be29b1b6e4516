import { request } from 'node:http';
import fc from 'fast-check';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { createAccount, stack } from './stack.js';

/**
 * Property: whatever arrives at the door (random and hostile bodies, headers, paths and query
 * strings, on every endpoint of the spec), the answer is never a 5xx, always carries a request
 * id, and every error is the spec's envelope with that id.
 */
const ENDPOINTS: Array<[method: string, path: string]> = [
  ['POST', '/v1/jobs/search'],
  ['GET', '/v1/jobs/{id}'],
  ['POST', '/v1/searches'],
  ['GET', '/v1/searches/{id}'],
  ['GET', '/v1/companies/{domain}'],
  ['POST', '/v1/watches'],
  ['GET', '/v1/watches'],
  ['DELETE', '/v1/watches/{id}'],
  ['GET', '/v1/events'],
  ['POST', '/v1/webhooks/replay'],
  ['GET', '/v1/account'],
  ['GET', '/v1/billing/ledger'],
  ['GET', '/v1/providers'],
  ['POST', '/v1/sandbox/jobs/search'],
];

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, stack.baseUrl), { method, headers, localAddress: '127.0.0.77' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const segment = fc.oneof(
  fc.constantFrom(
    'job_abc123',
    'srch_abc123',
    'wat_abc123',
    'acme.example',
    'job_',
    '..',
    '%00',
    '%2e%2e%2f',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('limit', 'cursor', 'since', 'job_id', 'x', 'limit[]'),
      fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)),
      { maxKeys: 3 },
    )
    .map((q) => `?${new URLSearchParams(q).toString()}`),
);
const nearValid = fc.record(
  {
    filters: fc.oneof(
      fc.constant({}),
      fc.dictionary(
        fc.constantFrom(
          'title_or',
          'titel_or',
          'country_code_or',
          'remote',
          'salary_min_gte',
          'posted_within_days',
          'include_closed',
        ),
        fc.jsonValue(),
        { maxKeys: 3 },
      ),
    ),
    waterfall: fc.dictionary(
      fc.constantFrom('strategy', 'providers', 'timeout_ms', 'min_sources', 'max_credits'),
      fc.jsonValue(),
      { maxKeys: 3 },
    ),
    limit: fc.oneof(fc.integer({ min: -5, max: 20000 }), fc.double(), fc.string()),
    dry_run: fc.boolean(),
    event_id: fc.string({ maxLength: 20 }),
    type: fc.constantFrom('company', 'search', 'x'),
    webhook_url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 20 })),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  nearValid.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constant('{"filters": {'),
  fc.constant(JSON.stringify({ filters: { title_or: ['a'.repeat(10_000)] } })),
);

describe('hostile input at every endpoint', () => {
  let liveKey: string;
  let testKey: string;

  beforeAll(async () => {
    // Free plan: the few random bodies that are valid searches stay on the own index.
    const account = await createAccount({ plan: 'free', credits: 1_000_000 });
    liveKey = account.live_key;
    testKey = account.test_key;
  });

  it('never answers 5xx, and every error is the envelope with the request id', async () => {
    const authorization = fc.oneof(
      fc.constant<string | undefined>(undefined),
      fc.constant(`Bearer ${liveKey}`),
      fc.constant(`Bearer ${testKey}`),
      fc.constant(`bearer  ${liveKey} `),
      fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
      fc.string({ maxLength: 60 }),
    );
    const headers = fc.record(
      {
        authorization,
        'service-version': fc.oneof(fc.constant('2026-10-01'), fc.string({ maxLength: 20 })),
        'idempotency-key': fc.string({ minLength: 1, maxLength: 300 }),
        'content-type': fc.constantFrom(
          'application/json',
          'text/plain',
          'application/json; charset=utf-8',
          'application/x-www-form-urlencoded',
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        segment,
        query,
        headers,
        body,
        async ([method, template], seg, q, hdrs, payload) => {
          const path = template.replace(/\{[a-z]+\}/, seg) + q;
          const clean = Object.fromEntries(
            Object.entries(hdrs).filter(
              (e): e is [string, string] => typeof e[1] === 'string' && /^[\t\x20-\x7e]*$/.test(e[1]),
            ),
          );
          const res = await send(method, path, clean, method === 'GET' || method === 'DELETE' ? undefined : payload);
          const requestId = res.headers['x-request-id'];
          expect(typeof requestId === 'string' && requestId.startsWith('req_')).toBe(true);
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) {
            const envelope = ErrorEnvelopeSchema.parse(JSON.parse(res.text));
            expect(envelope.error.request_id).toBe(requestId);
          }
        },
      ),
      { numRuns: 250, endOnFailure: true },
    );
  }, 300_000);
});

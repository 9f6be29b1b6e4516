import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, OPENAPI_SERVER_URL } from '@jobs/contracts';
import { callsCurl, shellExamples } from '@jobs/docs-site';
import { ShellSession, type CurlCall } from './shell-session.js';
import { createAccount, stack } from './stack.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The demo account `npm run up` seeds and prints (scripts/stack/seeding.ts). */
const DEMO_ACCOUNT = { plan: 'pro', credits: 10_000 };
/** What pasting every command of one page twice may cost the demo account: a few dozen credits. */
const PAGE_BUDGET = 40;

interface Page {
  name: string;
  markdown: () => Promise<string>;
  /** What a reader changes before pasting, beside the keys and ids (`npm run up`'s addresses, for a test stack). */
  substitutions: [string, string][];
}

const PAGES: Page[] = [
  {
    name: 'README.md',
    markdown: async () => readFileSync(join(ROOT, 'README.md'), 'utf8'),
    // the README names `npm run up`'s addresses (operator.md's defaults); the test stack has its own
    substitutions: [
      ['http://127.0.0.1:8080', stack.baseUrl],
      ['http://127.0.0.1:8081', stack.adminUrl],
      ['dev-admin-token', stack.adminToken],
    ],
  },
  {
    // the quick start as served, its {{base_url}} already the host's: what a customer copies
    name: 'quick start (/docs/quick-start.md)',
    markdown: async () => {
      const res = await fetch(`${stack.baseUrl}/docs/quick-start.md`);
      if (res.status !== 200) throw new Error(`GET /docs/quick-start.md answered ${res.status}`);
      return res.text();
    },
    substitutions: [],
  },
];

/** `METHOD path template` -> its success status; a template's `{name}` stands for one path segment. */
type Answers = Map<string, number>;

/** The public API's success statuses, from the OpenAPI document the gateway publishes. */
function publicAnswers(): Answers {
  const answers: Answers = new Map();
  for (const [path, operations] of Object.entries(buildOpenApiDocument().paths))
    for (const [method, operation] of Object.entries(operations)) {
      const success = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      if (success.length !== 1) throw new Error(`${method} ${path} lists ${success.length} success statuses`);
      answers.set(`${method.toUpperCase()} ${path}`, Number(success[0]));
    }
  return answers;
}

/** The admin API's success statuses, as operator.md states them (base `/admin`). */
const ADMIN_ANSWERS: Answers = new Map([
  ['POST /accounts', 201],
  ['POST /accounts/{account_id}/credits', 200],
  ['POST /accounts/{account_id}/keys', 201],
  ['DELETE /keys/{key}', 204],
  ['GET /accounts/{account_id}/webhook-secret', 200],
  ['PUT /providers/{slug}', 200],
  ['POST /providers/reset', 204],
  ['POST /world/companies', 201],
  ['POST /world/jobs', 201],
  ['PATCH /world/jobs/{world_job_id}', 200],
  ['POST /world/jobs/{world_job_id}/close', 200],
  ['POST /world/jobs/{world_job_id}/repost', 200],
  ['POST /refresh', 202],
  ['PUT /crawler/boards/{ats}/{board}', 200],
  ['GET /crawler/boards', 200],
  ['DELETE /crawler/boards/{ats}/{board}', 204],
]);

function answerOf(answers: Answers, method: string, path: string): number | undefined {
  for (const [route, status] of answers) {
    const [routeMethod, template] = route.split(' ') as [string, string];
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (routeMethod === method && pattern.test(path)) return status;
  }
  return undefined;
}

/** The status the specs give a call's operation, or why the call is no operation of this service. */
function expectedStatus(call: CurlCall, answers: Answers): number | string {
  if (!URL.canParse(call.url)) return `a call with no http(s) address (${call.args.join(' ')})`;
  const url = new URL(call.url);
  const api = new URL(stack.baseUrl);
  const admin = new URL(stack.adminUrl);
  let status: number | undefined;
  if (url.origin === api.origin && url.pathname.startsWith(`${OPENAPI_SERVER_URL}/`))
    status = answerOf(answers, call.method, url.pathname.slice(OPENAPI_SERVER_URL.length));
  else if (url.origin === admin.origin && url.pathname.startsWith('/admin/'))
    status = answerOf(ADMIN_ANSWERS, call.method, url.pathname.slice('/admin'.length));
  return status ?? `${call.method} ${url.pathname} is no operation of the public or the admin API`;
}

/** A placeholder a reader replaces: a key (`svc_live_...`) or an id taken from an earlier answer (`job_...`). */
const PLACEHOLDER = /\b(svc_live|svc_test|[a-z]+)_\.\.\./g;

/** The first id of that prefix in the newest answer that has one: what a reader copies (a value, not a key). */
function latestId(prefix: string, calls: readonly CurlCall[]): string | undefined {
  const id = new RegExp(`"(${prefix}_[A-Za-z0-9_-]+)"(?!\\s*:)`);
  for (const call of [...calls].reverse()) {
    const found = id.exec(call.body)?.[1];
    if (found) return found;
  }
  return undefined;
}

function fill(
  command: string,
  page: Page,
  keys: { live_key: string; test_key: string },
  calls: readonly CurlCall[],
): { text: string; unfilled: string[] } {
  const unfilled: string[] = [];
  let text = command;
  for (const [from, to] of page.substitutions) text = text.replaceAll(from, to);
  text = text.replace(PLACEHOLDER, (placeholder, prefix: string) => {
    const value =
      prefix === 'svc_live' ? keys.live_key : prefix === 'svc_test' ? keys.test_key : latestId(prefix, calls);
    if (value === undefined) unfilled.push(placeholder);
    return value ?? placeholder;
  });
  unfilled.push(...(text.match(/<[a-z][a-z_]*>/g) ?? []));
  return { text, unfilled };
}

/**
 * Waits until every async search the page started has stopped collecting: they are charged as they
 * collect, so the page's cost is known only then.
 */
async function searchesSettled(key: string, calls: readonly CurlCall[], timeoutMs = 120_000): Promise<string[]> {
  const started = calls
    .filter((call) => call.method === 'POST' && call.url.startsWith(`${stack.baseUrl}${OPENAPI_SERVER_URL}/searches`))
    .map((call) => latestId('srch', [call]))
    .filter((id) => id !== undefined);
  const unsettled: string[] = [];
  for (const id of started) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(`${stack.baseUrl}/v1/searches/${id}?limit=1`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const { status } = (await res.json()) as { status?: string };
      if (status !== 'queued' && status !== 'running') break;
      if (Date.now() > until) {
        unsettled.push(`${id} still ${status} after ${timeoutMs} ms`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return unsettled;
}

async function creditsOf(key: string): Promise<number> {
  const res = await fetch(`${stack.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`GET /v1/account answered ${res.status}`);
  return ((await res.json()) as { credits_remaining: number }).credits_remaining;
}

interface Pasted {
  /** The line of the block's opening fence, and the command's place in the block. */
  where: string;
  paste: 1 | 2;
  call: CurlCall;
}

/**
 * The README's and the quick start's commands, as a reader pastes them on the demo account of
 * `npm run up`: every fenced shell block that calls curl, pasted twice in a row into one shell
 * per page, the keys and the ids of earlier answers filled in. Every call must answer the status
 * its operation's spec gives (so the second paste must succeed too), every command must run
 * without a shell error, an Idempotency-Key must be new on each paste (a fixed one answers 409
 * as soon as a reader edits the body), and both pastes of a page together may cost at most a few
 * dozen credits. A command added to either page is run here with no change to this test.
 */
describe('pasting the README and the quick start, twice', () => {
  const answers = publicAnswers();

  afterAll(async () => {
    // the README shows a provider made to time out, then reset: whatever happened, reset it
    await fetch(`${stack.adminUrl}/admin/providers/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
  });

  it.each(PAGES)('$name: every call answers as its spec says, on both pastes', async (page) => {
    const examples = shellExamples(await page.markdown()).filter((example) => example.commands.some(callsCurl));
    expect(examples.length).toBeGreaterThan(0);

    // an account of its own per page: what pasting one page costs a newcomer
    const keys = await createAccount(DEMO_ACCOUNT);
    const session = ShellSession.start();
    const problems: string[] = [];
    const pasted: Pasted[] = [];
    const before = await creditsOf(keys.live_key);
    try {
      for (const example of examples)
        for (const paste of [1, 2] as const)
          for (const [index, command] of example.commands.entries()) {
            const where = `line ${example.line}, command ${index + 1}`;
            const { text, unfilled } = fill(
              command,
              page,
              keys,
              pasted.map((p) => p.call),
            );
            if (unfilled.length > 0) {
              problems.push(`${where}: nothing earlier answers ${unfilled.join(', ')} to fill in: ${command}`);
              continue;
            }
            const result = await session.paste(text);
            if (result.exitCode !== 0 || result.stderr)
              problems.push(
                `${where}, paste ${paste}: exit ${result.exitCode}` +
                  `${result.stderr ? `, stderr ${result.stderr}` : ''}: ${text}`,
              );
            if (callsCurl(command) && result.calls.length === 0)
              problems.push(`${where}, paste ${paste}: no curl call was made: ${text}`);
            for (const call of result.calls) {
              pasted.push({ where, paste, call });
              const expected = expectedStatus(call, answers);
              if (call.status !== expected)
                problems.push(
                  `${where}, paste ${paste}: ${call.method} ${call.url} answered ${call.status}, ` +
                    `expected ${expected}: ${call.body.slice(0, 300)}`,
                );
            }
          }
    } finally {
      session.close();
    }
    const unsettled = await searchesSettled(
      keys.live_key,
      pasted.map((p) => p.call),
    );
    problems.push(...unsettled);
    const spent = before - (await creditsOf(keys.live_key));

    // a key written into the page is the same on every paste: it must be made anew each time
    const keysByCommand = new Map<string, Set<string>>();
    for (const { where, call } of pasted) {
      const key = call.requestHeaders['idempotency-key'];
      if (key === undefined) continue;
      const seen = keysByCommand.get(where) ?? new Set<string>();
      if (seen.has(key)) problems.push(`${where}: Idempotency-Key ${key} sent on both pastes: it must be generated`);
      keysByCommand.set(where, seen.add(key));
    }

    console.log(
      `${page.name}: ${pasted.length} calls over two pastes, ${spent} credits\n` +
        pasted
          .map(
            ({ where, paste, call }) =>
              `  ${where}, paste ${paste}: ${call.method} ${call.url.replace(/^https?:\/\/[^/]+/, '')} -> ${call.status}` +
              (call.headers['x-credits-charged'] ? ` (${call.headers['x-credits-charged']} credits)` : ''),
          )
          .join('\n'),
    );
    expect(problems).toEqual([]);
    expect(spent).toBeLessThanOrEqual(PAGE_BUDGET);
  });
});

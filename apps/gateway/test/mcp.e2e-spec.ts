import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  AccountSchema,
  CompanyProfileSchema,
  DryRunEstimateSchema,
  EventListResponseSchema,
  JobSchema,
  JobSearchResponseSchema,
  SERVICE_VERSION,
  WatchListResponseSchema,
  WatchSchema,
} from '@jobs/contracts';
import { JobSummaryPageSchema } from '../src/mcp/job-summary.js';
import { call, connect, rawMcp, text, TOOLS } from './mcp-client.js';
import { addWorldJob, api, createAccount, eventually, Receiver, uniqueWord, wholeLedger } from './stack.js';

/**
 * The MCP server (`/mcp` on the public port) driven by the official SDK's client over
 * Streamable HTTP with a bearer API key: its tools are the HTTP API's requests, so what they
 * charge is what the ledger shows, and the API's errors come back as tool errors. The sizes of
 * its answers on the wire are measured with plain HTTP and printed as a table (bench/README.md,
 * "MCP answer sizes"). Its refusals (API errors, plan rules, rate limits, keys):
 * mcp-refusals.e2e-spec.ts; async searches, the ledger, replay and webhook secrets:
 * mcp-async-webhooks.e2e-spec.ts.
 */

/** An agent's context holds the tool list and many answers: both are kept small. */
const TOOLS_LIST_BUDGET_BYTES = 16 * 1024;
const SEARCH_10_BUDGET_BYTES = 5 * 1024;

describe('the MCP server over Streamable HTTP', () => {
  const receiver = new Receiver();
  let account: { account_id: string; live_key: string; test_key: string };
  let client: Client;
  const word = uniqueWord();
  const providers = ['provider_a'];
  const sizes: [what: string, bytes: number, budget: number | null][] = [];

  beforeAll(async () => {
    await receiver.start();
    account = await createAccount({ plan: 'pro', credits: 100 });
    // three openings only provider_a lists, all found by one keyword
    for (let i = 0; i < 3; i++) await addWorldJob({ providers: ['provider_a'], shared_word: word });
    client = await connect(account.live_key);
  });
  afterAll(async () => {
    await client?.close();
    await receiver.stop();
    if (sizes.length > 0) {
      const rows = sizes.map(
        ([what, bytes, budget]) =>
          `| ${what} | ${bytes.toLocaleString('en-US')} | ` +
          `${budget === null ? '' : `${budget.toLocaleString('en-US')} (${Math.round((bytes / budget) * 100)} %)`} ` +
          `|`,
      );
      process.stdout.write(
        [
          '',
          `MCP answer sizes on the wire (JSON-RPC body, API ${SERVICE_VERSION}):`,
          '| answer | bytes | budget |',
          '|---|---:|---:|',
          ...rows,
          '',
        ].join('\n') + '\n',
      );
    }
  });

  it('lists every tool with an output schema and a description that says what it costs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toMatch(/FREE|COSTS? .*CREDIT/);
    }
    expect(tools.find((tool) => tool.name === 'search_jobs')!.inputSchema.required).toEqual(['max_credits']);

    const listed = await rawMcp(account.live_key, 'tools/list');
    expect(listed.status).toBe(200);
    expect((listed.body.result!['tools'] as unknown[]).length).toBe(TOOLS.length);
    sizes.push(['`tools/list`', listed.bytes, TOOLS_LIST_BUDGET_BYTES]);
    expect(listed.bytes).toBeLessThanOrEqual(TOOLS_LIST_BUDGET_BYTES);
  });

  it(
    'answers a search of 10 jobs with summaries and a text ' +
      'summary, within 5 KB on the wire; get_job gives the full ' +
      'job for free',
    async () => {
      // an account of its own: the other tests count this account's credits exactly
      const own = await createAccount({ plan: 'pro', credits: 50 });
      const ownClient = await connect(own.live_key);
      const ten = uniqueWord();
      for (let i = 0; i < 10; i++) await addWorldJob({ providers: ['provider_a'], shared_word: ten });
      const answer = await rawMcp(own.live_key, 'tools/call', {
        name: 'search_jobs',
        arguments: { filters: { title_or: [ten] }, waterfall: { providers }, max_credits: 10, limit: 10 },
      });
      expect(answer.status).toBe(200);
      const result = answer.body.result!;
      expect(result['isError']).toBeFalsy();
      const page = JobSummaryPageSchema.parse(result['structuredContent']);
      expect(page.data).toHaveLength(10);
      expect(page.metadata.credits_charged).toBe(10);
      // the text is a short summary with the ids to act on, not the jobs again
      const blocks = result['content'] as { type: string; text: string }[];
      expect(blocks).toHaveLength(1);
      const [summary, ids, ...more] = blocks[0]!.text.split('\n');
      expect(summary).toMatch(/^10 jobs \(complete\); charged 10 credits, 0 already paid \(free\), \d+ credits left\./);
      expect(ids).toBe(`Ids: ${page.data.map((job) => job.id).join(', ')}.`);
      expect(more).toEqual([]);
      for (const job of page.data) expect(blocks[0]!.text).not.toContain(job.title);
      sizes.push(['`search_jobs`, 10 jobs', answer.bytes, SEARCH_10_BUDGET_BYTES]);
      expect(answer.bytes).toBeLessThanOrEqual(SEARCH_10_BUDGET_BYTES);

      // the same page from the REST API: the full jobs the summaries stand for
      const rest = await api('/v1/jobs/search', {
        key: own.live_key,
        body: { filters: { title_or: [ten] }, waterfall: { providers }, limit: 10 },
      });
      const full = JobSearchResponseSchema.parse(rest.body);
      expect(full.metadata.credits_charged).toBe(0);
      // the first shape: the full page as structured content and again as text, after a one-line summary
      const previousShape = {
        jsonrpc: '2.0',
        id: 1,
        result: {
          content: [
            { type: 'text', text: summary },
            { type: 'text', text: JSON.stringify(full) },
          ],
          structuredContent: full,
        },
      };
      sizes.push([
        'the same 10 jobs in the previous shape (full jobs, the JSON again as text)',
        Buffer.byteLength(JSON.stringify(previousShape)),
        null,
      ]);

      try {
        const job = await call(ownClient, 'get_job', { job_id: page.data[0]!.id });
        expect(JobSchema.parse(job.structuredContent)).toMatchObject({
          id: page.data[0]!.id,
          title: page.data[0]!.title,
        });
        expect(text(job)).toContain('Charged 0 credits (40 left)');
      } finally {
        await ownClient.close();
      }
    },
  );

  it(
    'estimates a search for free (dry run), then charges a search ' +
      'no more than its max_credits, as the ledger shows',
    async () => {
      const filters = { title_or: [word] };
      const estimate = await call(client, 'estimate_search', { filters, waterfall: { providers }, limit: 10 });
      expect(estimate.isError).toBeFalsy();
      const { estimate: range } = DryRunEstimateSchema.parse(estimate.structuredContent);
      expect(range.providers_planned).toEqual(providers);
      expect(range.credits_range.max).toBeGreaterThanOrEqual(1);
      expect(AccountSchema.parse((await call(client, 'get_account')).structuredContent).credits_remaining).toBe(100);

      // a cap of 2 over 3 new jobs: the search stops at the cap
      const capped = await call(client, 'search_jobs', {
        filters,
        waterfall: { providers },
        max_credits: 2,
        limit: 10,
      });
      expect(capped.isError).toBeFalsy();
      const first = JobSummaryPageSchema.parse(capped.structuredContent);
      expect(first.metadata.credits_charged).toBe(2);
      expect(first.metadata.credits_remaining).toBe(98);
      expect(text(capped)).toContain('charged 2 credits');

      // the rest: only the job not yet paid is charged
      const rest = JobSummaryPageSchema.parse(
        (await call(client, 'search_jobs', { filters, waterfall: { providers }, max_credits: 10, limit: 10 }))
          .structuredContent,
      );
      expect(rest.data).toHaveLength(3);
      expect(rest.metadata).toMatchObject({ credits_charged: 1, jobs_already_paid: 2, credits_remaining: 97 });

      // what the tools said they charged is what the ledger holds, under each search's request id
      const ledger = await wholeLedger(account.live_key);
      const charged = (requestId: string) =>
        ledger.filter((line) => line.request_id === requestId).reduce((sum, line) => sum + line.credits, 0);
      expect(charged(first.metadata.request_id)).toBe(2);
      expect(charged(rest.metadata.request_id)).toBe(1);
      expect(ledger.reduce((sum, line) => sum + line.credits, 0)).toBe(3);
      const balance = await api('/v1/account', { key: account.live_key });
      expect(balance.body).toMatchObject({ credits_remaining: 97 });

      // reading a job already paid for is free; a company profile costs 1 credit every time
      const job = await call(client, 'get_job', { job_id: rest.data[0]!.id });
      expect(JobSchema.parse(job.structuredContent).id).toBe(rest.data[0]!.id);
      expect(text(job)).toContain('Charged 0 credits (97 left)');
      const profile = await call(client, 'get_company_profile', { domain: rest.data[0]!.company_domain });
      expect(profile.isError).toBeFalsy();
      expect(CompanyProfileSchema.parse(profile.structuredContent).company.domain).toBe(rest.data[0]!.company_domain);
      expect(text(profile)).toContain('Charged 1 credit (96 left)');
      expect(AccountSchema.parse((await call(client, 'get_account')).structuredContent).credits_remaining).toBe(96);
    },
  );

  it('runs a call again with its idempotency_key without a second run or charge', async () => {
    const other = uniqueWord();
    await addWorldJob({ providers: ['provider_a'], shared_word: other });
    const args = {
      filters: { title_or: [other] },
      waterfall: { providers },
      max_credits: 5,
      idempotency_key: `mcp-e2e-${other}`,
    };
    const once = JobSummaryPageSchema.parse((await call(client, 'search_jobs', args)).structuredContent);
    const again = JobSummaryPageSchema.parse((await call(client, 'search_jobs', args)).structuredContent);
    expect(once.metadata.credits_charged).toBe(1);
    expect(again).toEqual(once);
    const conflict = await call(client, 'search_jobs', { ...args, limit: 3 });
    expect(conflict.isError).toBe(true);
    expect(text(conflict)).toMatch(/^idempotency_conflict \(HTTP 409\): .* \[request_id: req_\w+\]$/);
  });

  it('creates, lists and deletes a watch for free, and reads the event feed with since', async () => {
    const balance = async () =>
      AccountSchema.parse((await call(client, 'get_account')).structuredContent).credits_remaining;
    const before = await balance();
    const domain = `${uniqueWord()}.example`;
    const created = await call(client, 'create_watch', {
      type: 'company',
      domain,
      webhook_url: receiver.endpoint(),
      events: ['job.opened'],
    });
    expect(created.isError).toBeFalsy();
    const watch = WatchSchema.parse(created.structuredContent);
    expect(watch).toMatchObject({ type: 'company', domain, status: 'active' });
    const listed = WatchListResponseSchema.parse((await call(client, 'list_watches')).structuredContent);
    expect(listed.data.map((w) => w.id)).toContain(watch.id);
    expect((await call(client, 'delete_watch', { watch_id: watch.id })).structuredContent).toEqual({
      id: watch.id,
      deleted: true,
    });
    expect(
      WatchListResponseSchema.parse((await call(client, 'list_watches')).structuredContent).data.map((w) => w.id),
    ).not.toContain(watch.id);
    const gone = await call(client, 'delete_watch', { watch_id: watch.id });
    expect(text(gone)).toMatch(/^not_found \(HTTP 404\)/);

    // an async search (its jobs already paid: free) puts search.completed in the feed
    const started = await api('/v1/searches', {
      key: account.live_key,
      body: { filters: { title_or: [word] }, waterfall: { providers }, limit: 10 },
    });
    expect(started.status).toBe(202);
    const searchId = String(started.body!['id']);
    const page = await eventually(
      async () => {
        const feed = EventListResponseSchema.parse(
          (await call(client, 'list_events', { limit: 100 })).structuredContent,
        );
        return feed.data.some((event) => event.type === 'search.completed' && event.data.search.id === searchId)
          ? feed
          : undefined;
      },
      60_000,
      'search.completed in the feed',
      500,
    );
    expect(page.next_cursor).not.toBeNull();
    const after = await call(client, 'list_events', { since: page.next_cursor });
    expect(after.isError).toBeFalsy();
    expect(EventListResponseSchema.parse(after.structuredContent)).toEqual({ data: [], next_cursor: null });
    expect(await balance()).toBe(before);
  });

  it('never charges a test key', async () => {
    const testClient = await connect(account.test_key);
    try {
      const page = JobSummaryPageSchema.parse(
        (await call(testClient, 'search_jobs', { filters: { title_or: ['engineer'] }, max_credits: 10, limit: 3 }))
          .structuredContent,
      );
      expect(page.metadata.credits_charged).toBe(0);
    } finally {
      await testClient.close();
    }
  });
});

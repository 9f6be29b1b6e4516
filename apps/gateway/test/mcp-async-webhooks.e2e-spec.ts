import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  AccountSchema,
  JobSchema,
  LedgerListResponseSchema,
  WebhookEndpointListResponseSchema,
  WebhookEndpointSecretSchema,
  WebhookReplayResponseSchema,
} from '@jobs/contracts';
import { AsyncSearchSummarySchema, type AsyncSearchSummary } from '../src/mcp/async-search-tools.js';
import { RotatedSecretSchema } from '../src/mcp/webhook-tools.js';
import { call, connect, text } from './mcp-client.js';
import { addWorldJob, createAccount, eventually, Receiver, signatureValid, uniqueWord } from './stack.js';

/**
 * What an agent does over MCP beyond a search, driven by the official SDK's client against the
 * running stack: an async search started with a budget, polled and paged; its charges found in
 * the ledger; its search.completed event replayed; the webhook endpoint it delivered to listed,
 * its secret revealed only when asked, and rotated. Every call is the API's, so the charges are
 * the API's and the secrets verify the deliveries.
 */
describe('the MCP server over Streamable HTTP: async searches, the ledger, replay and webhook secrets', () => {
  const receiver = new Receiver();
  const providers = ['provider_a'];
  let account: { account_id: string; live_key: string; test_key: string };
  let client: Client;
  let hook: string;
  let search: AsyncSearchSummary;

  const balance = async () =>
    AccountSchema.parse((await call(client, 'get_account')).structuredContent).credits_remaining;
  const poll = async (args: Record<string, unknown>) => {
    const result = await call(client, 'get_async_search', args);
    expect(result.isError).toBeFalsy();
    return { result, search: AsyncSearchSummarySchema.parse(result.structuredContent) };
  };

  beforeAll(async () => {
    await receiver.start();
    account = await createAccount({ plan: 'pro', credits: 100 });
    client = await connect(account.live_key);
    hook = receiver.endpoint();
  });
  afterAll(async () => {
    await client?.close();
    await receiver.stop();
  });

  it('starts an async search within its budget, polls and pages it, and finds its charges in the ledger', async () => {
    const word = uniqueWord();
    for (let i = 0; i < 6; i++) await addWorldJob({ providers: ['provider_a'], shared_word: word });

    const started = await call(client, 'start_async_search', {
      filters: { title_or: [word] },
      waterfall: { providers },
      max_credits: 4,
      limit: 100,
      webhook_url: hook,
    });
    expect(started.isError).toBeFalsy();
    const queued = AsyncSearchSummarySchema.parse(started.structuredContent);
    expect(queued).toMatchObject({ status: 'queued', data: [], metadata: null, webhook_url: hook });
    expect(text(started)).toContain(`Async search ${queued.id} is queued`);

    // the budget caps the whole search: it completes at 4 credits with 4 of the 6 jobs
    search = await eventually(
      async () => {
        const { search: seen } = await poll({ search_id: queued.id, limit: 3 });
        return ['completed', 'partial', 'failed'].includes(seen.status) ? seen : undefined;
      },
      60_000,
      `async search ${queued.id} finished`,
      500,
    );
    expect(search).toMatchObject({ status: 'completed', jobs_found: 4 });
    expect(search.metadata).toMatchObject({ credits_charged: 4 });
    expect(search.data).toHaveLength(3);
    expect(search.next_cursor).not.toBeNull();

    const next = await poll({ search_id: queued.id, limit: 3, cursor: search.next_cursor });
    expect(next.search.data).toHaveLength(1);
    expect(next.search.next_cursor).toBeNull();
    expect(text(next.result)).toContain('Last page.');
    const ids = [...search.data, ...next.search.data].map((job) => job.id);
    expect(new Set(ids).size).toBe(4);
    expect(text(next.result)).toContain(`Ids: ${next.search.data[0]!.id}.`);

    // one ledger entry per job collected, under the search's id, 4 credits in all
    const ledgerCall = await call(client, 'list_ledger_entries', {});
    expect(ledgerCall.isError).toBeFalsy();
    const ledger = LedgerListResponseSchema.parse(ledgerCall.structuredContent);
    const ofSearch = ledger.data.filter((entry) => entry.request_id === queued.id);
    expect(ofSearch.map((entry) => entry.job_id).sort()).toEqual([...ids].sort());
    expect(ofSearch.every((entry) => entry.operation === 'POST /v1/searches' && entry.credits === 1)).toBe(true);
    expect(text(ledgerCall)).toContain(`${queued.id} (POST /v1/searches) 4 credits`);
    const ofJob = LedgerListResponseSchema.parse(
      (await call(client, 'list_ledger_entries', { job_id: ids[0] })).structuredContent,
    );
    expect(ofJob.data.map((entry) => entry.request_id)).toEqual([queued.id]);

    // the search paid for its jobs: reading one in full is free, and so was every poll
    const job = await call(client, 'get_job', { job_id: ids[0] });
    expect(JobSchema.parse(job.structuredContent).id).toBe(ids[0]);
    expect(text(job)).toContain('Charged 0 credits (96 left)');
    expect(await balance()).toBe(96);
  }, 90_000);

  it('replays the search.completed event to its endpoint for free, with the same event id', async () => {
    const [first] = await receiver.waitFor(hook, 1);
    const event = JSON.parse(first!.raw) as { id: string; type: string; data: { search: { id: string } } };
    expect(event).toMatchObject({ type: 'search.completed', data: { search: { id: search.id } } });

    const replayed = await call(client, 'replay_event', { event_id: event.id });
    expect(replayed.isError).toBeFalsy();
    expect(WebhookReplayResponseSchema.parse(replayed.structuredContent)).toEqual({
      event_id: event.id,
      status: 'queued',
    });
    const arrivals = await receiver.waitFor(hook, 2);
    expect((JSON.parse(arrivals[1]!.raw) as { id: string }).id).toBe(event.id);
    expect(await balance()).toBe(96);
  });

  it('lists the endpoint with a hint, reveals its secret only with reveal: true, and rotates it', async () => {
    const listed = await call(client, 'list_webhook_endpoints', {});
    expect(listed.isError).toBeFalsy();
    const endpoint = WebhookEndpointListResponseSchema.parse(listed.structuredContent).data.find(
      (e) => e.url === hook,
    )!;
    expect(endpoint).toMatchObject({
      secret_hint: expect.stringMatching(/^whsec_….{4}$/),
      used_by: { async_searches: 1, async_search_ids: [search.id] },
    });

    // without reveal: true nothing is sent, and every problem of the call is told at once
    const refused = await call(client, 'get_webhook_secret', { url: 'not a url' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^invalid_request: 2 problems with the arguments\. The call was not sent/);
    expect(text(refused)).toContain('[param: url]');
    expect(text(refused)).toContain('[param: reveal]');

    const revealed = await call(client, 'get_webhook_secret', { url: hook, reveal: true });
    expect(revealed.isError).toBeFalsy();
    const { secret } = WebhookEndpointSecretSchema.parse(revealed.structuredContent);
    expect(endpoint.secret_hint).toBe(`whsec_…${secret.slice(-4)}`);
    const [delivery] = receiver.at(hook);
    expect(signatureValid(delivery!.headers['service-signature'], delivery!.raw, secret)).toBe(true);

    // rotated without reveal: the new secret's hint only, nowhere in the answer the secret itself
    const rotatedCall = await call(client, 'rotate_webhook_secret', { url: hook });
    expect(rotatedCall.isError).toBeFalsy();
    const rotated = RotatedSecretSchema.parse(rotatedCall.structuredContent);
    expect(rotated.secret).toBeUndefined();
    expect(rotated.previous_expires_at).not.toBeNull();
    const current = WebhookEndpointSecretSchema.parse(
      (await call(client, 'get_webhook_secret', { url: hook, reveal: true })).structuredContent,
    ).secret;
    expect(current).not.toBe(secret);
    expect(rotated.secret_hint).toBe(`whsec_…${current.slice(-4)}`);
    expect(JSON.stringify(rotatedCall)).not.toContain(current);

    // during the overlap a delivery verifies with the old secret and with the new one
    const { id: eventId } = JSON.parse(delivery!.raw) as { id: string };
    await call(client, 'replay_event', { event_id: eventId });
    const [, , third] = await receiver.waitFor(hook, 3);
    expect(signatureValid(third!.headers['service-signature'], third!.raw, secret)).toBe(true);
    expect(signatureValid(third!.headers['service-signature'], third!.raw, current)).toBe(true);

    // with reveal: true the new secret comes back; an overlap of 0 ends the old one at once
    const shown = RotatedSecretSchema.parse(
      (
        await call(client, 'rotate_webhook_secret', {
          url: hook,
          reveal: true,
          previous_expires_in_seconds: 0,
        })
      ).structuredContent,
    );
    expect(shown.secret).toMatch(/^whsec_/);
    expect(shown.previous_expires_at).toBeNull();
    expect(await balance()).toBe(96);
  });
});

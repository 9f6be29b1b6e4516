import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, connect, text } from './mcp-client.js';
import { admin, api, createAccount, eventually, Receiver, stack, uniqueWord } from './stack.js';

/** The MCP server's refusals: the API's errors as tool errors, its plan rules, rate limits and keys. */
describe('the MCP server over Streamable HTTP: refusals', () => {
  const receiver = new Receiver();
  let account: { account_id: string; live_key: string; test_key: string };
  let client: Client;
  const word = uniqueWord();
  const providers = ['provider_a'];

  beforeAll(async () => {
    await receiver.start();
    account = await createAccount({ plan: 'pro', credits: 100 });
    client = await connect(account.live_key);
  });
  afterAll(async () => {
    await client?.close();
    await receiver.stop();
  });

  it('answers a call with several wrong arguments with every problem at once, before any request', async () => {
    const before = (await api('/v1/account', { key: account.live_key })).body!['credits_remaining'];
    const result = await call(client, 'search_jobs', {
      filters: { titel_or: ['engineer'], posted_within_days: 0 },
      limit: 500,
      max_credits: 5,
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const [head, ...lines] = text(result).split('\n');
    expect(head).toBe('invalid_request: 3 problems with the arguments. The call was not sent: nothing was charged.');
    expect(lines).toEqual(
      expect.arrayContaining([
        '- unknown_filter: Unknown filter "titel_or". Did you mean "title_or"? [param: filters.titel_or]',
        expect.stringMatching(
          /^- invalid_request: filters\.posted_within_days: .* \[param: filters\.posted_within_days\]$/,
        ),
        expect.stringMatching(/^- invalid_request: limit: .* \[param: limit\]$/),
      ]),
    );
    expect(lines).toHaveLength(3);
    expect((await api('/v1/account', { key: account.live_key })).body!['credits_remaining']).toBe(before);
  });

  it('keeps the plan rules: watches on a starter plan are plan_required', async () => {
    const starter = await createAccount({ plan: 'starter', credits: 10 });
    const starterClient = await connect(starter.live_key);
    try {
      const result = await call(starterClient, 'create_watch', {
        type: 'company',
        domain: 'example.com',
        webhook_url: receiver.endpoint(),
      });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        new RegExp(
          String.raw`^plan_required \(HTTP 403\): .*\[required_plan: pro\] ` +
            String.raw`\[upgrade_url: https?:\/\/\S+\] \[request_id: req_\w+\]$`,
        ),
      );
    } finally {
      await starterClient.close();
    }
  });

  it(
    "keeps the account's rate limit: every MCP message counts, and past the limit the POST itself is 429 " +
      'with its wait, so the tool call runs nothing and charges nothing',
    async () => {
      const limited = await createAccount({ plan: 'pro', credits: 50, rate_limit: { limit: 6, window_seconds: 60 } });
      const limitedClient = await connect(limited.live_key);
      try {
        // initialize and notifications/initialized were two; the list a third: three tool calls fit
        await limitedClient.listTools();
        for (let i = 0; i < 3; i++) expect((await call(limitedClient, 'get_account')).isError).toBeFalsy();
        const refused = call(limitedClient, 'search_jobs', {
          filters: { title_or: [word] },
          waterfall: { providers },
          max_credits: 5,
        });
        await expect(refused).rejects.toBeInstanceOf(StreamableHTTPError);
        await expect(refused).rejects.toMatchObject({ code: 429, message: expect.stringMatching(/rate_limited/) });
      } finally {
        await limitedClient.close();
      }
      // nothing ran: the account is limited now, so its balance is read through the admin API (a
      // top-up of 1 answers it), after the time a search would take: the untouched 50 plus 1
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(
        (await admin('POST', `/accounts/${limited.account_id}/credits`, { amount: 1 }))!['credits_remaining'],
      ).toBe(51);
    },
  );

  it('refuses a missing, malformed or revoked key with 401 and WWW-Authenticate: Bearer', async () => {
    await expect(connect(undefined)).rejects.toMatchObject({ code: 401 });
    await expect(connect('svc_live_notakey')).rejects.toBeInstanceOf(StreamableHTTPError);

    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"$/);
    expect(await missing.json()).toMatchObject({
      error: { code: 'unauthorized', request_id: missing.headers.get('x-request-id') },
    });

    const revokedKey = (await createAccount({ plan: 'pro', credits: 1 })).live_key;
    expect((await post({ authorization: `Bearer ${revokedKey}` })).status).toBe(200);
    const revoke = await fetch(`${stack.adminUrl}/admin/keys/${revokedKey}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(revoke.status).toBeLessThan(300);
    await eventually(
      async () => ((await post({ authorization: `Bearer ${revokedKey}` })).status === 401 ? true : undefined),
      5_000,
      'the revoked key refused',
    );
    const revoked = await post({ authorization: `Bearer ${revokedKey}` });
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+", error="invalid_token"/);

    // GET (server stream) and DELETE (session end) do not exist on a stateless server, keyed or not
    const stream = await fetch(`${stack.baseUrl}/mcp`, {
      headers: { authorization: `Bearer ${account.live_key}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
    expect((await fetch(`${stack.baseUrl}/mcp`, { method: 'DELETE' })).status).toBe(401);
  });

  it("refuses another origin's page with 403, and answers a batch of one with an array", async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${stack.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.live_key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const ping = { jsonrpc: '2.0', id: 7, method: 'ping' };
    expect((await post({ origin: 'https://evil.example' }, ping)).status).toBe(403);
    expect((await post({ origin: stack.baseUrl }, ping)).status).toBe(200);
    for (const method of ['ping', 'tools/list']) {
      const one = await post({}, [{ jsonrpc: '2.0', id: 7, method }]);
      expect(one.status).toBe(200);
      expect(await one.json()).toEqual([expect.objectContaining({ jsonrpc: '2.0', id: 7, result: expect.anything() })]);
    }
  });
});

import { addWorldJob, api, createAccount, eventually, Receiver, stack, uniqueWord } from '@jobs/e2e-support';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { lastBar, launch, screenshot, seriousViolations } from './browser.js';

/** The bound every gateway replica keeps for a revoked key (ApiKeyService). */
const REVOCATION_BOUND_MS = 1_000;
const DASHBOARD = `${stack.baseUrl}/dashboard`;
/** The colour of destructive actions (styles.css). */
const DANGER = 'rgb(179, 38, 30)';

describe('the customer dashboard in a browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: { account_id: string; live_key: string; test_key: string };
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    account = await createAccount({ plan: 'pro', credits: 1000 });
    browser = await launch();
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver.stop();
  });

  async function open(hash: string, heading: string): Promise<void> {
    await page.goto(`${DASHBOARD}#/${hash}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page
      .locator('[aria-busy="true"]')
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 })
      .catch(() => undefined);
  }

  async function accessibleAndShot(name: string): Promise<void> {
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, name);
  }

  it('serves the page with a strict Content-Security-Policy and no inline script', async () => {
    const response = await page.goto(DASHBOARD);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await page.getByLabel('Live API key').waitFor();
    await accessibleAndShot('sign-in');
  });

  it('serves the same page at /dashboard/, and the sign-in page says how to get a key and links the docs', async () => {
    const response = await page.goto(`${DASHBOARD}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByLabel('Live API key').waitFor();
    expect(await page.getByText('The operator of the service issues your account and its first key').count()).toBe(1);
    const docs = page.getByRole('link', { name: 'documentation' });
    expect(await docs.getAttribute('href')).toBe('/docs');
    expect((await fetch(`${stack.baseUrl}/docs`)).status).toBe(200);
    // any other name under /dashboard/ is no page
    expect((await fetch(`${DASHBOARD}/nope`)).status).toBe(404);
  });

  it(
    'refuses a test key and a wrong key in words, then signs in ' +
      'with a live key into an HttpOnly SameSite=Strict cookie, the ' +
      'key kept nowhere',
    async () => {
      await page.getByLabel('Live API key').fill(account.test_key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'live key' }).waitFor();
      await page.getByLabel('Live API key').fill('svc_live_wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();

      await page.getByLabel('Live API key').fill(account.live_key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();

      const cookies = await context.cookies();
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatchObject({
        name: 'dashboard_session',
        httpOnly: true,
        sameSite: 'Strict',
        path: '/dashboard/api',
        secure: false,
      });
      expect(cookies[0]!.value).not.toContain(account.live_key);
      const stored = await page.evaluate(() =>
        JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
      );
      expect(stored).not.toContain('svc_live_');
      expect(await page.evaluate(() => document.cookie)).toBe('');
    },
  );

  it('refuses a change without the CSRF token, or from another origin', async () => {
    const without = await page.evaluate(
      async () =>
        (
          await fetch('/dashboard/api/keys', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"mode":"live"}',
          })
        ).status,
    );
    expect(without).toBe(403);
    const cookie = (await context.cookies())[0]!;
    const token = (
      await page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string })
    ).csrf_token;
    const foreign = await fetch(`${stack.baseUrl}/dashboard/api/keys`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `${cookie.name}=${cookie.value}`,
        'x-csrf-token': token,
        origin: 'https://evil.example',
      },
      body: '{"mode":"live"}',
    });
    expect(foreign.status).toBe(403);
    // The same request from the dashboard's own origin passes: the refusals were the token and the origin.
    const own = await fetch(`${stack.baseUrl}/dashboard/api/keys`, {
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(own.status).toBe(200);
  });

  it(
    'creates a labelled key shown once with a copy button, ' +
      'revokes it in red, and the API refuses it within a second',
    async () => {
      await open('keys', 'API keys');
      await page.getByLabel('Label (optional)').fill('CI pipeline');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByLabel('New API key');
      await shown.waitFor();
      const newKey = (await shown.textContent())!.trim();
      expect(newKey).toMatch(/^svc_live_[0-9a-z]{32}$/);
      expect((await api('/v1/account', { key: newKey })).status).toBe(200);
      await page.getByRole('button', { name: 'Copy the new key' }).click();
      await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newKey);
      // the label is in the list, beside the prefix
      const prefix = newKey.slice(0, 12);
      const row = page.locator('tr', { hasText: prefix });
      await row.filter({ hasText: 'CI pipeline' }).waitFor();
      await accessibleAndShot('keys');

      // destructive actions are red: the row's Revoke (outlined) and the dialog's Revoke key (filled)
      const revoke = page.getByRole('button', { name: `Revoke key ${prefix}` });
      expect(await revoke.evaluate((button) => getComputedStyle(button).color)).toBe(DANGER);
      expect(
        await page
          .getByRole('button', { name: 'Create key' })
          .evaluate((button) => getComputedStyle(button).backgroundColor),
      ).not.toBe(DANGER);
      await revoke.click();
      const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
      await dialog.waitFor();
      expect(
        await dialog
          .getByRole('button', { name: 'Revoke key' })
          .evaluate((button) => getComputedStyle(button).backgroundColor),
      ).toBe(DANGER);
      expect(await dialog.textContent()).toContain('CI pipeline');
      await screenshot(page, 'keys-revoke-confirmation');
      const revoked = page.waitForResponse(
        (r) => r.url().includes('/dashboard/api/keys/') && r.request().method() === 'DELETE',
      );
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      expect((await revoked).status()).toBe(200);
      const revokedAt = Date.now();
      const refused = await eventually(
        async () => ((await api('/v1/account', { key: newKey })).status === 401 ? Date.now() : undefined),
        5_000,
        'the revoked key refused',
      );
      expect(refused - revokedAt).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
      await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
      // the announcement may come before the list is read again: wait for the key's row to say so
      await page.locator('tr', { hasText: prefix }).filter({ hasText: 'revoked' }).waitFor({ timeout: 5_000 });
      // The session's own key still works.
      expect((await api('/v1/account', { key: account.live_key })).status).toBe(200);

      // a new action clears the last message: a failing create leaves no "revoked" behind it
      await page.route('**/dashboard/api/keys', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({
                error: {
                  code: 'invalid_request',
                  param: 'label',
                  message: 'label: Too big: expected string to have <=60 characters',
                },
              }),
            })
          : route.continue(),
      );
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('alert').filter({ hasText: 'Label is too long (at most 60 characters).' }).waitFor();
      await page.unroute('**/dashboard/api/keys');
      expect(await page.getByRole('status').filter({ hasText: 'revoked' }).count()).toBe(0);
      expect(await page.getByText('label:', { exact: false }).count()).toBe(0);
    },
  );

  it(
    'shows credits, a whole last bar in the chart, and the ledger ' +
      'one row per request with its jobs behind it, or filtered by ' +
      'job',
    async () => {
      const word = uniqueWord();
      for (let i = 0; i < 3; i++) await addWorldJob({ providers: ['provider_a'], shared_word: word });
      const search = await api('/v1/jobs/search', {
        key: account.live_key,
        body: { filters: { title_or: [word] }, waterfall: { strategy: 'max_coverage' }, limit: 5 },
      });
      expect(search.status).toBe(200);
      const jobs = search.body!['data'] as { id: string }[];
      expect(jobs.length).toBe(3);
      const requestId = String((search.body!['metadata'] as { request_id: string }).request_id);
      const jobId = jobs[0]!.id;

      await open('usage', 'Usage');
      await page.getByTestId('credits-remaining').waitFor();
      expect(await page.getByTestId('credits-remaining').textContent()).toBe('997');
      await page.locator('.chart canvas').first().waitFor();
      // today's bar, the chart's last, is drawn whole: as wide as a bar of a day is, inside the plot
      expect(await lastBar(page)).toEqual({ drawn: true, whole: true, inside: true });

      // one row for the search, with its three lines behind the toggle
      const ledger = page.getByTestId('ledger');
      await ledger.waitFor();
      const row = ledger.locator(`tr[data-request-id="${requestId}"]`);
      await row.waitFor();
      expect(await ledger.locator('tbody > tr[data-request-id]').count()).toBe(1);
      expect(await row.textContent()).toContain('POST /v1/jobs/search');
      expect(await ledger.textContent()).not.toContain(jobId);
      const toggle = row.getByRole('button', { name: `Show the 3 lines of request ${requestId}` });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      const lines = page.getByTestId(`lines-of-${requestId}`);
      await lines.waitFor();
      expect(await lines.locator('tbody tr').count()).toBe(3);
      for (const job of jobs) expect(await lines.textContent()).toContain(job.id);
      expect(
        await row
          .getByRole('button', { name: `Hide the 3 lines of request ${requestId}` })
          .getAttribute('aria-expanded'),
      ).toBe('true');
      await accessibleAndShot('usage');

      await page.getByLabel('Filter by job id').fill('not-a-job');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('alert').filter({ hasText: 'job_' }).waitFor();
      await page.getByLabel('Filter by job id').fill(jobId);
      await page.getByRole('button', { name: 'Filter' }).click();
      await eventually(
        async () => ((await page.getByTestId('ledger').locator('tbody tr').count()) === 1 ? true : undefined),
        10_000,
        'one ledger line for the job',
      );
      expect(await page.getByTestId('ledger').textContent()).toContain('charged');
      expect(await page.getByTestId('ledger').textContent()).toContain(requestId);
    },
  );

  it('lists, creates, pauses and resumes (by keyboard) and deletes watches', async () => {
    await open('watches', 'Watches');
    await page.getByText('No watches yet.').waitFor();
    await page.getByLabel('Company domain').fill('acme-dashboard.example');
    await page.getByLabel('Webhook URL').fill(receiver.endpoint());
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
    await page.locator('td', { hasText: 'acme-dashboard.example' }).waitFor();
    await accessibleAndShot('watches');

    // the server refuses a domain with a scheme: said in words, the success before it gone
    await page.getByLabel('Company domain').fill('https://acme.example/jobs');
    await page.getByRole('button', { name: 'Create watch' }).click();
    const refusal = page
      .getByRole('alert')
      .filter({ hasText: 'Company domain: enter a domain such as acme.com, without https:// or a path.' });
    await refusal.waitFor();
    expect(await refusal.textContent()).not.toMatch(/pattern|\^|Invalid|Error: domain/);
    expect(await page.getByRole('status').filter({ hasText: 'created' }).count()).toBe(0);
    await screenshot(page, 'watches-refused');

    const row = page.locator('tr', { hasText: 'acme-dashboard.example' });
    const watchId = (await row.locator('code').textContent())!.trim();
    const publicStatus = async () =>
      ((await api('/v1/watches', { key: account.live_key })).body!['data'] as { id: string; status: string }[]).find(
        (w) => w.id === watchId,
      )?.status;
    expect(await row.locator('td').nth(3).textContent()).toBe('active');
    // Pause with the keyboard: focus the button, Enter; the row says paused, the button offers Resume and keeps the
    // focus.
    await page.getByRole('button', { name: `Pause watch ${watchId}` }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Watch ${watchId} paused` })
      .waitFor();
    expect(await row.locator('td').nth(3).textContent()).toBe('paused');
    const resumeButton = page.getByRole('button', { name: `Resume watch ${watchId}` });
    expect(await resumeButton.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await publicStatus()).toBe('paused');
    await accessibleAndShot('watches-paused');
    // Space resumes it (the same focused button).
    await page.keyboard.press('Space');
    await page
      .getByRole('status')
      .filter({ hasText: `Watch ${watchId} resumed` })
      .waitFor();
    expect(await row.locator('td').nth(3).textContent()).toBe('active');
    expect(await publicStatus()).toBe('active');

    // An error is told in words (the server's answer to this one change made to fail in the browser).
    await page.route('**/dashboard/api/watches/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'internal_error', message: 'The service is busy. Try again.' } }),
          })
        : route.continue(),
    );
    await page.getByRole('button', { name: `Pause watch ${watchId}` }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Watch ${watchId} could not be paused: The service is busy. Try again.` })
      .waitFor();
    await page.unroute('**/dashboard/api/watches/*');
    expect(await row.locator('td').nth(3).textContent()).toBe('active');

    const deleteButton = page.getByRole('button', { name: /^Delete watch / });
    expect(await deleteButton.evaluate((button) => getComputedStyle(button).color)).toBe(DANGER);
    await deleteButton.click();
    const confirmDelete = page
      .getByRole('dialog', { name: 'Delete this watch?' })
      .getByRole('button', { name: 'Delete watch' });
    expect(await confirmDelete.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(DANGER);
    await confirmDelete.click();
    await page.getByText('No watches yet.').waitFor();
  });

  it('shows a delivery with its attempts and replays it: the new attempt appears', async () => {
    const hook = receiver.endpoint();
    const job = await addWorldJob({ providers: ['provider_a'] });
    const started = await api('/v1/searches', {
      key: account.live_key,
      body: { filters: { title_or: [job.keyword] }, limit: 5, webhook_url: hook },
    });
    expect(started.status).toBe(202);
    await receiver.waitFor(hook, 1, 120_000);

    await open('deliveries', 'Webhook deliveries');
    const event = page.locator('article[data-event-id]').filter({ hasText: 'search.completed' }).first();
    // the receiver has the request before the dispatcher has written the attempt's outcome (the
    // page does not poll): refresh until it is there, as the replay's attempt below
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await event.waitFor();
        return (await event.locator('[data-attempt-outcome="succeeded"]').count()) > 0 ? true : undefined;
      },
      60_000,
      'the first attempt shown',
      500,
    );
    expect(await event.textContent()).toContain('HTTP 200');
    await accessibleAndShot('deliveries');

    const eventId = (await event.getAttribute('data-event-id'))!;
    await event.getByRole('button', { name: `Replay event ${eventId}` }).click();
    await page.getByRole('status').filter({ hasText: 'Replay of' }).waitFor();
    await receiver.waitFor(hook, 2, 60_000);
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        const replay = page.locator(
          `article[data-event-id="${eventId}"] tr[data-delivery-kind="replay"] [data-attempt-outcome="succeeded"]`,
        );
        await page.locator(`article[data-event-id="${eventId}"]`).waitFor();
        return (await replay.count()) > 0 ? true : undefined;
      },
      60_000,
      'the replay attempt shown',
      500,
    );
    await screenshot(page, 'deliveries-after-replay');
  });

  it(
    'lists webhook endpoints with what uses them, reveals a ' +
      'secret behind a confirmation, copies it, and rotates it',
    async () => {
      const hook = receiver.endpoint();
      const watch = await api('/v1/watches', {
        key: account.live_key,
        body: { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: hook },
      });
      expect(watch.status).toBe(201);
      const secretFromApi = async () =>
        String(
          (await api('/v1/webhook_endpoints/secret', { key: account.live_key, body: { url: hook } })).body!['secret'],
        );

      await open('endpoints', 'Webhook endpoints');
      const row = page.locator(`tr[data-endpoint-url="${hook}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('1 watch');
      await accessibleAndShot('endpoints');

      // reveal: nothing shows until the confirmation
      await page.getByRole('button', { name: `Reveal secret of ${hook}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Reveal this secret?' });
      await dialog.waitFor();
      expect(await page.getByTestId('shown-secret').count()).toBe(0);
      await screenshot(page, 'endpoints-reveal-confirmation');
      await dialog.getByRole('button', { name: 'Reveal secret' }).click();
      const shown = page.getByLabel(`Signing secret of ${hook}`, { exact: true });
      await shown.waitFor();
      const revealed = (await shown.textContent())!.trim();
      expect(revealed).toMatch(/^whsec_/);
      expect(revealed).toBe(await secretFromApi());

      // copy
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(DASHBOARD).origin });
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await page.getByRole('status').filter({ hasText: 'copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(revealed);
      await accessibleAndShot('endpoints-secret');

      // rotate with an hour of overlap: a new secret shown, the API agrees, the row's hint follows
      await page.getByRole('button', { name: `Rotate secret of ${hook}` }).click();
      const rotate = page.getByRole('dialog', { name: 'Rotate this secret?' });
      await rotate.waitFor();
      await rotate.getByLabel('The old secret keeps signing deliveries for').selectOption({ label: 'one hour' });
      await accessibleAndShot('endpoints-rotate-confirmation');
      await rotate.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('status').filter({ hasText: 'rotated' }).waitFor();
      const rotated = (await page.getByLabel(`Signing secret of ${hook}`, { exact: true }).textContent())!.trim();
      expect(rotated).not.toBe(revealed);
      expect(rotated).toBe(await secretFromApi());
      await row
        .filter({ hasText: rotated.slice(-4) })
        .filter({ hasText: 'previous one valid until' })
        .waitFor();

      // a failure is told in words, and changes nothing
      await page.route('**/dashboard/api/webhook_endpoints/secret/rotate', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'internal_error', message: 'The service is busy. Try again.' } }),
        }),
      );
      await page.getByRole('button', { name: `Rotate secret of ${hook}` }).click();
      await page
        .getByRole('dialog', { name: 'Rotate this secret?' })
        .getByRole('button', { name: 'Rotate secret' })
        .click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'The secret could not be rotated: The service is busy. Try again.' })
        .waitFor();
      await page.unroute('**/dashboard/api/webhook_endpoints/secret/rotate');
      expect(await secretFromApi()).toBe(rotated);

      await page.getByRole('button', { name: 'Hide secret' }).click();
      expect(await page.getByTestId('shown-secret').count()).toBe(0);
      await api(`/v1/watches/${String(watch.body!['id'])}`, { key: account.live_key, method: 'DELETE' });
    },
  );

  it('shows the providers and runs a sandbox search', async () => {
    await open('providers', 'Providers');
    await page.locator('td', { hasText: 'own_index' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(7);
    await accessibleAndShot('providers');

    await open('sandbox', 'Sandbox explorer');
    await page.getByRole('button', { name: 'Run sandbox search' }).click();
    await page.locator('caption', { hasText: 'credits charged' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await accessibleAndShot('sandbox');
  });

  it('moves through the pages by keyboard', async () => {
    await open('keys', 'API keys');
    // Navigation puts focus on the page's heading; backwards from it: sign-out, the docs, the page links, the skip
    // link.
    expect(await focusedText()).toBe('API keys');
    const seen: string[] = [];
    for (let i = 0; i < 20 && seen[seen.length - 1] !== 'Skip to content'; i++) {
      await page.keyboard.press('Shift+Tab');
      seen.push((await focusedText()) ?? '');
    }
    expect(seen).toEqual([
      'Sign out',
      'Docs',
      'Sandbox explorer',
      'Providers',
      'Webhook endpoints',
      'Webhook deliveries',
      'Watches',
      'Usage',
      'API keys',
      'Skip to content',
    ]);
    for (let i = 0; i < 10 && (await focusedText()) !== 'Usage'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    // wait on the heading's id: the link just pressed also reads "Usage", so its text alone
    // would let the wait end before focus moved (it failed so, 2 runs in 4)
    await eventually(
      async () => ((await page.evaluate(() => document.activeElement?.id)) === 'page-title' ? true : undefined),
      5_000,
      'focus on the Usage heading',
    );
    expect(await focusedText()).toBe('Usage');
  });

  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());

  it('signs out: the session cookie no longer opens anything', async () => {
    const cookie = (await context.cookies())[0]!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Live API key').waitFor();
    expect(await context.cookies()).toEqual([]);
    const after = await fetch(`${stack.baseUrl}/dashboard/api/keys`, {
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(after.status).toBe(401);
  });

  it('ends the sessions of a key once that key is revoked', async () => {
    const other = await createAccount({ plan: 'pro', credits: 10 });
    const signIn = await fetch(`${stack.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: other.live_key }),
    });
    expect(signIn.status).toBe(201);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${stack.baseUrl}/dashboard/api/account`, { headers: { cookie } })).status).toBe(200);
    const res = await fetch(`${stack.adminUrl}/admin/keys/${other.live_key}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(res.status).toBe(204);
    await eventually(
      async () =>
        (await fetch(`${stack.baseUrl}/dashboard/api/account`, { headers: { cookie } })).status === 401
          ? true
          : undefined,
      REVOCATION_BOUND_MS + 500,
      'the session refused',
    );
  });
});

import { addWorldJob, api, createAccount, eventually, Receiver, stack } from '@jobs/e2e-support';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, seriousViolations } from './browser.js';

/** The bound every gateway replica keeps for a revoked key (ApiKeyService). */
const REVOCATION_BOUND_MS = 1_000;
const DASHBOARD = `${stack.baseUrl}/dashboard`;

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
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver.stop();
  });

  async function open(hash: string, heading: string): Promise<void> {
    await page.goto(`${DASHBOARD}#/${hash}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => undefined);
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

  it('refuses a test key and a wrong key in words, then signs in with a live key into an HttpOnly SameSite=Strict cookie, the key kept nowhere', async () => {
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
    expect(cookies[0]).toMatchObject({ name: 'dashboard_session', httpOnly: true, sameSite: 'Strict', path: '/dashboard/api', secure: false });
    expect(cookies[0]!.value).not.toContain(account.live_key);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(stored).not.toContain('svc_live_');
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('refuses a change without the CSRF token, or from another origin', async () => {
    const without = await page.evaluate(async () => (await fetch('/dashboard/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mode":"live"}' })).status);
    expect(without).toBe(403);
    const cookie = (await context.cookies())[0]!;
    const token = (await page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()) as { csrf_token: string })).csrf_token;
    const foreign = await fetch(`${stack.baseUrl}/dashboard/api/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${cookie.name}=${cookie.value}`, 'x-csrf-token': token, origin: 'https://evil.example' },
      body: '{"mode":"live"}',
    });
    expect(foreign.status).toBe(403);
    // The same request from the dashboard's own origin passes: the refusals were the token and the origin.
    const own = await fetch(`${stack.baseUrl}/dashboard/api/keys`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(own.status).toBe(200);
  });

  it('creates a key shown once, and a revoked key is refused by the API within a second', async () => {
    await open('keys', 'API keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New API key');
    await shown.waitFor();
    const newKey = (await shown.textContent())!.trim();
    expect(newKey).toMatch(/^svc_live_[0-9a-z]{32}$/);
    expect((await api('/v1/account', { key: newKey })).status).toBe(200);
    await accessibleAndShot('keys');

    const prefix = newKey.slice(0, 12);
    await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await screenshot(page, 'keys-revoke-confirmation');
    const revoked = page.waitForResponse((r) => r.url().includes('/dashboard/api/keys/') && r.request().method() === 'DELETE');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    expect((await revoked).status()).toBe(200);
    const revokedAt = Date.now();
    const refused = await eventually(async () => ((await api('/v1/account', { key: newKey })).status === 401 ? Date.now() : undefined), 5_000, 'the revoked key refused');
    expect(refused - revokedAt).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
    await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
    // the announcement may come before the list is read again: wait for the key's row to say so
    await page.locator('tr', { hasText: prefix }).filter({ hasText: 'revoked' }).waitFor({ timeout: 5_000 });
    // The session's own key still works.
    expect((await api('/v1/account', { key: account.live_key })).status).toBe(200);
  });

  it('shows credits, a chart of credits per day, and the ledger of a search, filtered by job', async () => {
    const job = await addWorldJob({ providers: ['provider_a'] });
    const search = await api('/v1/jobs/search', { key: account.live_key, body: { filters: { title_or: [job.keyword] }, waterfall: { strategy: 'max_coverage' }, limit: 5 } });
    expect(search.status).toBe(200);
    const jobs = search.body!['data'] as { id: string }[];
    expect(jobs.length).toBe(1);
    const jobId = jobs[0]!.id;

    await open('usage', 'Usage');
    await page.getByTestId('credits-remaining').waitFor();
    expect(await page.getByTestId('credits-remaining').textContent()).toBe('999');
    await page.locator('.chart canvas').first().waitFor();
    await page.getByTestId('ledger').waitFor();
    expect(await page.getByTestId('ledger').textContent()).toContain(jobId);
    await accessibleAndShot('usage');

    await page.getByLabel('Filter by job id').fill('not-a-job');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('alert').filter({ hasText: 'job_' }).waitFor();
    await page.getByLabel('Filter by job id').fill(jobId);
    await page.getByRole('button', { name: 'Filter' }).click();
    await eventually(async () => ((await page.getByTestId('ledger').locator('tbody tr').count()) === 1 ? true : undefined), 10_000, 'one ledger line for the job');
    expect(await page.getByTestId('ledger').textContent()).toContain('charged');
  });

  it('lists, creates, pauses and resumes (by keyboard) and deletes watches', async () => {
    await open('watches', 'Watches');
    await page.getByText('No watches yet.').waitFor();
    await page.getByLabel('Company domain').fill('acme-dashboard.example');
    await page.getByLabel('Webhook URL').fill(receiver.endpoint());
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
    await page.locator('td', { hasText: 'acme-dashboard.example' }).waitFor();
    await accessibleAndShot('watches');

    const row = page.locator('tr', { hasText: 'acme-dashboard.example' });
    const watchId = (await row.locator('code').textContent())!.trim();
    const publicStatus = async () => ((await api('/v1/watches', { key: account.live_key })).body!['data'] as { id: string; status: string }[]).find((w) => w.id === watchId)?.status;
    expect(await row.locator('td').nth(3).textContent()).toBe('active');
    // Pause with the keyboard: focus the button, Enter; the row says paused, the button offers Resume and keeps the focus.
    await page.getByRole('button', { name: `Pause watch ${watchId}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: `Watch ${watchId} paused` }).waitFor();
    expect(await row.locator('td').nth(3).textContent()).toBe('paused');
    const resumeButton = page.getByRole('button', { name: `Resume watch ${watchId}` });
    expect(await resumeButton.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await publicStatus()).toBe('paused');
    await accessibleAndShot('watches-paused');
    // Space resumes it (the same focused button).
    await page.keyboard.press('Space');
    await page.getByRole('status').filter({ hasText: `Watch ${watchId} resumed` }).waitFor();
    expect(await row.locator('td').nth(3).textContent()).toBe('active');
    expect(await publicStatus()).toBe('active');

    // An error is told in words (the server's answer to this one change made to fail in the browser).
    await page.route('**/dashboard/api/watches/*', (route) =>
      route.request().method() === 'PATCH' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal_error', message: 'The service is busy. Try again.' } }) }) : route.continue(),
    );
    await page.getByRole('button', { name: `Pause watch ${watchId}` }).click();
    await page.getByRole('alert').filter({ hasText: `Watch ${watchId} could not be paused: The service is busy. Try again.` }).waitFor();
    await page.unroute('**/dashboard/api/watches/*');
    expect(await row.locator('td').nth(3).textContent()).toBe('active');

    await page.getByRole('button', { name: /^Delete watch / }).click();
    await page.getByRole('dialog', { name: 'Delete this watch?' }).getByRole('button', { name: 'Delete watch' }).click();
    await page.getByText('No watches yet.').waitFor();
  });

  it('shows a delivery with its attempts and replays it: the new attempt appears', async () => {
    const hook = receiver.endpoint();
    const job = await addWorldJob({ providers: ['provider_a'] });
    const started = await api('/v1/searches', { key: account.live_key, body: { filters: { title_or: [job.keyword] }, limit: 5, webhook_url: hook } });
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
        const replay = page.locator(`article[data-event-id="${eventId}"] tr[data-delivery-kind="replay"] [data-attempt-outcome="succeeded"]`);
        await page.locator(`article[data-event-id="${eventId}"]`).waitFor();
        return (await replay.count()) > 0 ? true : undefined;
      },
      60_000,
      'the replay attempt shown',
      500,
    );
    await screenshot(page, 'deliveries-after-replay');
  });

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
    // Navigation puts focus on the page's heading; backwards from it: sign-out, the page links, the skip link.
    expect(await focusedText()).toBe('API keys');
    const seen: string[] = [];
    for (let i = 0; i < 20 && seen[seen.length - 1] !== 'Skip to content'; i++) {
      await page.keyboard.press('Shift+Tab');
      seen.push((await focusedText()) ?? '');
    }
    expect(seen).toEqual(['Sign out', 'Sandbox explorer', 'Providers', 'Webhook deliveries', 'Watches', 'Usage', 'API keys', 'Skip to content']);
    for (let i = 0; i < 10 && (await focusedText()) !== 'Usage'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    // wait on the heading's id: the link just pressed also reads "Usage", so its text alone
    // would let the wait end before focus moved (it failed so, 2 runs in 4)
    await eventually(async () => ((await page.evaluate(() => document.activeElement?.id)) === 'page-title' ? true : undefined), 5_000, 'focus on the Usage heading');
    expect(await focusedText()).toBe('Usage');
  });

  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());

  it('signs out: the session cookie no longer opens anything', async () => {
    const cookie = (await context.cookies())[0]!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Live API key').waitFor();
    expect(await context.cookies()).toEqual([]);
    const after = await fetch(`${stack.baseUrl}/dashboard/api/keys`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(after.status).toBe(401);
  });

  it('ends the sessions of a key once that key is revoked', async () => {
    const other = await createAccount({ plan: 'pro', credits: 10 });
    const signIn = await fetch(`${stack.baseUrl}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: other.live_key }) });
    expect(signIn.status).toBe(201);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${stack.baseUrl}/dashboard/api/account`, { headers: { cookie } })).status).toBe(200);
    const res = await fetch(`${stack.adminUrl}/admin/keys/${other.live_key}`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.adminToken}` } });
    expect(res.status).toBe(204);
    await eventually(async () => ((await fetch(`${stack.baseUrl}/dashboard/api/account`, { headers: { cookie } })).status === 401 ? true : undefined), REVOCATION_BOUND_MS + 500, 'the session refused');
  });
});

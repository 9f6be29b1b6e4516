// Signing in and out of the dashboard: the page's security headers, the sign-in form, the session
// cookie and its CSRF token, and the end of a session when its key is revoked.
import { createAccount, eventually, stack } from '@jobs/e2e-support';
import { DASHBOARD, REVOCATION_BOUND_MS, type DashboardSession } from './dashboard-session.js';

/** The first tests of the session: they sign it in. */
export function signInTests(session: DashboardSession): void {
  const { accessibleAndShot } = session;

  it('serves the page with a strict Content-Security-Policy and no inline script', async () => {
    const { page } = session;
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
    const { page } = session;
    const response = await page.goto(`${DASHBOARD}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByLabel('Live API key').waitFor();
    expect(await page.getByText('The operator of the service issues your account and its first key').count()).toBe(1);
    // a signed-out visitor is no error: the page's question for a session is answered, not refused
    expect(session.consoleErrors).toEqual([]);
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
      const { page, context, account } = session;
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
    const { page, context } = session;
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
}

/** The last tests of the session: they sign it out. */
export function signOutTests(session: DashboardSession): void {
  it('signs out: the session cookie no longer opens anything', async () => {
    const { page, context } = session;
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
}

// The signed-in dashboard's account pages: API keys (created, copied, revoked) and usage (credits,
// the chart, the ledger).
import { addWorldJob, api, eventually, uniqueWord } from '@jobs/e2e-support';
import { lastBar, screenshot } from './browser.js';
import { DANGER, REVOCATION_BOUND_MS, type DashboardSession } from './dashboard-session.js';

export function accountPageTests(session: DashboardSession): void {
  const { open, accessibleAndShot } = session;

  it(
    'creates a labelled key shown once with a copy button, ' +
      'revokes it in red, and the API refuses it within a second',
    async () => {
      const { page, account } = session;
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
      const { page, account } = session;
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
}

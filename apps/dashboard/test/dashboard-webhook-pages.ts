// The signed-in dashboard's webhook pages: watches (created, paused, resumed, deleted), deliveries
// with their attempts and replays, and webhook endpoints with their signing secrets.
import { addWorldJob, api, eventually, uniqueWord } from '@jobs/e2e-support';
import { screenshot } from './browser.js';
import { DANGER, DASHBOARD, type DashboardSession } from './dashboard-session.js';

export function webhookPageTests(session: DashboardSession): void {
  const { open, accessibleAndShot } = session;

  it('lists, creates, pauses and resumes (by keyboard) and deletes watches', async () => {
    const { page, account, receiver } = session;
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
    const { page, account, receiver } = session;
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
      const { page, context, account, receiver } = session;
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

      // a failure is told in words, and the page keeps showing the secret in force (the refusal is
      // the browser's own, so what the page shows is all there is to check)
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
      expect((await page.getByLabel(`Signing secret of ${hook}`, { exact: true }).textContent())!.trim()).toBe(rotated);

      await page.getByRole('button', { name: 'Hide secret' }).click();
      expect(await page.getByTestId('shown-secret').count()).toBe(0);
      await api(`/v1/watches/${String(watch.body!['id'])}`, { key: account.live_key, method: 'DELETE' });
    },
  );
}

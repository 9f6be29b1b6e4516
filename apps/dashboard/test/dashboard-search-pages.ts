// The signed-in dashboard's search pages: an async search started with filters and a budget, its
// status, jobs found, cost and jobs; the event feed with a replay; a search watch with the filters
// the API takes.
import { addWorldJob, api, eventually } from '@jobs/e2e-support';
import type { DashboardSession } from './dashboard-session.js';

export function searchPageTests(session: DashboardSession): void {
  const { open, accessibleAndShot } = session;

  it('starts an async search with filters and a budget, and shows its status, jobs found, cost and jobs', async () => {
    const { page, receiver } = session;
    const hook = receiver.endpoint();
    const job = await addWorldJob({ providers: ['provider_a'] });
    await open('searches', 'Async searches');
    await page.getByLabel('Title keywords (comma-separated)').fill(job.keyword);
    await page.getByLabel('Countries (comma-separated codes)').fill('gb');
    await page.getByText('More filters').click();
    await page.getByLabel('Include closed jobs').check();
    await page.getByLabel('Jobs to collect').fill('5');
    await page.getByLabel('Budget (credits, at most)').fill('5');
    await page.getByLabel('Webhook URL for search.completed (optional)').fill(hook);
    const sent = page.waitForRequest((r) => r.url().endsWith('/dashboard/api/searches') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Start async search' }).click();
    expect((await sent).postDataJSON()).toEqual({
      filters: { title_or: [job.keyword], country_code_or: ['GB'], include_closed: true },
      limit: 5,
      waterfall: { max_credits: 5 },
      webhook_url: hook,
    });
    const started = page.getByRole('status').filter({ hasText: 'started' });
    await started.waitFor();
    const searchId = /srch_[A-Za-z0-9_-]+/.exec((await started.textContent())!)![0];

    const row = page.locator(`tr[data-search-id="${searchId}"]`);
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await row.waitFor();
        // partial when a provider failed: its jobs are read all the same
        return /completed|partial/.test((await row.textContent())!) ? true : undefined;
      },
      120_000,
      'the search completed',
      500,
    );
    expect(await row.textContent()).toContain('1 of 5');
    expect(await row.textContent()).toContain('1 credit of 5');
    await page.getByRole('button', { name: `Show the jobs of ${searchId}` }).click();
    await page.getByTestId('search-jobs').locator(`tr[data-job-id]`).first().waitFor();
    expect(await page.getByTestId('search-jobs').textContent()).toContain(job.title);
    await accessibleAndShot('searches');

    // its search.completed in the feed, replayed to the same receiver
    await receiver.waitFor(hook, 1, 60_000);
    await open('events', 'Event feed');
    const event = page.getByTestId('events').locator('tr[data-event-id]').filter({ hasText: searchId });
    await event.waitFor();
    expect(await event.textContent()).toContain('search.completed');
    await accessibleAndShot('events');
    const eventId = (await event.getAttribute('data-event-id'))!;
    await event.getByRole('button', { name: `Replay event ${eventId}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Replay of ${eventId} queued` })
      .waitFor();
    await receiver.waitFor(hook, 2, 60_000);
  });

  it('creates a search watch with the filters the API takes', async () => {
    const { page, account, receiver } = session;
    await open('watches', 'Watches');
    await page.getByLabel('Type').selectOption('search');
    // with no filter it would watch every new job in the market: refused before anything is sent
    const watchesNow = async () => (await api('/v1/watches', { key: account.live_key })).body!['data'];
    const before = await watchesNow();
    await page.getByLabel('Webhook URL').fill(receiver.endpoint());
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByRole('alert').filter({ hasText: 'Add at least one filter' }).waitFor();
    expect(await watchesNow()).toEqual(before);
    await page.getByLabel('Title keywords (comma-separated)').fill('platform, data');
    await page.getByLabel('Countries (comma-separated codes)').fill('GB');
    await page.getByText('More filters').click();
    await page.getByLabel('senior', { exact: true }).check();
    await page.getByLabel('Remote').selectOption('remote');
    await page.getByLabel('Minimum yearly salary').fill('80000');
    await page.getByLabel('Webhook URL').fill(receiver.endpoint());
    await page.getByRole('button', { name: 'Create watch' }).click();
    const created = page.getByRole('status').filter({ hasText: 'created' });
    await created.waitFor();
    const watchId = /wat_[A-Za-z0-9_-]+/.exec((await created.textContent())!)![0];
    const row = page.locator(`tr[data-watch-id="${watchId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(
      'titles: platform, data; countries: GB; seniority: senior; remote only; salary from 80000 a year',
    );
    const listed = (await api('/v1/watches', { key: account.live_key })).body!['data'] as {
      id: string;
      filters: unknown;
    }[];
    expect(listed.find((w) => w.id === watchId)?.filters).toEqual({
      title_or: ['platform', 'data'],
      country_code_or: ['GB'],
      seniority_or: ['senior'],
      remote: true,
      salary_min_gte: 80000,
    });
    await accessibleAndShot('watches-search');
    expect((await api(`/v1/watches/${watchId}`, { key: account.live_key, method: 'DELETE' })).status).toBe(204);
  });
}

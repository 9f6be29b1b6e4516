import { addWorldJob, api, createAccount, eventually, stack } from '@jobs/e2e-support';
import type { Browser, Page } from 'playwright-core';
import { consoleErrors, fitsTheViewport, launch, screenshot, seriousViolations } from './browser.js';

const DASHBOARD = `${stack.baseUrl}/dashboard`;

describe('the customer dashboard on a 390 px phone screen', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let searchId: string;
  let account: { account_id: string; live_key: string; test_key: string };

  beforeAll(async () => {
    account = await createAccount({ plan: 'pro', credits: 100 });
    // something on every page: a search (ledger and chart), a watch, a labelled key
    const job = await addWorldJob({ providers: ['provider_a'] });
    expect(
      (
        await api('/v1/jobs/search', {
          key: account.live_key,
          body: { filters: { title_or: [job.keyword] }, limit: 5 },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api('/v1/watches', {
          key: account.live_key,
          body: {
            type: 'company',
            domain: 'a-rather-long-company-domain-name.example',
            webhook_url: 'https://hooks.example.com/a/long/path/for/the/jobs/webhook',
          },
        })
      ).status,
    ).toBe(201);
    // an async search that has finished: a row on the searches page, an event in the feed and its
    // delivery (to an address that never answers: attempts with their error)
    const started = await api('/v1/searches', {
      key: account.live_key,
      body: {
        filters: { title_or: [job.keyword] },
        limit: 5,
        waterfall: { max_credits: 5 },
        webhook_url: 'https://hooks.example.com/a/long/path/for/the/search/webhook',
      },
    });
    expect(started.status).toBe(202);
    searchId = String(started.body!['id']);
    await eventually(
      async () => {
        const read = await api(`/v1/searches/${searchId}`, { key: account.live_key });
        return ['completed', 'partial', 'failed'].includes(String(read.body!['status'])) ? true : undefined;
      },
      120_000,
      'the async search finished',
      500,
    );
    browser = await launch();
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
    });
    page = await context.newPage();
    errors = consoleErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function fitsAndAccessible(name: string): Promise<void> {
    await page
      .locator('[aria-busy="true"]')
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 })
      .catch(() => undefined);
    expect(await fitsTheViewport(page, 390)).toEqual({ viewport: 390, page: 390, beyond: [], cutOff: [] });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `${name}-390`);
  }

  it('signs in at /dashboard/ within the screen', async () => {
    await page.goto(`${DASHBOARD}/`);
    await page.getByLabel('Live API key').waitFor();
    await fitsAndAccessible('sign-in');
    await page.getByLabel('Live API key').fill(account.live_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(errors).toEqual([]);
  });

  it.each([
    ['keys', 'API keys', 'table'],
    ['usage', 'Usage', '[data-testid="ledger"]'],
    ['searches', 'Async searches', 'tr[data-search-id]'],
    ['watches', 'Watches', 'td:has-text("a-rather-long-company-domain-name.example")'],
    ['events', 'Event feed', 'tr[data-event-id]'],
    ['deliveries', 'Webhook deliveries', 'article[data-event-id] tr[data-delivery-kind]'],
    ['providers', 'Providers', 'td:has-text("own_index")'],
    ['sandbox', 'Sandbox explorer', 'form'],
  ])(
    'shows the %s page as wide as the screen, with no serious accessibility violation',
    async (hash, heading, content) => {
      await page.goto(`${DASHBOARD}/#/${hash}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.locator(content).first().waitFor();
      if (hash === 'keys') {
        await page.getByLabel('Label (optional)').fill('Phone');
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.getByLabel('New API key').waitFor();
      }
      if (hash === 'usage') {
        await page.locator('.chart canvas').first().waitFor();
        await page.getByRole('button', { name: /^Show the 1 line of request req_/ }).click();
        await page.locator('[data-testid^="lines-of-"]').waitFor();
      }
      if (hash === 'searches') {
        await page.getByText('More filters').click();
        await page.getByRole('button', { name: `Show the jobs of ${searchId}` }).click();
        await page.getByTestId('search-jobs').locator('tr[data-job-id]').first().waitFor();
      }
      if (hash === 'watches') {
        await page.getByLabel('Type').selectOption('search');
        await page.getByText('More filters').click();
      }
      if (hash === 'sandbox') {
        await page.getByRole('button', { name: 'Run sandbox search' }).click();
        await page.locator('caption', { hasText: 'credits charged' }).waitFor();
      }
      await fitsAndAccessible(hash);
    },
  );
});

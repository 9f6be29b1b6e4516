import { addWorldJob, api, createAccount, stack } from '@jobs/e2e-support';
import type { Browser, Page } from 'playwright-core';
import { fitsTheViewport, launch, screenshot, seriousViolations } from './browser.js';

const DASHBOARD = `${stack.baseUrl}/dashboard`;

describe('the customer dashboard on a 390 px phone screen', () => {
  let browser: Browser;
  let page: Page;
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
    browser = await launch();
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
    });
    page = await context.newPage();
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
    expect(await fitsTheViewport(page)).toEqual({ viewport: 390, page: 390, beyond: [] });
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
  });

  it.each([
    ['keys', 'API keys', 'table'],
    ['usage', 'Usage', '[data-testid="ledger"]'],
    ['watches', 'Watches', 'td:has-text("a-rather-long-company-domain-name.example")'],
    ['deliveries', 'Webhook deliveries', 'p'],
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
        await page.getByRole('button', { name: /^Show the 1 line of request / }).click();
        await page.locator('[data-testid^="lines-of-"]').waitFor();
      }
      if (hash === 'sandbox') {
        await page.getByRole('button', { name: 'Run sandbox search' }).click();
        await page.locator('caption', { hasText: 'credits charged' }).waitFor();
      }
      await fitsAndAccessible(hash);
    },
  );
});

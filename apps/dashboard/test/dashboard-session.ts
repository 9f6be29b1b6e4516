// The browser session the dashboard's tests share, one test after the other as a customer goes
// through it: Chromium at 1280 x 900 signed in (by the sign-in test) to a Pro account of its own.
import { createAccount, Receiver, stack } from '@jobs/e2e-support';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  consoleErrors,
  fitsTheViewport,
  launch,
  screenshot,
  seriousViolations,
  timestampsOverTwoLines,
} from './browser.js';

/** The bound every gateway replica keeps for a revoked key (ApiKeyService). */
export const REVOCATION_BOUND_MS = 1_000;
export const DASHBOARD = `${stack.baseUrl}/dashboard`;
/** The colour of destructive actions (styles.css). */
export const DANGER = 'rgb(179, 38, 30)';

/** The session's browser, page and account are set by `start` (beforeAll): read them inside a test. */
export class DashboardSession {
  browser!: Browser;
  context!: BrowserContext;
  page!: Page;
  /** The page's console errors since the browser started (signed out at first). */
  consoleErrors!: string[];
  account!: { account_id: string; live_key: string; test_key: string };
  readonly receiver = new Receiver();

  async start(): Promise<void> {
    await this.receiver.start();
    this.account = await createAccount({ plan: 'pro', credits: 1000 });
    this.browser = await launch();
    this.context = await this.browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    this.page = await this.context.newPage();
    this.consoleErrors = consoleErrors(this.page);
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await this.receiver.stop();
  }

  readonly open = async (hash: string, heading: string): Promise<void> => {
    await this.page.goto(`${DASHBOARD}#/${hash}`);
    await this.page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await this.page
      .locator('[aria-busy="true"]')
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 })
      .catch(() => undefined);
  };

  /** No serious accessibility violation, no timestamp over two lines, nothing wider than the window; a screenshot. */
  readonly accessibleAndShot = async (name: string): Promise<void> => {
    expect(await seriousViolations(this.page)).toEqual([]);
    expect(await timestampsOverTwoLines(this.page)).toEqual([]);
    expect(await fitsTheViewport(this.page)).toEqual({ viewport: 1280, page: 1280, beyond: [], cutOff: [] });
    await screenshot(this.page, `${name}-1280`);
  };

  readonly focusedText = () => this.page.evaluate(() => document.activeElement?.textContent?.trim());
}

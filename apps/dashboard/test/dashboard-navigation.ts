// The signed-in dashboard's remaining pages (providers, the sandbox) and moving between pages by keyboard.
import { eventually } from '@jobs/e2e-support';
import type { DashboardSession } from './dashboard-session.js';

export function navigationTests(session: DashboardSession): void {
  const { open, accessibleAndShot, focusedText } = session;

  it('shows the providers and runs a sandbox search', async () => {
    const { page } = session;
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
    const { page } = session;
    await open('keys', 'API keys');
    // Navigation puts focus on the page's heading; backwards from it: sign-out, the docs, the page links, the skip
    // link.
    expect(await focusedText()).toBe('API keys');
    const seen: string[] = [];
    for (let i = 0; i < 24 && seen[seen.length - 1] !== 'Skip to content'; i++) {
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
      'Event feed',
      'Watches',
      'Async searches',
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

    // the skip link moves focus to the content and stays on the page (the hash names the page)
    for (let i = 0; i < 24 && (await focusedText()) !== 'Skip to content'; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await eventually(
      async () => ((await page.evaluate(() => document.activeElement?.id)) === 'main' ? true : undefined),
      5_000,
      'focus on the content',
    );
    expect(await page.evaluate(() => location.hash)).toBe('#/usage');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
  });
}

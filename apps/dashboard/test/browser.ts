import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The clone's root: the e2e target runs in apps/dashboard. */
export const ROOT = join(process.cwd(), '..', '..');
/** Screenshots of each page, kept as test artifacts (gitignored with the rest of .local/). */
export const ARTIFACTS = process.env['DASHBOARD_ARTIFACTS_DIR'] ?? join(ROOT, '.local', 'artifacts', 'dashboard');

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome'];

function findChromium(): string | undefined {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const name of CANDIDATES) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found) return found;
  }
  return undefined;
}

/**
 * Debian's chromium: found on PATH (or CHROMIUM_PATH), else installed with apt-get (the test
 * machines run as root); when neither works the tests stop with what to do, never skipped.
 */
export function chromiumPath(): string {
  let path = findChromium();
  if (path) return path;
  const asRoot = process.getuid?.() === 0;
  try {
    process.stderr.write(
      '[dashboard e2e] no Chromium found; installing Debian package chromium (apt-get install -y chromium) ...\n',
    );
    const prefix = asRoot ? [] : ['sudo', '-n'];
    const [command, ...args] = [...prefix, 'apt-get', 'install', '-y', '--no-install-recommends', 'chromium'];
    try {
      execFileSync(command!, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch {
      execFileSync(asRoot ? 'apt-get' : 'sudo', asRoot ? ['update'] : ['-n', 'apt-get', 'update'], {
        stdio: 'inherit',
      });
      execFileSync(command!, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    }
  } catch (error) {
    throw new Error(
      `The dashboard's browser tests need Chromium and could not ` +
        `install it (${String(error)}). Install it with "apt-get ` +
        `install -y chromium" (as root) or set CHROMIUM_PATH to a ` +
        `Chromium binary.`,
    );
  }
  path = findChromium();
  if (!path) throw new Error('apt-get installed chromium but no chromium binary is on PATH; set CHROMIUM_PATH.');
  return path;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // root in a container has no user namespace sandbox; /dev/shm may be small.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Runs axe-core in the page and returns its serious and critical violations, in words. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays in force.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
  )) as axe.AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Whether the page is exactly as wide as the viewport: its scroll width, the elements that reach
 * past the viewport's right edge outside a box that scrolls sideways on its own, and the boxes that
 * do scroll sideways (`cutOff`: a table in one shows only part of itself, its buttons maybe not).
 */
export async function fitsTheViewport(
  page: Page,
  /** The screen's width: a mobile browser widens its viewport to a page wider than the screen. */
  screen?: number,
): Promise<{ viewport: number; page: number; beyond: string[]; cutOff: string[] }> {
  return page.evaluate((screen) => {
    const viewport = window.innerWidth;
    const edge = screen ?? viewport;
    const scrollsOnItsOwn = (element: Element | null): boolean => {
      for (let node = element?.parentElement ?? null; node && node !== document.body; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') return true;
      }
      return false;
    };
    const beyond = [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > edge + 0.5 && !scrollsOnItsOwn(element))
      .slice(0, 5)
      .map((element) => {
        const id = element.id ? `#${element.id}` : '';
        const classes =
          element.className && typeof element.className === 'string'
            ? `.${element.className.split(' ').join('.')}`
            : '';
        return (
          `${element.tagName.toLowerCase()}${id}${classes} ` +
          `(${Math.round(element.getBoundingClientRect().right)} px)`
        );
      });
    const cutOff = [...document.body.querySelectorAll('.table-scroll')]
      .filter((box) => box.scrollWidth > box.clientWidth + 0.5)
      .map((box) => `${box.getAttribute('aria-label') ?? 'a table'} (${box.scrollWidth} px in ${box.clientWidth} px)`);
    return { viewport, page: document.documentElement.scrollWidth, beyond, cutOff };
  }, screen);
}

/**
 * The timestamps of the page that take more than two lines, and those shown in a table or a list
 * outside a <time> element (which keeps its day and its time whole).
 */
export async function timestampsOverTwoLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const lines = (element: Element) => new Set([...element.getClientRects()].map((rect) => Math.round(rect.top))).size;
    const tall = [...document.querySelectorAll('main time')]
      .filter((time) => lines(time) > 2)
      .map((time) => `${time.textContent ?? ''} over ${lines(time)} lines`);
    const stamp = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/;
    const walker = document.createTreeWalker(document.querySelector('main') ?? document.body, NodeFilter.SHOW_TEXT);
    const bare: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (stamp.test(node.textContent ?? '') && parent?.closest('td, li') && !parent.closest('time'))
        bare.push(`${(node.textContent ?? '').trim()} outside <time>`);
    }
    return [...tall, ...bare];
  });
}

/** Collects the page's console errors (a failed request shows as one) from now on. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

/**
 * The usage chart's last bar, read from its canvas: the widest run of bar pixels on a line just
 * above the plot's floor, rightmost. Whole: at least three quarters of a day's slot times the bar
 * share (0.7); inside: it ends before the plot's right edge.
 */
export async function lastBar(page: Page): Promise<{ drawn: boolean; whole: boolean; inside: boolean }> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('.chart canvas')!;
    const over = document.querySelector<HTMLElement>('.chart .u-over')!;
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const left = Math.round((over.getBoundingClientRect().left - canvas.getBoundingClientRect().left) * scale);
    const width = Math.round(over.getBoundingClientRect().width * scale);
    const y = Math.round((over.getBoundingClientRect().bottom - canvas.getBoundingClientRect().top) * scale) - 3;
    const row = canvas.getContext('2d')!.getImageData(0, y, canvas.width, 1).data;
    const isBar = (x: number) => row[x * 4 + 2]! > 150 && row[x * 4]! < 150 && row[x * 4 + 3]! > 0;
    let end = -1;
    for (let x = canvas.width - 1; x >= 0; x--)
      if (isBar(x)) {
        end = x;
        break;
      }
    if (end < 0) return { drawn: false, whole: false, inside: false };
    let start = end;
    while (start > 0 && isBar(start - 1)) start--;
    const slot = width / 30;
    return {
      drawn: true,
      whole: end - start + 1 >= Math.min(0.7 * slot, 40 * scale) * 0.75,
      inside: end < left + width - 1,
    };
  });
}

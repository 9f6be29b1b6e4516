import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

/**
 * The Content-Security-Policy of the dashboard's page: its own scripts, styles, fetches and
 * images only (data: images for the CSS toolkit's icons), no inline script or style element, no
 * outside host, no framing, no plugins, forms and base URL pinned.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Headers of every dashboard response, the page's and the API's. */
export const DASHBOARD_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Only plain names in assets/: nothing outside the build, whatever the path says. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface DashboardFile {
  body: Buffer;
  type: string;
  /** Vite's hashed asset names never change content: cached for a year; the page never. */
  cacheControl: string;
}

/**
 * apps/dashboard/dist of this checkout, found through the workspace's package link rather than
 * relative to this file, which runs from src/, dist/ or the gateway's bundle.
 */
export function defaultDashboardDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@jobs/dashboard/package.json')), 'dist');
}

/** The built dashboard's files, read once each and kept (the build is fixed while the gateway runs). */
export class DashboardFiles {
  private readonly cache = new Map<string, DashboardFile>();

  constructor(private readonly dir: string) {}

  page(): Promise<DashboardFile | null> {
    return this.read('index.html', 'no-store');
  }

  asset(name: string): Promise<DashboardFile | null> {
    if (!ASSET_NAME.test(name) || name.includes('..')) return Promise.resolve(null);
    return this.read(join('assets', name), 'public, max-age=31536000, immutable');
  }

  private async read(relative: string, cacheControl: string): Promise<DashboardFile | null> {
    const hit = this.cache.get(relative);
    if (hit) return hit;
    const type = TYPES[extname(relative)];
    if (!type) return null;
    try {
      const file = { body: await readFile(join(this.dir, relative)), type, cacheControl };
      this.cache.set(relative, file);
      return file;
    } catch {
      return null;
    }
  }
}

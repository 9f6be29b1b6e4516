// What a new stack is given through the admin API before anyone uses it: the first refresh pass
// (every stack) and the demo account (`npm run up`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { say, waitFor } from './process.ts';
import { ROOT, type StackSettings } from './settings.ts';

export interface DemoAccount {
  account_id: string;
  live_key: string;
  test_key: string;
}

/**
 * One refresh pass before anything else, awaited: a fresh store takes in the own crawler's whole
 * catalog (the own index answers searches from the store) and the partners' recent listings,
 * as a store that has been running would hold them. Later passes only re-verify.
 */
export async function firstRefreshPass(settings: StackSettings): Promise<void> {
  await (
    await startFirstRefreshPass(settings)
  )();
}

/**
 * Asks for the first refresh pass (the own crawler's catalog and the partners' newest into the
 * store); resolves once it is accepted, with a function that waits for it to complete.
 */
export async function startFirstRefreshPass(settings: StackSettings): Promise<() => Promise<void>> {
  const admin = `http://127.0.0.1:${settings.adminPort}/admin`;
  const headers = { authorization: `Bearer ${settings.adminToken}` };
  const started = Date.now();
  const answer = await fetch(`${admin}/refresh`, { method: 'POST', headers });
  if (answer.status !== 202) throw new Error(`POST /admin/refresh answered ${answer.status}`);
  const { refresh_id: refreshId } = (await answer.json()) as { refresh_id: string };
  say(`first refresh pass ${refreshId}: the own crawler's catalog into the store ...`);
  return async () => {
    await waitFor(
      `refresh pass ${refreshId} to complete`,
      async () => {
        const res = await fetch(`${admin}/refresh/${refreshId}`, { headers, signal: AbortSignal.timeout(3000) }).catch(
          () => null,
        );
        return res?.status === 200 && ((await res.json()) as { status: string }).status === 'completed';
      },
      10 * 60_000,
      500,
    );
    say(`first refresh pass done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  };
}

async function adminPost<T>(settings: StackSettings, path: string, body: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${settings.adminPort}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.adminToken}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The demo account of `npm run up`: the one saved in .local while its key still works, else a new one. */
export async function seedDemoAccount(settings: StackSettings): Promise<DemoAccount> {
  const file = join(ROOT, '.local', 'demo-account.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoAccount;
    const res = await fetch(`http://127.0.0.1:${settings.port}/v1/account`, {
      headers: { authorization: `Bearer ${saved.live_key}` },
    }).catch(() => null);
    if (res?.status === 200) return saved;
  }
  const account = await adminPost<DemoAccount>(settings, '/accounts', { plan: 'pro', credits: 10000 });
  writeFileSync(file, JSON.stringify(account, null, 2));
  return account;
}

/** What `npm run up` prints once everything is up. */
export function upBanner(settings: StackSettings, demo: DemoAccount, traceViewer: string): string {
  const base = `http://127.0.0.1:${settings.port}/v1`;
  return `
  The job-data API is up.

    base URL      ${base}
    admin API     http://127.0.0.1:${settings.adminPort}/admin   (Authorization: Bearer ${settings.adminToken})
    demo live key ${demo.live_key}
    demo test key ${demo.test_key}
    dashboard     http://127.0.0.1:${settings.port}/dashboard   (sign in with the demo live key)
    trace viewer  ${traceViewer}

  Try it:

    curl -s ${base}/jobs/search \\
      -H 'Authorization: Bearer ${demo.live_key}' \\
      -H 'Content-Type: application/json' \\
      -d '{"filters":{"title_or":["engineer"]},"limit":5}'

  The own index fills behind this (a first refresh pass; searches answer from the partners meanwhile).
  Logs: ${settings.logDir.replace(ROOT + '/', '')}/<service>.log    Ctrl-C stops everything.
`;
}

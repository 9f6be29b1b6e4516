/**
 * What every service benchmark needs from the running stack: where it is (env, defaulting to the
 * dev stack of `npm run up`), a fresh account of its own, and percentiles of its latencies.
 */
export const baseUrl = process.env['BASE_URL'] ?? 'http://127.0.0.1:8080';
export const adminUrl = process.env['ADMIN_URL'] ?? 'http://127.0.0.1:8081';
export const adminToken = process.env['ADMIN_TOKEN'] ?? 'dev-admin-token';

export interface BenchAccountSettings {
  plan: string;
  credits: number;
  rate_limit?: { limit: number; window_seconds: number };
}

/** Creates an account through the admin API; its id and live key. */
export async function createBenchAccount(settings: BenchAccountSettings): Promise<{ accountId: string; liveKey: string }> {
  const created = await fetch(`${adminUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  if (created.status !== 201) throw new Error(`account creation answered ${created.status}: ${await created.text()}`);
  const body = (await created.json()) as Record<string, unknown>;
  return { accountId: String(body['account_id']), liveKey: String(body['live_key']) };
}

/** The p-th percentile (nearest rank, rounding down) of values sorted ascending; 0 when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * Deterministic fixtures through the admin API (operator.md): companies and openings added to
 * the simulated market, provider behaviour, and the paged ledger of an account.
 */
import { randomBytes } from 'node:crypto';
import type { ProviderSlug } from '@jobs/contracts';
import { api, crawlPending, stack } from './stack.js';
import { eventually } from './webhooks.js';

/** A call to the admin API; throws unless it answers `expect`. */
export async function admin(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  expect = 200,
): Promise<Record<string, unknown> | null> {
  const res = await fetch(`${stack.adminUrl}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expect)
    throw new Error(`admin ${method} ${path} answered ${res.status} (expected ${expect}): ${text}`);
  // a new opening of the own crawler is in the store after the next refresh pass (see crawlPending)
  if (
    method === 'POST' &&
    path === '/world/jobs' &&
    JSON.stringify((body as { providers?: unknown })?.providers ?? []).includes('own_index')
  )
    crawlPending();
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

/**
 * A word no title of the seeded world has and no other call of this returns: 12 random
 * letters, all the same length, so one never starts another (title keywords match word prefixes).
 */
export function uniqueWord(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return `zq${[...randomBytes(10)].map((b) => letters[b % 26]).join('')}`;
}

export type { ProviderSlug };

export interface WorldJobInput {
  providers: ProviderSlug[];
  /** A company made for the job when omitted. */
  company_domain?: string;
  /** A word put first in the title, to find several openings with one keyword. */
  shared_word?: string;
  /** Fields of the opening; null leaves a field out (the default is a complete posting). */
  location?: {
    city?: string | null;
    region?: string | null;
    country_code?: string | null;
    remote?: boolean | null;
  } | null;
  employment_type?: string | null;
  seniority?: string | null;
  salary?: { min: number | null; max: number | null; currency: string; period: 'year' | 'month' | 'hour' } | null;
  description?: string | null;
  apply_url?: string | null;
  /** When the employer posted it (ISO); default now. */
  posted_at?: string;
}

export interface WorldJob {
  worldJobId: string;
  /** The unique word of its title: `title_or: [keyword]` finds exactly this opening. */
  keyword: string;
  title: string;
  companyDomain: string;
}

/** A new company of the simulated market, with a unique domain. */
export async function addWorldCompany(): Promise<string> {
  const domain = `${uniqueWord()}.example`;
  await admin('POST', '/world/companies', { domain, name: `${domain.split('.')[0]} Ltd` }, 201);
  return domain;
}

/** A new opening with a title unique in the world, listed by exactly `providers` from now on. */
export async function addWorldJob(input: WorldJobInput): Promise<WorldJob> {
  const keyword = uniqueWord();
  const capital = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;
  const title = `${input.shared_word ? `${capital(input.shared_word)} ` : ''}${capital(keyword)} Analyst`;
  const { shared_word: _shared, company_domain, ...fields } = input;
  const companyDomain = company_domain ?? (await addWorldCompany());
  const body: Record<string, unknown> = {
    location: { city: 'London', region: 'England', country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'mid',
    salary: { min: 50000, max: 60000, currency: 'GBP', period: 'year' },
    description: `${title}: a test opening.`,
    ...fields,
    company_domain: companyDomain,
    title,
  };
  for (const [field, value] of Object.entries(body)) if (value === null) delete body[field];
  const answer = await admin('POST', '/world/jobs', body, 201);
  return { worldJobId: String(answer!['world_job_id']), keyword, title, companyDomain };
}

/** Simulated provider behaviour (`fail: error` answers 5xx); undo with resetProviders(). */
export async function setProvider(
  slug: ProviderSlug,
  settings: { fail?: 'none' | 'error' | 'timeout'; latency_ms?: number },
): Promise<void> {
  await admin('PUT', `/providers/${slug}`, settings);
}

export async function resetProviders(): Promise<void> {
  await admin('POST', '/providers/reset', undefined, 204);
}

export interface LedgerLine {
  id: string;
  job_id: string | null;
  request_id: string;
  operation: string;
  credits: number;
  reason: 'charged' | 'already_paid';
  created_at: string;
}

/** Every ledger line of the key's account (GET /v1/billing/ledger, all pages), newest first. */
export async function wholeLedger(key: string, jobId?: string): Promise<LedgerLine[]> {
  const lines: LedgerLine[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const query = new URLSearchParams({
      ...(jobId ? { job_id: jobId } : {}),
      ...(cursor ? { cursor } : {}),
    }).toString();
    const res = await api(`/v1/billing/ledger${query ? `?${query}` : ''}`, { key });
    if (res.status !== 200)
      throw new Error(`GET /v1/billing/ledger answered ${res.status}: ${JSON.stringify(res.body)}`);
    const body = res.body as { data: LedgerLine[]; next_cursor: string | null };
    lines.push(...body.data);
    cursor = body.next_cursor;
    if (!cursor) return lines;
  }
  throw new Error('the ledger did not end within 1000 pages');
}

/**
 * Asks for a refresh pass every 10 s until `done` gives a value (a request made while a pass runs
 * is served by the next one), then returns it; throws after `timeoutMs`, naming `what`.
 */
export async function refreshUntil<T>(
  done: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  let nextRefresh = 0;
  return eventually(
    async () => {
      const value = await done();
      if (value !== undefined) return value;
      if (Date.now() >= nextRefresh) {
        await admin('POST', '/refresh', undefined, 202);
        nextRefresh = Date.now() + 10_000;
      }
      return undefined;
    },
    timeoutMs,
    what,
    200,
  );
}

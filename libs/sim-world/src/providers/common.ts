import { countryByCode, currencySymbol, normalizeCountry } from '../vocab/countries.js';
import { FAMILIES, SENIORITY_PAY } from '../vocab/families.js';
import { fnv1a, unit } from '../prng.js';
import type { Listing, ProviderSlug, Salary, SearchQuery, WorldJob } from '../types.js';
import type { World } from '../world.js';

export type QueryParams = Record<string, unknown>;

export interface ProviderRequest {
  /** Parsed query string (repeated keys as arrays). */
  query?: QueryParams;
  /** Parsed JSON body, for providers that search by POST. */
  body?: unknown;
}

export interface ProviderResponse {
  status: number;
  body: unknown;
}

export interface ProviderRoute {
  method: 'GET' | 'POST';
  /** Fastify-style path, `:id` for the provider's job id. */
  path: string;
  operation: 'search' | 'detail';
}

/** One partner's (or the own crawler's) HTTP API over the world, independent of any framework. */
export interface ProviderView {
  readonly slug: ProviderSlug;
  readonly name: string;
  readonly routes: readonly ProviderRoute[];
  search(request: ProviderRequest, at?: number): ProviderResponse;
  detail(providerJobId: string, at?: number): ProviderResponse;
  /** The provider's own error body (used for 400, 404 and 503 answers). */
  errorBody(status: number, message: string, param?: string): unknown;
}

export class BadParam extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'BadParam';
  }
}

export interface ParsedSearch {
  query: SearchQuery;
  offset: number;
  limit: number;
}

/** Per-listing rendering context: deterministic "random" quirks for this provider and job. */
export interface RenderContext {
  listing: Listing;
  job: WorldJob;
  id: string;
  /** Uniform in [0, 1), fixed for (seed, provider, opening, n). */
  quirk(n: number): number;
}

export interface ViewSpec<P extends ParsedSearch> {
  slug: ProviderSlug;
  name: string;
  routes: readonly ProviderRoute[];
  parse(request: ProviderRequest): P;
  render(ctx: RenderContext): unknown;
  envelope(items: unknown[], total: number, parsed: P): unknown;
  detailEnvelope?(item: unknown): unknown;
  errorBody(status: number, message: string, param?: string): unknown;
}

export function createView<P extends ParsedSearch>(world: World, spec: ViewSpec<P>): ProviderView {
  const slugHash = fnv1a(spec.slug);
  const context = (listing: Listing): RenderContext => {
    const jobHash = fnv1a(listing.job.id);
    return {
      listing,
      job: listing.job,
      id: listing.providerJobId,
      quirk: (n) => unit(world.seed, slugHash, jobHash, n),
    };
  };
  return {
    slug: spec.slug,
    name: spec.name,
    routes: spec.routes,
    errorBody: spec.errorBody,
    search(request, at) {
      let parsed: P;
      try {
        parsed = spec.parse(request);
      } catch (error) {
        if (error instanceof BadParam) return { status: 400, body: spec.errorBody(400, error.message, error.param) };
        throw error;
      }
      const result = world.search(spec.slug, parsed.query, parsed.offset, parsed.limit, at);
      return {
        status: 200,
        body: spec.envelope(
          result.listings.map((l) => spec.render(context(l))),
          result.total,
          parsed,
        ),
      };
    },
    detail(providerJobId, at) {
      const listing = world.listing(spec.slug, providerJobId, at);
      if (!listing) return { status: 404, body: spec.errorBody(404, `job ${providerJobId} not found`, 'id') };
      const item = spec.render(context(listing));
      return { status: 200, body: spec.detailEnvelope ? spec.detailEnvelope(item) : item };
    },
  };
}

// ---------------------------------------------------------------- parameter parsing

export function str(q: QueryParams | undefined, name: string): string | undefined {
  const raw = q?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    throw new BadParam(name, `${name} must be a string`);
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/** All values of a parameter: repeated keys, each split on `separator`. */
export function list(q: QueryParams | undefined, name: string, separator: string | RegExp): string[] {
  const raw = q?.[name];
  const values = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return values
    .flatMap((v) => String(v).split(separator))
    .map((v) => v.trim())
    .filter(Boolean);
}

export function int(q: QueryParams | undefined, name: string, min: number, max: number, fallback: number): number {
  const text = str(q, name);
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) throw new BadParam(name, `${name} must be an integer`);
  const n = Number(text);
  if (n < min || n > max) throw new BadParam(name, `${name} must be between ${min} and ${max}`);
  return n;
}

export function bool(
  q: QueryParams | undefined,
  name: string,
  truthy: readonly string[],
  falsy: readonly string[],
): boolean | undefined {
  const text = str(q, name)?.toLowerCase();
  if (text === undefined) return undefined;
  if (truthy.includes(text)) return true;
  if (falsy.includes(text)) return false;
  throw new BadParam(name, `${name} must be one of ${[...truthy, ...falsy].join(', ')}`);
}

/** An ISO 8601 date or date-time (a date alone means midnight UTC). */
export function date(q: QueryParams | undefined, name: string): number | undefined {
  const text = str(q, name);
  if (text === undefined) return undefined;
  const t = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(t)) throw new BadParam(name, `${name} must be an ISO 8601 date`);
  return t;
}

/** Country filter: any known spelling; an unknown one matches nothing (as real boards do). */
export function country(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return normalizeCountry(text) ?? '??';
}

/** Opaque page token: base64url JSON bound to the query it was issued for. */
export function encodeToken(offset: number, query: SearchQuery, extra = ''): string {
  return Buffer.from(JSON.stringify({ o: offset, q: fnv1a(JSON.stringify(query) + extra) })).toString('base64url');
}

export function decodeToken(token: string | undefined, query: SearchQuery, param: string, extra = ''): number {
  if (token === undefined) return 0;
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; q?: unknown };
    if (
      typeof value.o === 'number' &&
      Number.isInteger(value.o) &&
      value.o >= 0 &&
      value.q === fnv1a(JSON.stringify(query) + extra)
    )
      return value.o;
  } catch {
    // fall through
  }
  throw new BadParam(param, `${param} is invalid or belongs to another query`);
}

// ---------------------------------------------------------------- rendering helpers

export function isoSeconds(t: number): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function sentences(text: string | null): string[] {
  return text ? text.split(/(?<=[.!?])\s+/).filter(Boolean) : [];
}

export function countryName(code: string | null): string | null {
  return countryByCode(code)?.name ?? code;
}

function money(n: number, currency: string): string {
  return `${currencySymbol(currency)}${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}

const PERIOD_WORDS = { year: 'a year', month: 'a month', hour: 'an hour' } as const;

/** "£45,000 - £55,000 a year", "From $25 an hour", "Up to €60,000 a year". */
export function salaryText(s: Salary): string {
  const per = PERIOD_WORDS[s.period];
  if (s.min !== null && s.max !== null) return `${money(s.min, s.currency)} - ${money(s.max, s.currency)} ${per}`;
  if (s.min !== null) return `From ${money(s.min, s.currency)} ${per}`;
  return `Up to ${money(s.max ?? 0, s.currency)} ${per}`;
}

/** "$100K - $120K", "€25 - €30/hr", "R$12K/mo". */
export function salaryShort(s: Salary): string {
  const k = (n: number): string =>
    n >= 10_000 ? `${currencySymbol(s.currency)}${Math.round(n / 1000)}K` : money(n, s.currency);
  const suffix = s.period === 'hour' ? '/hr' : s.period === 'month' ? '/mo' : '';
  const range =
    s.min !== null && s.max !== null
      ? `${k(s.min)} - ${k(s.max)}`
      : s.min !== null
        ? `${k(s.min)}+`
        : `up to ${k(s.max ?? 0)}`;
  return `${range}${suffix}`;
}

/** A partner's own salary estimate for postings that declare none (family, level, country). */
export function estimateSalary(job: WorldJob, jitter: number): Salary | null {
  const family = FAMILIES.find((f) => f.family === job.jobFamily);
  const country = countryByCode(job.location.countryCode);
  if (!family || !country || !job.seniority) return null;
  const mid = family.baseUsd * SENIORITY_PAY[job.seniority] * country.payFactor * (0.9 + jitter * 0.2);
  const step = country.round;
  return {
    min: Math.round((mid * 0.9) / step) * step,
    max: Math.round((mid * 1.1) / step) * step,
    currency: country.currency,
    period: country.period,
  };
}

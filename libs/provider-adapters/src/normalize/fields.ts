import { RankedFieldSchema, type RankedField } from '@jobs/contracts';

/** Bare lower-case domain from "https://www.acme.com/", "http://acme.com/", "www.acme.com" or "acme.com". */
export function toDomain(input: string | null | undefined): string | null {
  let t = input?.trim().toLowerCase();
  if (!t) return null;
  t = t
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '');
  return /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(t) ? t : null;
}

/** An http(s) URL as given, or null. */
export function toUrl(input: string | null | undefined): string | null {
  const t = input?.trim();
  if (!t) return null;
  try {
    const u = new URL(t);
    return u.protocol === 'http:' || u.protocol === 'https:' ? t : null;
  } catch {
    return null;
  }
}

/** The largest time a Date can write out (±100,000,000 days from 1970): beyond it toISOString throws. */
const DATE_LIMIT_MS = 8.64e15;

function iso(ms: number): string | null {
  return Number.isFinite(ms) && Math.abs(ms) <= DATE_LIMIT_MS ? new Date(ms).toISOString() : null;
}

/**
 * ISO UTC (`…Z`) from the date shapes partners send: ISO date-times, date only (midnight UTC),
 * RFC 1123 ("Tue, 03 Nov 2026 10:00:00 GMT"), epoch seconds or milliseconds as numbers.
 */
export function toIsoUtc(input: string | number | null | undefined, epochUnit: 's' | 'ms' = 'ms'): string | null {
  if (input === null || input === undefined || input === '') return null;
  if (typeof input === 'number') return iso(epochUnit === 's' ? input * 1000 : input);
  const t = input.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return iso(Date.parse(`${t}T00:00:00Z`));
  if (/^\d{4}-\d{2}-\d{2}T/.test(t) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(t)) return iso(Date.parse(`${t}Z`));
  return iso(Date.parse(t));
}

/** The value when it is one of `allowed`, else null. */
export function enumOrNull<const T extends readonly string[]>(
  value: string | null | undefined,
  allowed: T,
): T[number] | null {
  return value !== null && value !== undefined && (allowed as readonly string[]).includes(value)
    ? (value as T[number])
    : null;
}

/** Key for loose lookups of provider vocabulary: "Full-time", "FULL_TIME", "full time" → "full time". */
export function vocabKey(input: string | null | undefined): string {
  return (input ?? '')
    .trim()
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ');
}

/** Our value for a provider's word in its vocabulary (looked up by vocabKey), or null for a word it lacks. */
export function fromVocab<V extends string>(
  vocab: Readonly<Record<string, V>>,
  word: string | null | undefined,
): V | null {
  return vocab[vocabKey(word)] ?? null;
}

/** The employment types as the partners write them; a partner that has more words adds them. */
export const EMPLOYMENT_WORDS = {
  'full time': 'full_time',
  'part time': 'part_time',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
} as const;

/**
 * The record's `lossy` marker: the fields whose value the provider's vocabulary could not state
 * exactly (`marks[field]` true), in the contract's field order; nothing when every value is exact.
 */
export function lossyFields(marks: Partial<Record<RankedField, boolean>>): { lossy?: RankedField[] } {
  const lossy = RankedFieldSchema.options.filter((field) => marks[field] === true);
  return lossy.length > 0 ? { lossy } : {};
}

/** A date without a time of day ("2026-11-03"): the posting time is known to the day only. */
export function isDateOnly(input: string | null | undefined): boolean {
  return /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(input ?? '');
}

/**
 * Scalar building blocks shared by every public object.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - Timestamps are ISO 8601 date-time strings in UTC with a `Z` suffix (fractional seconds
 *   allowed); offsets such as `+01:00` are rejected, since the spec says "ISO 8601, UTC".
 * - URIs (`apply_url`, `webhook_url`, `doc_url`, ...) must be absolute `http` or `https` URLs.
 *   Loopback and private hosts pass the schema; `WEBHOOK_ALLOW_PRIVATE` is enforced by the
 *   service, not here.
 * - Country codes have the ISO 3166-1 alpha-2 shape (two upper-case letters); `UK` is rejected
 *   with a hint to use `GB`, as the spec calls out. Currency codes have the ISO 4217 shape.
 * - Company domains are trimmed and lower-cased, then must be a bare host name with at least
 *   one dot (no scheme, port or path).
 */
import { z } from 'zod';

export const DateTimeSchema = z.iso.datetime();
export const UrlSchema = z.url({ protocol: /^https?$/ });
export const NonNegativeIntSchema = z.number().int().min(0);
export const ProbabilitySchema = z.number().min(0).max(1);

export const CountryCodeSchema = z
  .string()
  .regex(/^[A-Z]{2}$/, 'Expected an ISO 3166-1 alpha-2 country code (two upper-case letters)')
  .refine((code) => code !== 'UK', 'UK is not an ISO 3166-1 alpha-2 code: use GB');
export type CountryCode = z.infer<typeof CountryCodeSchema>;

export const CurrencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 currency code');
export type CurrencyCode = z.infer<typeof CurrencyCodeSchema>;

export const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  // the store keeps every company's domain without `www.` (libs/matching normalize): a caller's
  // `www.acme.com` names the same company
  .overwrite((domain) => domain.replace(/^www\./, ''))
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    'Expected a bare company domain such as example.com (no scheme, port or path)',
  );
export type Domain = z.infer<typeof DomainSchema>;

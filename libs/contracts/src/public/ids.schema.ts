/**
 * Prefixed ids.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - After its prefix an id holds 1 to 128 characters of `[A-Za-z0-9_-]`; the spec only says
 *   "opaque string", so this is the tightest shape that still admits UUIDs, ULIDs and nanoids.
 * - Cursors are ids too: `cur_` plus the same opaque tail. Clients never build them.
 * - Accounts have no public id; internally (admin API, Kafka) they use the prefix `acc_`.
 */
import { z } from 'zod';

export const ID_PREFIXES = {
  job: 'job_',
  company: 'cmp_',
  search: 'srch_',
  watch: 'wat_',
  event: 'evt_',
  ledgerEntry: 'led_',
  request: 'req_',
  cursor: 'cur_',
  account: 'acc_',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

/** A string schema accepting `<prefix><1..128 of [A-Za-z0-9_-]>`. */
export function prefixedId(prefix: IdPrefix) {
  return z
    .string()
    .regex(
      new RegExp(`^${prefix}[A-Za-z0-9_-]{1,128}$`),
      `Expected an id: ${prefix} then 1 to 128 letters, digits, _ or -`,
    );
}

export const JobIdSchema = prefixedId(ID_PREFIXES.job);
export const CompanyIdSchema = prefixedId(ID_PREFIXES.company);
export const SearchIdSchema = prefixedId(ID_PREFIXES.search);
export const WatchIdSchema = prefixedId(ID_PREFIXES.watch);
export const EventIdSchema = prefixedId(ID_PREFIXES.event);
export const LedgerEntryIdSchema = prefixedId(ID_PREFIXES.ledgerEntry);
export const RequestIdSchema = prefixedId(ID_PREFIXES.request);
/** Cursors carry a signed position, so they may be longer than ids (still URL-safe). */
export const CursorSchema = z
  .string()
  .regex(/^cur_[A-Za-z0-9_-]{1,1024}$/, 'Expected a cursor (cur_...) from a previous page');
export const AccountIdSchema = prefixedId(ID_PREFIXES.account);

export type JobId = z.infer<typeof JobIdSchema>;
export type CompanyId = z.infer<typeof CompanyIdSchema>;
export type SearchId = z.infer<typeof SearchIdSchema>;
export type WatchId = z.infer<typeof WatchIdSchema>;
export type EventId = z.infer<typeof EventIdSchema>;
export type LedgerEntryId = z.infer<typeof LedgerEntryIdSchema>;
export type RequestId = z.infer<typeof RequestIdSchema>;
export type Cursor = z.infer<typeof CursorSchema>;
export type AccountId = z.infer<typeof AccountIdSchema>;

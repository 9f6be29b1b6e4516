import type { NormalizedProviderRecord } from '@jobs/contracts';
import { toCountryCode } from '../normalize/country.js';

export type BoardLocation = NormalizedProviderRecord['location'];

/** US states and Canadian provinces as boards abbreviate them after a city ("Austin, TX"). */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK ' +
    'OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
  ).split(' '),
);
const CA_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

const REMOTE_WORD = /\b(remote|anywhere|distributed|work from home|wfh)\b/i;
const HYBRID_WORD = /\bhybrid\b/i;
const ON_SITE_WORD = /\b(on-?site|in[- ]office)\b/i;

export const UNKNOWN_LOCATION: BoardLocation = { city: null, region: null, country_code: null, remote: null };

/**
 * Whether the place text says how the job is worked: remote (true), hybrid or on-site (false, as
 * the spec's `remote` reads), or nothing (null).
 */
export function remoteFromText(text: string | null | undefined): boolean | null {
  if (!text) return null;
  if (HYBRID_WORD.test(text) || ON_SITE_WORD.test(text)) return false;
  return REMOTE_WORD.test(text) ? true : null;
}

/**
 * A board's free-text location as one place: the first of several ("London, UK; Berlin, Germany",
 * "New York, NY or Remote", "Paris | Lyon"), split at commas into city, region and country
 * ("Austin, TX" is in the US; "Toronto, ON" in Canada; "Berlin, Germany"; "Remote - US" is a
 * country only). Unreadable parts stay null rather than guessed.
 */
export function parseLocationText(text: string | null | undefined): BoardLocation {
  const whole = text?.trim();
  if (!whole) return UNKNOWN_LOCATION;
  const remote = remoteFromText(whole);
  const places = whole
    .split(/\s*(?:;|\||\/|\bor\b|\band\b|\n)\s*/i)
    .map((p) => p.replace(/\(.*?\)/g, '').trim())
    .filter((p) => p !== '');
  for (const place of places) {
    const parsed = parsePlace(place);
    if (parsed.city !== null || parsed.country_code !== null) return { ...parsed, remote };
  }
  return { ...UNKNOWN_LOCATION, remote };
}

function parsePlace(place: string): Omit<BoardLocation, 'remote'> {
  // "Remote - US", "Remote, Germany", "US-Remote": the place is the country the remote job is in
  const bare = place
    .replace(/\b(fully |100% )?(remote|hybrid|on-?site|anywhere)\b/gi, '')
    .replace(/^[\s,:–—-]+|[\s,:–—-]+$/g, '')
    .trim();
  if (bare === '') return { city: null, region: null, country_code: null };
  const parts = bare
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 1) {
    const only = parts[0]!;
    const country = countryOf(only);
    if (country) return { city: null, region: null, country_code: country };
    if (US_STATES.has(only)) return { city: null, region: only, country_code: 'US' };
    return { city: only, region: null, country_code: null };
  }
  const last = parts[parts.length - 1]!;
  const country = countryOf(last);
  if (country) {
    const rest = parts.slice(0, -1);
    return { city: rest[0] ?? null, region: rest.length > 1 ? rest[rest.length - 1]! : null, country_code: country };
  }
  if (US_STATES.has(last)) return { city: parts[0]!, region: last, country_code: 'US' };
  if (CA_PROVINCES.has(last)) return { city: parts[0]!, region: last, country_code: 'CA' };
  return { city: parts[0]!, region: last, country_code: null };
}

/**
 * A country name or code. After a city, a two-letter code that is also a US state or a Canadian
 * province reads as the state ("Austin, CA", "Dover, DE"): boards write states that way far more
 * often than countries; a country is named in full or as ISO3 where it matters ("Berlin, Germany").
 */
function countryOf(text: string): string | null {
  if (/^[A-Z]{2}$/.test(text) && (US_STATES.has(text) || CA_PROVINCES.has(text))) return null;
  return toCountryCode(text);
}

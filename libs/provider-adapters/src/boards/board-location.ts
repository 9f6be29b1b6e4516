import type { NormalizedProviderRecord } from '@jobs/contracts';
import { placesOfCity } from '../normalize/cities.js';
import { toCountryCode } from '../normalize/country.js';

export type BoardLocation = NormalizedProviderRecord['location'];

/** US states by their names, as boards also write them ("Atlanta, Georgia"), to their codes. */
const US_STATE_NAMES = new Map(
  (
    'Alabama:AL Alaska:AK Arizona:AZ Arkansas:AR California:CA Colorado:CO Connecticut:CT Delaware:DE ' +
    'Florida:FL Georgia:GA Hawaii:HI Idaho:ID Illinois:IL Indiana:IN Iowa:IA Kansas:KS Kentucky:KY ' +
    'Louisiana:LA Maine:ME Maryland:MD Massachusetts:MA Michigan:MI Minnesota:MN Mississippi:MS ' +
    'Missouri:MO Montana:MT Nebraska:NE Nevada:NV New_Hampshire:NH New_Jersey:NJ New_Mexico:NM ' +
    'New_York:NY North_Carolina:NC North_Dakota:ND Ohio:OH Oklahoma:OK Oregon:OR Pennsylvania:PA ' +
    'Rhode_Island:RI South_Carolina:SC South_Dakota:SD Tennessee:TN Texas:TX Utah:UT Vermont:VT ' +
    'Virginia:VA Washington:WA West_Virginia:WV Wisconsin:WI Wyoming:WY District_of_Columbia:DC'
  )
    .split(' ')
    .map((entry) => {
      const [name, code] = entry.split(':') as [string, string];
      return [name.replace(/_/g, ' ').toLowerCase(), code] as const;
    }),
);
/** US states and Canadian provinces as boards abbreviate them after a city ("Austin, TX"). */
const US_STATES = new Set(US_STATE_NAMES.values());
const CA_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

const REMOTE_WORD = /\b(remote|anywhere|distributed|work from home|wfh)\b/i;
const HYBRID_WORD = /\bhybrid\b/i;
const ON_SITE_WORD = /\b(on-?site|in[- ]office)\b/i;

/** What separates the places of a text that names several ("London; Berlin", "New York or Remote"). */
const PLACE_SEPARATORS = /\s*(?:;|\||\/|\bor\b|\band\b|\n)\s*/i;

export const UNKNOWN_LOCATION: BoardLocation = { city: null, region: null, country_code: null, remote: null };

/**
 * Parts of the world boards name where a job may be worked from several countries ("Remote -
 * EMEA", "Remote, Americas"): no city and no one country.
 */
const WORLD_REGIONS = new Set([
  'emea',
  'eu',
  'europe',
  'apac',
  'asia',
  'asia pacific',
  'asia-pacific',
  'anz',
  'latam',
  'latin america',
  'americas',
  'north america',
  'south america',
  'africa',
  'middle east',
  'mena',
  'nordics',
  'dach',
  'benelux',
  'worldwide',
  'global',
  'international',
  'anywhere in the world',
]);
const isWorldRegion = (text: string): boolean => WORLD_REGIONS.has(text.trim().toLowerCase());

/** What is left of a place once its remote, hybrid and on-site words are taken out. */
function withoutWorkWords(place: string): string {
  return place
    .replace(/\b(fully |100% )?(remote|hybrid|on-?site|anywhere)\b/gi, '')
    .replace(/^[\s,:–—-]+|[\s,:–—-]+$/g, '')
    .trim();
}

/**
 * Whether the place text names only a part of the world ("Remote - EMEA", "Europe"): the job is
 * in no one country, so no office of the employer says where it is.
 */
export function namesWorldRegion(text: string | null | undefined): boolean {
  if (!text) return false;
  return text
    .split(PLACE_SEPARATORS)
    .map((place) => withoutWorkWords(place.replace(/[()]/g, ' ')))
    .some((place) => place.split(',').some((part) => isWorldRegion(part)));
}

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
  const places = whole.split(PLACE_SEPARATORS).filter((p) => p.trim() !== '');
  for (const written of places) {
    // what brackets hold is read apart: a country there places a place that names none ("Remote
    // (US)", "Remote (Canada)"); anything else there ("(HQ)", "(On-site)") says nothing of where
    const bracketed = [...written.matchAll(/\(([^)]*)\)/g)].map((match) => match[1]!.trim());
    const place = written.replace(/\(.*?\)/g, '').trim();
    let parsed = place === '' ? { city: null, region: null, country_code: null } : parsePlace(place);
    if (parsed.country_code === null) {
      const country = bracketed.map((inner) => toCountryCode(withoutWorkWords(inner))).find((code) => code);
      if (country) parsed = { ...parsed, country_code: country };
    }
    if (parsed.city !== null || parsed.country_code !== null) return { ...parsed, remote };
  }
  return { ...UNKNOWN_LOCATION, remote };
}

function parsePlace(place: string): Omit<BoardLocation, 'remote'> {
  // "Remote - US", "Remote, Germany", "US-Remote": the place is the country the remote job is in
  const bare = withoutWorkWords(place);
  if (bare === '' || isWorldRegion(bare)) return { city: null, region: null, country_code: null };
  const parts = bare
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  // "Remote, EU, Germany" names its country; a part that is a region of the world is no city
  const named = parts.filter((part) => !isWorldRegion(part));
  if (named.length === 0) return { city: null, region: null, country_code: null };
  if (named.length < parts.length) return parsePlace(named.join(', '));
  if (parts.length === 1) {
    const only = parts[0]!;
    // a state's code alone is the state ("TX"): nothing says it is a country
    if (US_STATES.has(only)) return { city: null, region: only, country_code: 'US' };
    if (CA_PROVINCES.has(only)) return { city: only, region: null, country_code: null };
    const country = toCountryCode(only);
    if (country) return { city: null, region: null, country_code: country };
    return { city: only, region: null, country_code: null };
  }
  const last = parts[parts.length - 1]!;
  const rest = parts.slice(0, -1);
  const state = stateAfter(rest[0]!, last);
  if (state) return { city: rest[0]!, region: last, country_code: state };
  const namedState = stateNamedAfter(rest[0]!, last);
  if (namedState) return { city: rest[0]!, region: namedState, country_code: 'US' };
  const country = toCountryCode(last);
  if (country)
    return { city: rest[0] ?? null, region: rest.length > 1 ? rest[rest.length - 1]! : null, country_code: country };
  return { city: parts[0]!, region: last, country_code: null };
}

/**
 * The code of the US state that `name` names after `city` ("Atlanta, Georgia" is GA), or null when
 * it names no state, or names the country of the same name where the city is known to be
 * ("Tbilisi, Georgia"); a city known nowhere reads as in the state, as for state codes.
 */
function stateNamedAfter(city: string, name: string): string | null {
  const code = US_STATE_NAMES.get(name.toLowerCase());
  if (!code) return null;
  const places = placesOfCity(city);
  if (places.length === 0 || places.some((p) => p.countryCode === 'US')) return code;
  return null;
}

/**
 * The country of the state or province that `code` names after `city` ("Austin, TX" is in the US),
 * or null when the code names the country instead. A two-letter code is both for DE (Delaware,
 * Germany), IN, CA, NL and a few more: the city decides where it is known ("Berlin, DE" is in
 * Germany, "Dover, DE" in Delaware); a city known nowhere reads as in the state, as boards write
 * states that way far more often than countries.
 */
function stateAfter(city: string, code: string): 'US' | 'CA' | null {
  const stateCountry = US_STATES.has(code) ? 'US' : CA_PROVINCES.has(code) ? 'CA' : null;
  if (!stateCountry) return null;
  const places = placesOfCity(city);
  if (places.some((p) => p.countryCode === stateCountry && p.region === code)) return stateCountry;
  if (places.some((p) => p.countryCode === code)) return null;
  if (places.length === 0 || places.some((p) => p.countryCode === stateCountry)) return stateCountry;
  return null;
}

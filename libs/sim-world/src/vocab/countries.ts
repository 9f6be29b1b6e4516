import { AMERICAS_COUNTRIES } from './countries-americas.js';
import { ASIA_PACIFIC_AFRICA_COUNTRIES } from './countries-asia-pacific-africa.js';
import { EUROPE_COUNTRIES } from './countries-europe.js';
import type { CountryInfo } from './country-info.js';

export type { CountryInfo } from './country-info.js';

// The market draws countries by their index in COUNTRIES, so this order is part of the world: the
// same WORLD_SEED gives the same market only while it stays as it is. A new country goes last.
const MARKET_ORDER = [
  'US',
  'GB',
  'DE',
  'FR',
  'NL',
  'ES',
  'IT',
  'IE',
  'SE',
  'PL',
  'CA',
  'AU',
  'IN',
  'JP',
  'SG',
  'BR',
  'MX',
  'CH',
  'AT',
  'BE',
  'DK',
  'NO',
  'PT',
  'NZ',
  'ZA',
] as const;

function inMarketOrder(regions: readonly (readonly CountryInfo[])[]): readonly CountryInfo[] {
  const byCode = new Map(regions.flat().map((c) => [c.code, c]));
  if (byCode.size !== MARKET_ORDER.length) throw new Error('every country of a region needs a place in MARKET_ORDER');
  return MARKET_ORDER.map((code) => {
    const country = byCode.get(code);
    if (!country) throw new Error(`no regional data for the market country ${code}`);
    return country;
  });
}

/** The countries of the simulated market, with what salaries and partners need to know. */
export const COUNTRIES: readonly CountryInfo[] = inMarketOrder([
  AMERICAS_COUNTRIES,
  EUROPE_COUNTRIES,
  ASIA_PACIFIC_AFRICA_COUNTRIES,
]);

const BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

export function countryByCode(code: string | null | undefined): CountryInfo | undefined {
  return code ? BY_CODE.get(code.toUpperCase()) : undefined;
}

const ALIASES = new Map<string, string>();
for (const c of COUNTRIES) {
  for (const alias of [c.code, c.iso3, c.name, c.localName ?? c.name]) ALIASES.set(alias.toLowerCase(), c.code);
}
for (const [alias, code] of [
  ['uk', 'GB'],
  ['great britain', 'GB'],
  ['england', 'GB'],
  ['usa', 'US'],
  ['united states of america', 'US'],
  ['holland', 'NL'],
] as const) {
  ALIASES.set(alias, code);
}

/** ISO alpha-2 for any of the ways partners write a country ("UK", "GBR", "Germany", "Deutschland"). */
export function normalizeCountry(input: string | null | undefined): string | undefined {
  if (!input) return undefined;
  return ALIASES.get(input.trim().toLowerCase());
}

const SYMBOLS: Record<string, string> = {
  USD: '$',
  GBP: '£',
  EUR: '€',
  CAD: 'CA$',
  AUD: 'A$',
  INR: '₹',
  JPY: '¥',
  SGD: 'S$',
  BRL: 'R$',
  MXN: 'MX$',
  NZD: 'NZ$',
  ZAR: 'R',
};

/** Currency symbol as a job board prints it, or the ISO code followed by a space. */
export function currencySymbol(currency: string): string {
  return SYMBOLS[currency] ?? `${currency} `;
}

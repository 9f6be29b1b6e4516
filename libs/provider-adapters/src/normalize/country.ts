/** [ISO2, ISO3, English name, German name] as the partners write the countries they send. */
const COUNTRIES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['US', 'USA', 'United States', 'USA'],
  ['GB', 'GBR', 'United Kingdom', 'Vereinigtes Königreich'],
  ['DE', 'DEU', 'Germany', 'Deutschland'],
  ['FR', 'FRA', 'France', 'Frankreich'],
  ['NL', 'NLD', 'Netherlands', 'Niederlande'],
  ['ES', 'ESP', 'Spain', 'Spanien'],
  ['IT', 'ITA', 'Italy', 'Italien'],
  ['IE', 'IRL', 'Ireland', 'Irland'],
  ['SE', 'SWE', 'Sweden', 'Schweden'],
  ['PL', 'POL', 'Poland', 'Polen'],
  ['CA', 'CAN', 'Canada', 'Kanada'],
  ['AU', 'AUS', 'Australia', 'Australien'],
  ['IN', 'IND', 'India', 'Indien'],
  ['JP', 'JPN', 'Japan', 'Japan'],
  ['SG', 'SGP', 'Singapore', 'Singapur'],
  ['BR', 'BRA', 'Brazil', 'Brasilien'],
  ['MX', 'MEX', 'Mexico', 'Mexiko'],
  ['CH', 'CHE', 'Switzerland', 'Schweiz'],
  ['AT', 'AUT', 'Austria', 'Österreich'],
  ['BE', 'BEL', 'Belgium', 'Belgien'],
  ['DK', 'DNK', 'Denmark', 'Dänemark'],
  ['NO', 'NOR', 'Norway', 'Norwegen'],
  ['PT', 'PRT', 'Portugal', 'Portugal'],
  ['NZ', 'NZL', 'New Zealand', 'Neuseeland'],
  ['ZA', 'ZAF', 'South Africa', 'Südafrika'],
];

/**
 * Region codes the runtime's Unicode data (ICU) names that are no country: exceptionally reserved
 * ISO codes (Ascension, Ceuta & Melilla, the Canaries...), groupings (the EU, the Eurozone, the UN,
 * Outlying Oceania), pseudo-locales and "unknown". Kosovo (XK) stays: boards and partners use it.
 */
const NOT_COUNTRIES = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ']);

/**
 * Every country code ISO 3166-1 assigns, with its English names (long and short) and its German
 * name, from the runtime's Unicode data: a deprecated code (SU, YU, AN) is left out, as its
 * canonical form differs (`Intl.getCanonicalLocales`).
 */
function isoCountries(): Map<string, string[]> {
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const short = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none', style: 'short' });
  const german = new Intl.DisplayNames(['de'], { type: 'region', fallback: 'none' });
  const countries = new Map<string, string[]>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const first of letters)
    for (const second of letters) {
      const code = first + second;
      if (NOT_COUNTRIES.has(code)) continue;
      const name = english.of(code);
      if (!name || Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      countries.set(
        code,
        [name, short.of(code), german.of(code)].filter((n): n is string => Boolean(n)),
      );
    }
  return countries;
}

const ISO_COUNTRIES = isoCountries();
const BY_ISO2 = new Map(COUNTRIES.map((c) => [c[0], c]));
const ALIASES = new Map<string, string>();
for (const [iso2, names] of ISO_COUNTRIES) for (const alias of [iso2, ...names]) ALIASES.set(alias.toLowerCase(), iso2);
// the partners' own spellings win over the Unicode data's
for (const [iso2, iso3, name, german] of COUNTRIES)
  for (const alias of [iso2, iso3, name, german]) ALIASES.set(alias.toLowerCase(), iso2);
for (const [alias, iso2] of [
  ['uk', 'GB'],
  ['great britain', 'GB'],
  ['england', 'GB'],
  ['scotland', 'GB'],
  ['wales', 'GB'],
  ['northern ireland', 'GB'],
  ['united states of america', 'US'],
  ['u.s.', 'US'],
  ['u.s.a.', 'US'],
  ['holland', 'NL'],
  ['czech republic', 'CZ'],
  ['turkey', 'TR'],
  ['korea', 'KR'],
  ['republic of korea', 'KR'],
  ['uae', 'AE'],
  ['hong kong', 'HK'],
  ['macau', 'MO'],
  ['ivory coast', 'CI'],
  ['russian federation', 'RU'],
] as const)
  ALIASES.set(alias, iso2);

/**
 * ISO 3166-1 alpha-2 (upper case) for the ways partners and boards write a country: ISO2, `UK`,
 * ISO3 of the partners' countries, English (long or short) or German names of any country.
 * Anything else gives null, two-letter tokens included ("EU", "TX"): no code that names no
 * country is passed on.
 */
export function toCountryCode(input: string | null | undefined): string | null {
  const text = input?.trim();
  if (!text) return null;
  return ALIASES.get(text.toLowerCase()) ?? null;
}

/** ISO alpha-3 for an alpha-2 code, or null when not known. */
export function iso3Of(iso2: string): string | null {
  return BY_ISO2.get(iso2.toUpperCase())?.[1] ?? null;
}

/** English country name for an alpha-2 code (the partners' spelling first), or null when not known. */
export function countryNameOf(iso2: string): string | null {
  const code = iso2.toUpperCase();
  return BY_ISO2.get(code)?.[2] ?? ISO_COUNTRIES.get(code)?.[0] ?? null;
}

/** A partner's country as a filter value: `UK` for GB where the partner wants it. */
export function ukForGb(iso2: string): string {
  return iso2.toUpperCase() === 'GB' ? 'UK' : iso2.toUpperCase();
}

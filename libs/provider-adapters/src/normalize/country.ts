/** [ISO2, ISO3, English name, German name] for the countries partners send. */
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

const BY_ISO2 = new Map(COUNTRIES.map((c) => [c[0], c]));
const ALIASES = new Map<string, string>();
for (const [iso2, iso3, name, german] of COUNTRIES)
  for (const alias of [iso2, iso3, name, german]) ALIASES.set(alias.toLowerCase(), iso2);
for (const [alias, iso2] of [
  ['uk', 'GB'],
  ['great britain', 'GB'],
  ['england', 'GB'],
  ['united states of america', 'US'],
  ['holland', 'NL'],
] as const)
  ALIASES.set(alias, iso2);

/**
 * ISO 3166-1 alpha-2 (upper case) for the ways partners write a country: ISO2, `UK`, ISO3,
 * English or German names. Unknown input gives null; any other well-formed two-letter code is
 * passed through upper-cased.
 */
export function toCountryCode(input: string | null | undefined): string | null {
  const text = input?.trim();
  if (!text) return null;
  const known = ALIASES.get(text.toLowerCase());
  if (known) return known;
  return /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : null;
}

/** ISO alpha-3 for an alpha-2 code, or null when not known. */
export function iso3Of(iso2: string): string | null {
  return BY_ISO2.get(iso2.toUpperCase())?.[1] ?? null;
}

/** English country name for an alpha-2 code, or null when not known. */
export function countryNameOf(iso2: string): string | null {
  return BY_ISO2.get(iso2.toUpperCase())?.[2] ?? null;
}

/** A partner's country as a filter value: `UK` for GB where the partner wants it. */
export function ukForGb(iso2: string): string {
  return iso2.toUpperCase() === 'GB' ? 'UK' : iso2.toUpperCase();
}

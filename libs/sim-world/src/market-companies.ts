import { Rng, fnv1a, hash32 } from './prng.js';
import type { Company } from './types.js';
import { INDUSTRIES, NAME_PREFIXES, NAME_ROOTS } from './vocab/companies.js';
import { COUNTRIES } from './vocab/countries.js';

const COMPANIES_TAG = fnv1a('companies');
const COUNTRY_WEIGHTS = COUNTRIES.map((c) => c.weight);
const INDUSTRY_WEIGHTS = INDUSTRIES.map((i) => i.weight);

/** The employers of a seeded market, in the order their slots pick them. */
export interface MarketCompanies {
  readonly companies: Company[];
  /** Running total of the employers' Zipf-like sizes, for picking one by size. */
  readonly cumulative: Float64Array;
  /** Country codes of each employer's offices, its home country first. */
  readonly offices: string[][];
}

/**
 * `count` employers drawn from one seeded stream: unique names and domains, a home country
 * and industry, and for the largest ones offices abroad.
 */
export function generateCompanies({ seed, count }: { seed: number; count: number }): MarketCompanies {
  const rng = new Rng(hash32(seed, COMPANIES_TAG));
  const companies: Company[] = [];
  const cumulative = new Float64Array(count);
  const allOffices: string[][] = [];
  const names = new Set<string>();
  const domains = new Set<string>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    const industry = INDUSTRIES[rng.weighted(INDUSTRY_WEIGHTS)]!;
    const country = COUNTRIES[rng.weighted(COUNTRY_WEIGHTS)]!;
    let compound = '';
    let word: string | null = null;
    let name = '';
    for (let attempt = 0; ; attempt++) {
      compound = rng.pick(NAME_PREFIXES) + rng.pick(NAME_ROOTS);
      word = rng.chance(0.65) || attempt > 20 ? rng.pick(industry.words) : null;
      name = word ? `${compound} ${word}` : compound;
      if (attempt > 40) name = `${name} ${attempt}`;
      if (!names.has(name)) break;
    }
    names.add(name);
    const tld = rng.chance(0.6) ? '.com' : country.tld;
    const stem = compound.toLowerCase();
    const candidates = [
      word && rng.chance(0.4) ? `${stem}${word.toLowerCase()}${tld}` : `${stem}${tld}`,
      `${stem}${tld}`,
      word ? `${stem}-${word.toLowerCase()}${tld}` : `${stem}-group${tld}`,
      `${stem}${country.tld}`,
      `${stem}.io`,
    ];
    let domain = candidates.find((d) => !domains.has(d));
    for (let n = 2; !domain; n++) if (!domains.has(`${stem}${n}${tld}`)) domain = `${stem}${n}${tld}`;
    domains.add(domain);
    companies.push({
      domain,
      name,
      countryCode: country.code,
      industry: industry.industry,
      legalSuffix: rng.pick(country.legal),
      added: false,
    });
    // Zipf-like sizes: a few large employers, a long tail of small ones.
    total += 1 / Math.pow(i + 3, 0.85);
    cumulative[i] = total;
    const offices = [country.code];
    if (i < 400) {
      const extra = 1 + rng.int(i < 60 ? 5 : 2);
      for (let e = 0; e < extra; e++) offices.push(COUNTRIES[rng.weighted(COUNTRY_WEIGHTS)]!.code);
    }
    allOffices.push(offices);
  }
  return { companies, cumulative, offices: allOffices };
}

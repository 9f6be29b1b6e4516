/** A country of the simulated market, with what salaries and partners need to know. */
export interface CountryInfo {
  code: string;
  iso3: string;
  name: string;
  /** How a German-language partner writes it, where it differs. */
  localName?: string;
  currency: string;
  /** Multiplier from a US yearly salary in USD to this country's salary, in its currency and period. */
  payFactor: number;
  period: 'year' | 'month';
  /** Rounding step of salaries in this currency (yearly or monthly amounts). */
  round: number;
  /** Share of the market's openings. */
  weight: number;
  /** Share of postings that declare a salary. */
  salaryShare: number;
  tld: string;
  legal: readonly string[];
  cities: readonly (readonly [city: string, region: string])[];
  /** German-speaking: partners append " (m/w/d)". */
  germanSpeaking?: boolean;
}

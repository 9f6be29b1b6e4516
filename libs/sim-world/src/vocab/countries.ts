/** The countries of the simulated market, with what salaries and partners need to know. */
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

export const COUNTRIES: readonly CountryInfo[] = [
  { code: 'US', iso3: 'USA', name: 'United States', localName: 'USA', currency: 'USD', payFactor: 1, period: 'year', round: 1000, weight: 30, salaryShare: 0.7, tld: '.com', legal: ['Inc.', 'LLC', 'Corp.'], cities: [['New York', 'NY'], ['San Francisco', 'CA'], ['Austin', 'TX'], ['Seattle', 'WA'], ['Chicago', 'IL'], ['Boston', 'MA'], ['Denver', 'CO'], ['Atlanta', 'GA']] },
  { code: 'GB', iso3: 'GBR', name: 'United Kingdom', localName: 'Vereinigtes Königreich', currency: 'GBP', payFactor: 0.55, period: 'year', round: 1000, weight: 10, salaryShare: 0.65, tld: '.co.uk', legal: ['Ltd', 'Limited', 'PLC'], cities: [['London', 'England'], ['Manchester', 'England'], ['Edinburgh', 'Scotland'], ['Bristol', 'England'], ['Leeds', 'England'], ['Cardiff', 'Wales']] },
  { code: 'DE', iso3: 'DEU', name: 'Germany', localName: 'Deutschland', currency: 'EUR', payFactor: 0.6, period: 'year', round: 1000, weight: 8, salaryShare: 0.3, tld: '.de', legal: ['GmbH', 'AG', 'SE'], germanSpeaking: true, cities: [['Berlin', 'Berlin'], ['Munich', 'Bavaria'], ['Hamburg', 'Hamburg'], ['Frankfurt', 'Hesse'], ['Cologne', 'North Rhine-Westphalia'], ['Stuttgart', 'Baden-Württemberg']] },
  { code: 'FR', iso3: 'FRA', name: 'France', localName: 'Frankreich', currency: 'EUR', payFactor: 0.5, period: 'year', round: 1000, weight: 5, salaryShare: 0.4, tld: '.fr', legal: ['SAS', 'SA'], cities: [['Paris', 'Île-de-France'], ['Lyon', 'Auvergne-Rhône-Alpes'], ['Toulouse', 'Occitanie'], ['Nantes', 'Pays de la Loire']] },
  { code: 'NL', iso3: 'NLD', name: 'Netherlands', localName: 'Niederlande', currency: 'EUR', payFactor: 0.58, period: 'year', round: 1000, weight: 3, salaryShare: 0.45, tld: '.nl', legal: ['B.V.', 'N.V.'], cities: [['Amsterdam', 'North Holland'], ['Rotterdam', 'South Holland'], ['Utrecht', 'Utrecht'], ['Eindhoven', 'North Brabant']] },
  { code: 'ES', iso3: 'ESP', name: 'Spain', localName: 'Spanien', currency: 'EUR', payFactor: 0.38, period: 'year', round: 1000, weight: 3, salaryShare: 0.4, tld: '.es', legal: ['S.L.', 'S.A.'], cities: [['Madrid', 'Community of Madrid'], ['Barcelona', 'Catalonia'], ['Valencia', 'Valencian Community'], ['Seville', 'Andalusia']] },
  { code: 'IT', iso3: 'ITA', name: 'Italy', localName: 'Italien', currency: 'EUR', payFactor: 0.4, period: 'year', round: 1000, weight: 2, salaryShare: 0.3, tld: '.it', legal: ['S.p.A.', 'S.r.l.'], cities: [['Milan', 'Lombardy'], ['Rome', 'Lazio'], ['Turin', 'Piedmont'], ['Bologna', 'Emilia-Romagna']] },
  { code: 'IE', iso3: 'IRL', name: 'Ireland', localName: 'Irland', currency: 'EUR', payFactor: 0.62, period: 'year', round: 1000, weight: 2, salaryShare: 0.5, tld: '.ie', legal: ['Ltd', 'DAC'], cities: [['Dublin', 'Leinster'], ['Cork', 'Munster'], ['Galway', 'Connacht']] },
  { code: 'SE', iso3: 'SWE', name: 'Sweden', localName: 'Schweden', currency: 'SEK', payFactor: 6, period: 'year', round: 10000, weight: 2, salaryShare: 0.3, tld: '.se', legal: ['AB'], cities: [['Stockholm', 'Stockholm County'], ['Gothenburg', 'Västra Götaland'], ['Malmö', 'Skåne']] },
  { code: 'PL', iso3: 'POL', name: 'Poland', localName: 'Polen', currency: 'PLN', payFactor: 2.2, period: 'year', round: 1000, weight: 2, salaryShare: 0.6, tld: '.pl', legal: ['sp. z o.o.', 'S.A.'], cities: [['Warsaw', 'Masovian'], ['Kraków', 'Lesser Poland'], ['Wrocław', 'Lower Silesian'], ['Gdańsk', 'Pomeranian']] },
  { code: 'CA', iso3: 'CAN', name: 'Canada', localName: 'Kanada', currency: 'CAD', payFactor: 1, period: 'year', round: 1000, weight: 5, salaryShare: 0.6, tld: '.ca', legal: ['Inc.', 'Ltd.'], cities: [['Toronto', 'Ontario'], ['Vancouver', 'British Columbia'], ['Montreal', 'Quebec'], ['Calgary', 'Alberta'], ['Ottawa', 'Ontario']] },
  { code: 'AU', iso3: 'AUS', name: 'Australia', localName: 'Australien', currency: 'AUD', payFactor: 1.1, period: 'year', round: 1000, weight: 4, salaryShare: 0.55, tld: '.com.au', legal: ['Pty Ltd'], cities: [['Sydney', 'New South Wales'], ['Melbourne', 'Victoria'], ['Brisbane', 'Queensland'], ['Perth', 'Western Australia']] },
  { code: 'IN', iso3: 'IND', name: 'India', localName: 'Indien', currency: 'INR', payFactor: 15, period: 'year', round: 10000, weight: 6, salaryShare: 0.35, tld: '.in', legal: ['Pvt Ltd', 'Private Limited'], cities: [['Bengaluru', 'Karnataka'], ['Hyderabad', 'Telangana'], ['Pune', 'Maharashtra'], ['Mumbai', 'Maharashtra'], ['Gurugram', 'Haryana'], ['Chennai', 'Tamil Nadu']] },
  { code: 'JP', iso3: 'JPN', name: 'Japan', localName: 'Japan', currency: 'JPY', payFactor: 75, period: 'year', round: 100000, weight: 2, salaryShare: 0.5, tld: '.jp', legal: ['K.K.', 'Co., Ltd.'], cities: [['Tokyo', 'Tokyo'], ['Osaka', 'Osaka'], ['Fukuoka', 'Fukuoka']] },
  { code: 'SG', iso3: 'SGP', name: 'Singapore', localName: 'Singapur', currency: 'SGD', payFactor: 1.1, period: 'year', round: 1000, weight: 2, salaryShare: 0.45, tld: '.sg', legal: ['Pte. Ltd.'], cities: [['Singapore', 'Central Region']] },
  { code: 'BR', iso3: 'BRA', name: 'Brazil', localName: 'Brasilien', currency: 'BRL', payFactor: 0.13, period: 'month', round: 100, weight: 2, salaryShare: 0.4, tld: '.com.br', legal: ['Ltda.', 'S.A.'], cities: [['São Paulo', 'São Paulo'], ['Rio de Janeiro', 'Rio de Janeiro'], ['Belo Horizonte', 'Minas Gerais']] },
  { code: 'MX', iso3: 'MEX', name: 'Mexico', localName: 'Mexiko', currency: 'MXN', payFactor: 0.55, period: 'month', round: 500, weight: 1, salaryShare: 0.4, tld: '.mx', legal: ['S.A. de C.V.'], cities: [['Mexico City', 'CDMX'], ['Guadalajara', 'Jalisco'], ['Monterrey', 'Nuevo León']] },
  { code: 'CH', iso3: 'CHE', name: 'Switzerland', localName: 'Schweiz', currency: 'CHF', payFactor: 1.05, period: 'year', round: 1000, weight: 1, salaryShare: 0.3, tld: '.ch', legal: ['AG', 'GmbH', 'SA'], germanSpeaking: true, cities: [['Zurich', 'Zurich'], ['Geneva', 'Geneva'], ['Basel', 'Basel-Stadt']] },
  { code: 'AT', iso3: 'AUT', name: 'Austria', localName: 'Österreich', currency: 'EUR', payFactor: 0.55, period: 'year', round: 1000, weight: 1, salaryShare: 0.9, tld: '.at', legal: ['GmbH', 'AG'], germanSpeaking: true, cities: [['Vienna', 'Vienna'], ['Graz', 'Styria'], ['Linz', 'Upper Austria']] },
  { code: 'BE', iso3: 'BEL', name: 'Belgium', localName: 'Belgien', currency: 'EUR', payFactor: 0.55, period: 'year', round: 1000, weight: 1, salaryShare: 0.35, tld: '.be', legal: ['NV', 'SRL'], cities: [['Brussels', 'Brussels-Capital'], ['Antwerp', 'Flanders'], ['Ghent', 'Flanders']] },
  { code: 'DK', iso3: 'DNK', name: 'Denmark', localName: 'Dänemark', currency: 'DKK', payFactor: 5.5, period: 'year', round: 10000, weight: 1, salaryShare: 0.3, tld: '.dk', legal: ['ApS', 'A/S'], cities: [['Copenhagen', 'Capital Region'], ['Aarhus', 'Central Denmark']] },
  { code: 'NO', iso3: 'NOR', name: 'Norway', localName: 'Norwegen', currency: 'NOK', payFactor: 6.5, period: 'year', round: 10000, weight: 1, salaryShare: 0.3, tld: '.no', legal: ['AS'], cities: [['Oslo', 'Oslo'], ['Bergen', 'Vestland'], ['Trondheim', 'Trøndelag']] },
  { code: 'PT', iso3: 'PRT', name: 'Portugal', localName: 'Portugal', currency: 'EUR', payFactor: 0.3, period: 'year', round: 1000, weight: 1, salaryShare: 0.45, tld: '.pt', legal: ['Lda.', 'S.A.'], cities: [['Lisbon', 'Lisbon'], ['Porto', 'Porto'], ['Braga', 'Braga']] },
  { code: 'NZ', iso3: 'NZL', name: 'New Zealand', localName: 'Neuseeland', currency: 'NZD', payFactor: 1, period: 'year', round: 1000, weight: 1, salaryShare: 0.55, tld: '.co.nz', legal: ['Ltd'], cities: [['Auckland', 'Auckland'], ['Wellington', 'Wellington'], ['Christchurch', 'Canterbury']] },
  { code: 'ZA', iso3: 'ZAF', name: 'South Africa', localName: 'Südafrika', currency: 'ZAR', payFactor: 6, period: 'year', round: 10000, weight: 1, salaryShare: 0.4, tld: '.co.za', legal: ['(Pty) Ltd'], cities: [['Cape Town', 'Western Cape'], ['Johannesburg', 'Gauteng'], ['Durban', 'KwaZulu-Natal']] },
];

const BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

export function countryByCode(code: string | null | undefined): CountryInfo | undefined {
  return code ? BY_CODE.get(code.toUpperCase()) : undefined;
}

const ALIASES = new Map<string, string>();
for (const c of COUNTRIES) {
  for (const alias of [c.code, c.iso3, c.name, c.localName ?? c.name]) ALIASES.set(alias.toLowerCase(), c.code);
}
for (const [alias, code] of [['uk', 'GB'], ['great britain', 'GB'], ['england', 'GB'], ['usa', 'US'], ['united states of america', 'US'], ['holland', 'NL']] as const) {
  ALIASES.set(alias, code);
}

/** ISO alpha-2 for any of the ways partners write a country ("UK", "GBR", "Germany", "Deutschland"). */
export function normalizeCountry(input: string | null | undefined): string | undefined {
  if (!input) return undefined;
  return ALIASES.get(input.trim().toLowerCase());
}

const SYMBOLS: Record<string, string> = {
  USD: '$', GBP: '£', EUR: '€', CAD: 'CA$', AUD: 'A$', INR: '₹', JPY: '¥', SGD: 'S$', BRL: 'R$', MXN: 'MX$', NZD: 'NZ$', ZAR: 'R',
};

/** Currency symbol as a job board prints it, or the ISO code followed by a space. */
export function currencySymbol(currency: string): string {
  return SYMBOLS[currency] ?? `${currency} `;
}

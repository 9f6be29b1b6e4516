/**
 * Cities job boards name, by the country (ISO 3166-1 alpha-2) they are in, US and Canadian ones
 * with their state or province code: the simulated market's cities and the large cities of the
 * countries whose ISO code is also a US state's or a Canadian province's code (DE, IN, IL, CO,
 * AR, PE, NL, ...), or whose name is a state's (Georgia), where a board's "City, XX" is otherwise
 * ambiguous.
 */
const CITIES: ReadonlyArray<readonly [country: string, region: string | null, names: string]> = [
  ['US', 'NY', 'New York, Brooklyn, Buffalo'],
  ['US', 'CA', 'San Francisco, Los Angeles, San Diego, San Jose, Palo Alto, Mountain View, Oakland, Sacramento'],
  ['US', 'TX', 'Austin, Dallas, Houston, San Antonio'],
  ['US', 'WA', 'Seattle, Bellevue, Redmond'],
  ['US', 'IL', 'Chicago'],
  ['US', 'MA', 'Boston, Cambridge'],
  ['US', 'CO', 'Denver, Boulder'],
  ['US', 'GA', 'Atlanta'],
  ['US', 'DE', 'Dover, Wilmington, Newark'],
  ['US', 'IN', 'Indianapolis'],
  ['US', 'PA', 'Philadelphia, Pittsburgh'],
  ['US', 'MD', 'Baltimore'],
  ['US', 'AR', 'Little Rock'],
  ['US', 'ME', 'Portland'],
  ['US', 'OR', 'Portland'],
  ['US', 'DC', 'Washington'],
  ['CA', 'ON', 'Toronto, Ottawa, Waterloo, London'],
  ['CA', 'BC', 'Vancouver, Victoria'],
  ['CA', 'QC', 'Montreal, Montréal, Quebec City'],
  ['CA', 'AB', 'Calgary, Edmonton'],
  ['BR', null, 'São Paulo, Rio de Janeiro, Belo Horizonte'],
  ['MX', null, 'Mexico City, Guadalajara, Monterrey'],
  ['AU', null, 'Sydney, Melbourne, Brisbane, Perth'],
  ['IN', null, 'Bengaluru, Bangalore, Hyderabad, Pune, Mumbai, Gurugram, Gurgaon, Chennai, Delhi, New Delhi, Noida'],
  ['JP', null, 'Tokyo, Osaka, Fukuoka'],
  ['SG', null, 'Singapore'],
  ['NZ', null, 'Auckland, Wellington, Christchurch'],
  ['ZA', null, 'Cape Town, Johannesburg, Durban'],
  ['GB', null, 'London, Manchester, Edinburgh, Bristol, Leeds, Cardiff, Cambridge, Dover'],
  ['DE', null, 'Berlin, Munich, München, Hamburg, Frankfurt, Cologne, Köln, Stuttgart, Düsseldorf, Leipzig'],
  ['FR', null, 'Paris, Lyon, Toulouse, Nantes'],
  ['NL', null, 'Amsterdam, Rotterdam, Utrecht, Eindhoven, The Hague'],
  ['ES', null, 'Madrid, Barcelona, Valencia, Seville'],
  ['IT', null, 'Milan, Rome, Turin, Bologna'],
  ['IE', null, 'Dublin, Cork, Galway'],
  ['SE', null, 'Stockholm, Gothenburg, Malmö'],
  ['PL', null, 'Warsaw, Kraków, Wrocław, Gdańsk'],
  ['CH', null, 'Zurich, Zürich, Geneva, Basel'],
  ['AT', null, 'Vienna, Wien, Graz, Linz'],
  ['BE', null, 'Brussels, Antwerp, Ghent'],
  ['DK', null, 'Copenhagen, Aarhus'],
  ['NO', null, 'Oslo, Bergen, Trondheim'],
  ['PT', null, 'Lisbon, Porto, Braga'],
  ['IL', null, 'Tel Aviv, Jerusalem, Haifa'],
  ['CO', null, 'Bogotá, Bogota, Medellín, Medellin'],
  ['AR', null, 'Buenos Aires, Córdoba'],
  ['PE', null, 'Lima'],
  ['ID', null, 'Jakarta'],
  ['MA', null, 'Casablanca, Rabat'],
  ['MT', null, 'Valletta'],
  ['GE', null, 'Tbilisi, Batumi'],
];

export interface KnownCity {
  countryCode: string;
  /** the state or province code, for US and Canadian cities */
  region: string | null;
}

const BY_NAME = new Map<string, KnownCity[]>();
for (const [countryCode, region, names] of CITIES)
  for (const name of names.split(', ')) {
    const key = cityKey(name);
    BY_NAME.set(key, [...(BY_NAME.get(key) ?? []), { countryCode, region }]);
  }

/** Where a city of that name is known to be (several places for "Portland" or "London"); empty when unknown. */
export function placesOfCity(name: string): readonly KnownCity[] {
  return BY_NAME.get(cityKey(name)) ?? [];
}

function cityKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase();
}

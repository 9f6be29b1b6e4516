import { namesWorldRegion, parseLocationText, remoteFromText } from './board-location.js';

const at = (city: string | null, region: string | null, country_code: string | null, remote: boolean | null) => ({
  city,
  region,
  country_code,
  remote,
});

describe('parseLocationText', () => {
  it.each([
    ['San Francisco, CA', at('San Francisco', 'CA', 'US', null)],
    ['San Francisco, CA, United States', at('San Francisco', 'CA', 'US', null)],
    ['Toronto, ON', at('Toronto', 'ON', 'CA', null)],
    ['Berlin, Germany', at('Berlin', null, 'DE', null)],
    ['London, UK', at('London', null, 'GB', null)],
    ['Amsterdam, North Holland, Netherlands', at('Amsterdam', 'North Holland', 'NL', null)],
    ['Remote - US', at(null, null, 'US', true)],
    ['Remote, Germany', at(null, null, 'DE', true)],
    ['Remote', at(null, null, null, true)],
    ['Hybrid - London, United Kingdom', at('London', null, 'GB', false)],
    ['London, United Kingdom; Berlin, Germany', at('London', null, 'GB', null)],
    ['New York, NY or Remote', at('New York', 'NY', 'US', true)],
    ['Paris | Lyon', at('Paris', null, null, null)],
    ['Zürich, Schweiz', at('Zürich', null, 'CH', null)],
    ['Texas', at('Texas', null, null, null)],
    ['TX', at(null, 'TX', 'US', null)],
    ['Austin, TX (On-site)', at('Austin', 'TX', 'US', false)],
    // any country by its name, and no country from two letters that name none
    ['Tel Aviv, Israel', at('Tel Aviv', null, 'IL', null)],
    ['Prague, Czech Republic', at('Prague', null, 'CZ', null)],
    // a part of the world is no city and no country
    ['Remote, EU', at(null, null, null, true)],
    ['Remote - EMEA', at(null, null, null, true)],
    ['Remote, Americas', at(null, null, null, true)],
    ['Europe', at(null, null, null, null)],
    ['Remote, EMEA, Germany', at(null, null, 'DE', true)],
    // a country in brackets places a place that names none; other brackets say nothing of where
    ['Remote (US)', at(null, null, 'US', true)],
    ['Remote (Canada)', at(null, null, 'CA', true)],
    ['San Francisco (HQ)', at('San Francisco', null, null, null)],
    ['Toronto, ON (Remote)', at('Toronto', 'ON', 'CA', true)],
    // a US state by its name is the state, also where a country has the same name
    ['Atlanta, Georgia', at('Atlanta', 'GA', 'US', null)],
    ['Savannah, Georgia', at('Savannah', 'GA', 'US', null)],
    ['Tbilisi, Georgia', at('Tbilisi', null, 'GE', null)],
    ['Denver, Colorado', at('Denver', 'CO', 'US', null)],
  ])('%s', (text, expected) => expect(parseLocationText(text)).toEqual(expected));

  describe('a two-letter code after a city, a state or a country', () => {
    it.each([
      // the city is known in the country the code names
      ['Berlin, DE', at('Berlin', null, 'DE', null)],
      ['München, DE', at('München', null, 'DE', null)],
      ['Bengaluru, IN', at('Bengaluru', null, 'IN', null)],
      ['Amsterdam, NL', at('Amsterdam', null, 'NL', null)],
      ['Tel Aviv, IL', at('Tel Aviv', null, 'IL', null)],
      ['Toronto, CA', at('Toronto', null, 'CA', null)],
      ['Berlin, Berlin, DE', at('Berlin', 'Berlin', 'DE', null)],
      // the city is known in the state the code names
      ['Dover, DE', at('Dover', 'DE', 'US', null)],
      ['Indianapolis, IN', at('Indianapolis', 'IN', 'US', null)],
      ['San Francisco, CA', at('San Francisco', 'CA', 'US', null)],
      ['London, ON', at('London', 'ON', 'CA', null)],
      // known nowhere: boards write states this way far more often than countries
      ['Smallville, DE', at('Smallville', 'DE', 'US', null)],
      ['Springfield, IL', at('Springfield', 'IL', 'US', null)],
      // a US city in another state of that name still reads as a state, never as Morocco
      ['Portland, MA', at('Portland', 'MA', 'US', null)],
      // known only abroad: the code is the country
      ['Paris, DE', at('Paris', null, 'DE', null)],
      // a code that is no state is a country, as before
      ['Lyon, FR', at('Lyon', null, 'FR', null)],
    ])('%s', (text, expected) => expect(parseLocationText(text)).toEqual(expected));
  });

  it('knows nothing of an empty place', () => {
    for (const text of [null, undefined, '', '   '])
      expect(parseLocationText(text)).toEqual(at(null, null, null, null));
  });
});

describe('remoteFromText', () => {
  it('reads remote, hybrid and on-site words', () => {
    expect(remoteFromText('Fully remote (EMEA)')).toBe(true);
    expect(remoteFromText('Work from home')).toBe(true);
    expect(remoteFromText('Hybrid')).toBe(false);
    expect(remoteFromText('On-site')).toBe(false);
    expect(remoteFromText('Dublin')).toBeNull();
  });
});

describe('namesWorldRegion', () => {
  it.each([
    ['Remote - EMEA', true],
    ['Remote (Europe)', true],
    ['Remote, Americas', true],
    // places split as parseLocationText splits them
    ['EMEA and APAC', true],
    ['Remote (US)', false],
    ['San Francisco, CA', false],
    [null, false],
  ])('%s', (text, expected) => expect(namesWorldRegion(text)).toBe(expected));
});

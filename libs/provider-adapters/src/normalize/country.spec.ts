import { countryNameOf, iso3Of, toCountryCode, ukForGb } from './country.js';

describe('toCountryCode', () => {
  it.each([
    ['UK', 'GB'],
    ['uk', 'GB'],
    ['GB', 'GB'],
    ['gb', 'GB'],
    ['GBR', 'GB'],
    ['United Kingdom', 'GB'],
    ['Great Britain', 'GB'],
    ['England', 'GB'],
    ['US', 'US'],
    ['USA', 'US'],
    ['United States', 'US'],
    ['DE', 'DE'],
    ['DEU', 'DE'],
    ['Germany', 'DE'],
    ['Deutschland', 'DE'],
    ['deutschland', 'DE'],
    ['Österreich', 'AT'],
    ['Schweiz', 'CH'],
    ['CHE', 'CH'],
    ['Switzerland', 'CH'],
    ['IND', 'IN'],
    ['India', 'IN'],
    ['NOR', 'NO'],
    ['Norway', 'NO'],
    ['New Zealand', 'NZ'],
    ['South Africa', 'ZA'],
    ['ZAF', 'ZA'],
    ['Brazil', 'BR'],
    ['Netherlands', 'NL'],
    ['Holland', 'NL'],
    ['  France  ', 'FR'],
    ['lu', 'LU'],
  ])('%s → %s', (input, code) => expect(toCountryCode(input)).toBe(code));

  it.each([[null], [undefined], [''], ['   '], ['Atlantis'], ['XYZ'], ['U.K.']])('%s → null', (input) =>
    expect(toCountryCode(input)).toBeNull(),
  );
});

describe('country lookups', () => {
  it('gives ISO3 and English names for ISO2', () => {
    expect(iso3Of('GB')).toBe('GBR');
    expect(iso3Of('de')).toBe('DEU');
    expect(iso3Of('LU')).toBeNull();
    expect(countryNameOf('GB')).toBe('United Kingdom');
    expect(countryNameOf('US')).toBe('United States');
    expect(countryNameOf('LU')).toBeNull();
  });

  it('writes GB as UK for partners that want it', () => {
    expect(ukForGb('GB')).toBe('UK');
    expect(ukForGb('gb')).toBe('UK');
    expect(ukForGb('DE')).toBe('DE');
  });
});

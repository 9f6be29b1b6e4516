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
    // every country, not only the partners': English (long or short) and German names
    ['Israel', 'IL'],
    ['Czechia', 'CZ'],
    ['Czech Republic', 'CZ'],
    ['Tschechien', 'CZ'],
    ['Luxembourg', 'LU'],
    ['Türkiye', 'TR'],
    ['Turkey', 'TR'],
    ['South Korea', 'KR'],
    ['Hong Kong', 'HK'],
    ['Hong Kong SAR China', 'HK'],
    ['Côte d’Ivoire', 'CI'],
    ['Kosovo', 'XK'],
    ['vn', 'VN'],
  ])('%s → %s', (input, code) => expect(toCountryCode(input)).toBe(code));

  // two letters that name no country (a grouping, a US state, a retired code) are no country
  it.each([
    [null],
    [undefined],
    [''],
    ['   '],
    ['Atlantis'],
    ['XYZ'],
    ['U.K.'],
    ['EU'],
    ['TX'],
    ['SU'],
    ['ZZ'],
    ['UN'],
  ])('%s → null', (input) => expect(toCountryCode(input)).toBeNull());
});

describe('country lookups', () => {
  it('gives ISO3 and English names for ISO2', () => {
    expect(iso3Of('GB')).toBe('GBR');
    expect(iso3Of('de')).toBe('DEU');
    expect(iso3Of('LU')).toBeNull();
    expect(countryNameOf('GB')).toBe('United Kingdom');
    expect(countryNameOf('US')).toBe('United States');
    expect(countryNameOf('LU')).toBe('Luxembourg');
    expect(countryNameOf('IL')).toBe('Israel');
    expect(countryNameOf('EU')).toBeNull();
  });

  it('writes GB as UK for partners that want it', () => {
    expect(ukForGb('GB')).toBe('UK');
    expect(ukForGb('gb')).toBe('UK');
    expect(ukForGb('DE')).toBe('DE');
  });
});

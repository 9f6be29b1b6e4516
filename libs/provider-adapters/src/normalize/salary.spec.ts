import { parseAmount, parseSalaryText, toPeriod } from './salary.js';

const s = (min: number | null, max: number | null, currency: string, period: 'year' | 'month' | 'hour') => ({
  min,
  max,
  currency,
  period,
  origin: 'declared',
});

describe('parseSalaryText', () => {
  it.each([
    // provider_b
    ['£45,000 - £55,000 a year', s(45000, 55000, 'GBP', 'year')],
    ['From $25 an hour', s(25, null, 'USD', 'hour')],
    ['Up to €60,000 a year', s(null, 60000, 'EUR', 'year')],
    ['R$17,100 - R$20,900 a month', s(17100, 20900, 'BRL', 'month')],
    ['CA$144,000 - CA$190,000 a year', s(144000, 190000, 'CAD', 'year')],
    ['NZ$71,000 - NZ$85,000 a year', s(71000, 85000, 'NZD', 'year')],
    ['S$87,000 - S$110,000 a year', s(87000, 110000, 'SGD', 'year')],
    ['A$112,000 - A$154,000 a year', s(112000, 154000, 'AUD', 'year')],
    ['MX$30,000 - MX$40,000 a month', s(30000, 40000, 'MXN', 'month')],
    ['₹2,820,000 - ₹3,630,000 a year', s(2820000, 3630000, 'INR', 'year')],
    ['¥8,000,000 - ¥9,500,000 a year', s(8000000, 9500000, 'JPY', 'year')],
    ['SEK 180,000 - SEK 240,000 a year', s(180000, 240000, 'SEK', 'year')],
    ['€41 - €52.5 an hour', s(41, 52.5, 'EUR', 'hour')],
    ['R$112 - R$149 an hour', s(112, 149, 'BRL', 'hour')],
    // provider_e
    ['$100K - $120K', s(100000, 120000, 'USD', 'year')],
    ['€25 - €30/hr', s(25, 30, 'EUR', 'hour')],
    ['R$12K/mo', s(12000, 12000, 'BRL', 'month')],
    ['R$50K - R$62K/mo', s(50000, 62000, 'BRL', 'month')],
    ['$130K+', s(130000, null, 'USD', 'year')],
    ['up to $120K', s(null, 120000, 'USD', 'year')],
    ['up to CHF 99K', s(null, 99000, 'CHF', 'year')],
    ['PLN 147K - PLN 172K', s(147000, 172000, 'PLN', 'year')],
    ['¥10000K - ¥12600K', s(10000000, 12600000, 'JPY', 'year')],
    ['R590K - R710K', s(590000, 710000, 'ZAR', 'year')],
    ['$70.5 - $89.5/hr', s(70.5, 89.5, 'USD', 'hour')],
    // provider_d
    ['45000-55000 EUR/year', s(45000, 55000, 'EUR', 'year')],
    ['25-30.5 GBP/hour', s(25, 30.5, 'GBP', 'hour')],
    ['8000-9400 BRL/month', s(8000, 9400, 'BRL', 'month')],
    ['from 77000 USD/year', s(77000, null, 'USD', 'year')],
    ['up to 41 USD/hour', s(null, 41, 'USD', 'hour')],
    // other spellings
    ['£45,000 – £55,000 per annum', s(45000, 55000, 'GBP', 'year')],
    ['$40 to $50 per hour', s(40, 50, 'USD', 'hour')],
    ['  £45,000  -  £55,000   a year ', s(45000, 55000, 'GBP', 'year')],
  ])('%s', (text, expected) => expect(parseSalaryText(text)).toEqual(expected));

  it('uses the fallback currency only when the text names none', () => {
    expect(parseSalaryText('45,000 - 55,000 a year', 'EUR')).toEqual(s(45000, 55000, 'EUR', 'year'));
    expect(parseSalaryText('£45,000 - £55,000 a year', 'EUR')).toEqual(s(45000, 55000, 'GBP', 'year'));
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['Competitive'],
    ['DOE'],
    ['45,000 - 55,000 a year'],
    ['£45k - lots'],
    ['$1 - $2 - $3'],
    ['from'],
    ['$abc'],
  ])('is null for %s', (text) => expect(parseSalaryText(text)).toBeNull());
});

describe('parseAmount', () => {
  it.each([
    ['45,000', 45000],
    ['45000', 45000],
    ['45000.00', 45000],
    ['52.5', 52.5],
    ['100K', 100000],
    ['100k', 100000],
    ['1.5M', 1500000],
    ['2,820,000', 2820000],
    [' 7 ', 7],
  ])('%s → %d', (text, n) => expect(parseAmount(text)).toBe(n));

  it.each([[null], [''], ['abc'], ['4,5000'], ['-5'], ['1e5']])('%s → null', (text) =>
    expect(parseAmount(text)).toBeNull(),
  );
});

describe('toPeriod', () => {
  it.each([
    ['yearly', 'year'],
    ['YEAR', 'year'],
    ['per_year', 'year'],
    ['a year', 'year'],
    ['per annum', 'year'],
    ['/yr', 'year'],
    ['monthly', 'month'],
    ['MONTH', 'month'],
    ['per_month', 'month'],
    ['/mo', 'month'],
    ['hourly', 'hour'],
    ['HOUR', 'hour'],
    ['per_hour', 'hour'],
    ['an hour', 'hour'],
    ['/hr', 'hour'],
  ])('%s → %s', (text, period) => expect(toPeriod(text)).toBe(period));

  it.each([[null], [''], ['weekly'], ['per_day']])('%s → null', (text) => expect(toPeriod(text)).toBeNull());
});

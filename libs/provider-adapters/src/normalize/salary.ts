import type { Salary } from '@jobs/contracts';

type Period = Salary['period'];

/** Currency symbols as boards print them, longest first so `CA$` wins over `$`. */
const SYMBOLS: ReadonlyArray<readonly [string, string]> = [
  ['CA$', 'CAD'],
  ['MX$', 'MXN'],
  ['NZ$', 'NZD'],
  ['A$', 'AUD'],
  ['S$', 'SGD'],
  ['R$', 'BRL'],
  ['US$', 'USD'],
  ['$', 'USD'],
  ['£', 'GBP'],
  ['€', 'EUR'],
  ['₹', 'INR'],
  ['¥', 'JPY'],
  ['R', 'ZAR'],
];

/** Period words and suffixes: "a year", "per annum", "/hr", "/mo", "EUR/year", "per_month". */
export function toPeriod(input: string | null | undefined): Period | null {
  const t = input
    ?.trim()
    .toLowerCase()
    .replace(/^(per[ _]|an? |\/)/, '');
  if (!t) return null;
  if (/^(year|yearly|yr|annum|annual|annually|y|pa|p\.a\.)$/.test(t)) return 'year';
  if (/^(month|monthly|mo|mth|m)$/.test(t)) return 'month';
  if (/^(hour|hourly|hr|h)$/.test(t)) return 'hour';
  return null;
}

/** "45,000" → 45000, "45000.00" → 45000, "100K" → 100000; null when not a number. */
export function parseAmount(input: string | null | undefined): number | null {
  const m = input?.trim().match(/^(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*([kKmM])?$/);
  if (!m) return null;
  const n = Number(m[1]!.replace(/,/g, '') + (m[2] ?? ''));
  const scale = m[3]?.toLowerCase() === 'k' ? 1_000 : m[3]?.toLowerCase() === 'm' ? 1_000_000 : 1;
  return Math.round(n * scale * 100) / 100;
}

interface Money {
  amount: number;
  currency: string | null;
}

function money(token: string): Money | null {
  let t = token.trim();
  let currency: string | null = null;
  const code = t.match(/^([A-Z]{3})\s+(.*)$/) ?? t.match(/^(.*?)\s*([A-Z]{3})$/);
  if (code) {
    const [a, b] = [code[1]!, code[2]!];
    currency = /^[A-Z]{3}$/.test(a) ? a : b;
    t = /^[A-Z]{3}$/.test(a) ? b : a;
  } else {
    const symbol = SYMBOLS.find(([s]) => t.startsWith(s) && /^\d/.test(t.slice(s.length).trim()));
    if (symbol) {
      currency = symbol[1];
      t = t.slice(symbol[0].length).trim();
    }
  }
  const amount = parseAmount(t);
  return amount === null ? null : { amount, currency };
}

/**
 * A salary written as text, in the shapes partners use:
 * "£45,000 - £55,000 a year", "From $25 an hour", "Up to €60,000 a year" (Provider B),
 * "$100K - $120K", "€25 - €30/hr", "R$12K/mo", "$100K+", "up to $120K" (Provider E),
 * "45000-55000 EUR/year", "from 45000 EUR/year" (Provider D).
 * `fallbackCurrency` is used when the text names none; with neither, null. A text without a
 * period means a yearly amount.
 */
export function parseSalaryText(
  input: string | null | undefined,
  fallbackCurrency: string | null = null,
): Salary | null {
  let t = input?.trim().replace(/\s+/g, ' ');
  if (!t) return null;
  let period: Period = 'year';
  const per = t.match(/\s*(?:(?:a|an|per)\s+(year|month|hour|annum)|\/\s*(year|month|hour|yr|mo|hr))$/i);
  if (per) {
    period = toPeriod(per[1] ?? per[2]) ?? 'year';
    t = t.slice(0, per.index).trim();
  }
  // "45000-55000 EUR" → the trailing code applies to both ends
  let shared: string | null = null;
  const tail = t.match(/\s([A-Z]{3})$/);
  if (tail) {
    shared = tail[1]!;
    t = t.slice(0, tail.index).trim();
  }
  let low: Money | null = null;
  let high: Money | null = null;
  const from = t.match(/^(?:from|starting at|min\.?)\s+(.+)$/i);
  const upTo = t.match(/^(?:up to|to|max\.?)\s+(.+)$/i);
  if (from) low = money(from[1]!);
  else if (upTo) high = money(upTo[1]!);
  else if (t.endsWith('+')) low = money(t.slice(0, -1));
  else {
    const parts = t.split(/\s*(?:-|–|—|\bto\b)\s*/i);
    if (parts.length === 2) {
      low = money(parts[0]!);
      high = money(parts[1]!);
      if (!low || !high) return null;
    } else if (parts.length === 1) {
      low = money(parts[0]!);
      high = low;
    } else return null;
  }
  if (!low && !high) return null;
  const currency = shared ?? low?.currency ?? high?.currency ?? fallbackCurrency;
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return null;
  return { min: low?.amount ?? null, max: high?.amount ?? null, currency, period, origin: 'declared' };
}

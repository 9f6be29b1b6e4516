/** Title noise that providers add and that never distinguishes two openings. */
const TITLE_NOISE = [/\((?:m|f|w|d|x)(?:\/(?:m|f|w|d|x))+\)/gi, /\s+-\s+(?:remote|hybrid|on-?site)\b.*$/i, /\b(?:remote|hybrid)\s*$/i];

/** Lower-case, noise-free, whitespace-collapsed title: the unit of title comparison. */
export function normalizeTitle(title: string): string {
  let t = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  for (const pattern of TITLE_NOISE) t = t.replace(pattern, ' ');
  return t
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\bsr\.?\b/g, 'senior')
    .replace(/\bjr\.?\b/g, 'junior')
    .replace(/[^a-z0-9+#]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

const LEGAL_SUFFIXES = /\b(?:inc|llc|ltd|limited|gmbh|ag|sa|sas|bv|plc|corp|corporation|co|company|srl|oy|ab)\b\.?/g;

export function normalizeCompanyName(name: string): string {
  return name
    .toLowerCase()
    .replace(LEGAL_SUFFIXES, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** `https://www.Acme.com/jobs` → `acme.com`. */
export function normalizeDomain(domain: string | null | undefined): string | null {
  if (!domain) return null;
  const host = domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .split(/[/?#]/)[0]!
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  return host.includes('.') ? host : null;
}

/**
 * Records that may be the same opening share a blocking key: same company, same normalized
 * title, same country. Only records inside one block are compared in detail.
 */
export function blockingKey(company: string, title: string, countryCode: string | null): string {
  return `${company}|${normalizeTitle(title)}|${countryCode ?? '-'}`;
}

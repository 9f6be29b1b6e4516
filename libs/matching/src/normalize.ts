/** Title noise that providers add and that never distinguishes two openings. */
const TITLE_NOISE = [
  /\((?:m|f|w|d|x)(?:\/(?:m|f|w|d|x))+\)/gi,
  /\s+-\s+(?:remote|hybrid|on-?site)\b.*$/i,
  /\b(?:remote|hybrid)\s*$/i,
];

/** Accents off: "São Paulo" → "Sao Paulo", "Ingénieur" → "Ingenieur". */
export function foldAccents(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** Lower-case, noise-free, whitespace-collapsed title: the unit of title comparison. */
export function normalizeTitle(title: string): string {
  let t = foldAccents(title);
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

/**
 * Legal forms as single tokens once dots are gone ("S.p.A." → "spa", "B.V." → "bv"); multi-word
 * forms ("Co., Ltd.", "sp. z o.o.", "S.A. de C.V.", "(Pty) Ltd") are stripped token by token
 * from the end, so every token of them is listed.
 */
const LEGAL_TOKENS = new Set([
  'inc',
  'incorporated',
  'llc',
  'llp',
  'lp',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'plc',
  'gmbh',
  'ag',
  'se',
  'kg',
  'sa',
  'sas',
  'sarl',
  'spa',
  'srl',
  'bv',
  'nv',
  'kk',
  'pty',
  'pte',
  'pvt',
  'private',
  'ab',
  'as',
  'aps',
  'oy',
  'dac',
  'lda',
  'ltda',
  'sl',
  'cv',
  'de',
  'sp',
  'z',
  'oo',
]);

/** "Acme, Inc." / "ACME GmbH" / "Acme S.p.A." → "acme": the company-name part of blocking keys. */
export function normalizeCompanyName(name: string): string {
  const tokens = foldAccents(name)
    .toLowerCase()
    .replace(/&/g, ' and ')
    // "s.p.a." → "spa", "o.o." → "oo": dotted abbreviations become one token before splitting
    .replace(/\b([a-z])\.(?=[a-z]\.)/g, '$1')
    .replace(/\ba\/s\b/g, 'as')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  while (tokens.length > 1 && LEGAL_TOKENS.has(tokens[tokens.length - 1]!)) tokens.pop();
  return tokens.join(' ');
}

/**
 * The key two spellings of one company's name share ("ACME GmbH", "Acme" → "acme"): its
 * normalized name, or the lower-cased name where nothing is left of it.
 */
export function companyNameKey(name: string): string {
  return normalizeCompanyName(name) || name.toLowerCase();
}

/** `https://www.Acme.com/jobs` → `acme.com`. */
export function normalizeDomain(domain: string | null | undefined): string | null {
  if (!domain) return null;
  const host = domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .split(/[/?#]/)[0]!
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  return host.includes('.') ? host : null;
}

/** Lower-case, accent-free place name for equality tests ("München" and "Munchen" agree). */
export function normalizePlace(place: string | null | undefined): string | null {
  if (!place) return null;
  const t = foldAccents(place)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return t === '' ? null : t;
}

/** Query parameters that only say where a click came from, never which opening it is. */
const TRACKING_PARAM = new RegExp(
  '^(?:utm_.*|gclid|fbclid|msclkid|mc_[a-z]+|ref|referrer|source|src|trk|trackingid|tracking_id|' +
    'campaign|medium|gh_src|lever-source|lever-origin|_hs[a-z]+|si)$',
  'i',
);

/**
 * An apply URL reduced to what identifies the posting: host without `www.`, path without a
 * trailing slash, the remaining query parameters sorted; scheme, fragment and tracking
 * parameters dropped. `https://www.acme.com/jobs/1/?utm_source=x` → `acme.com/jobs/1`.
 */
export function canonicalApplyUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  const path = decodeSafe(parsed.pathname).replace(/\/+$/, '');
  const params = [...parsed.searchParams.entries()]
    .filter(([k]) => !TRACKING_PARAM.test(k))
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
  const query = params.length ? `?${params.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
  return `${host}${path}${query}`;
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Records that may be the same opening share a blocking key: same company, same normalized
 * title, same country. Only records inside one block are compared in detail.
 */
export function blockingKey(company: string, title: string, countryCode: string | null): string {
  return `${company}|${normalizeTitle(title)}|${countryCode ?? '-'}`;
}

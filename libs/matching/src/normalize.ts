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

/** A posting's own id in a URL: a number of 3 digits or more, or a UUID. */
const POSTING_ID = /^(?:\d{3,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** What may follow a posting's id in its URL: the posting's apply form. */
const APPLY_PAGE = /^(?:apply|application)$/i;

/**
 * A canonical apply URL (`canonicalApplyUrl`) with the posting's own id set aside, when it has
 * one: `boards.greenhouse.io/acme/jobs/4012345` → `boards.greenhouse.io/acme/jobs/{id}`,
 * `jobs.lever.co/acme/<uuid>/apply` → `jobs.lever.co/acme/{id}/apply`, `acme.com/careers?gh_jid=123`
 * → `acme.com/careers?gh_jid={id}`; null for a URL that names no posting id
 * (`acme.com/careers/backend-engineer`). Two URLs with one pattern are two postings of one board:
 * an ATS gives a re-listed opening a new id, so its URL differs by nature.
 */
export function postingUrlPattern(canonicalUrl: string): string | null {
  const at = canonicalUrl.indexOf('?');
  const path = at < 0 ? canonicalUrl : canonicalUrl.slice(0, at);
  const query = at < 0 ? '' : canonicalUrl.slice(at);
  const segments = path.split('/');
  let last = segments.length - 1;
  if (last > 1 && APPLY_PAGE.test(segments[last]!)) last -= 1;
  if (last > 0 && POSTING_ID.test(segments[last]!)) {
    segments[last] = '{id}';
    return segments.join('/') + query;
  }
  if (!query) return null;
  const params = query.slice(1).split('&');
  const idAt = params.findIndex((p) => POSTING_ID.test(p.slice(p.indexOf('=') + 1)));
  if (idAt < 0) return null;
  params[idAt] = `${params[idAt]!.slice(0, params[idAt]!.indexOf('=') + 1)}{id}`;
  return `${path}?${params.join('&')}`;
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

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

// A bundle plugin (scripts/bundle.mjs, BUNDLE_PLUGIN) that makes the "next version" of a service
// for the rolling-upgrade fault test: every value it serializes for Kafka, its outbox and Redis
// (`jsonBytes` and `jsonText` of @jobs/kafka) gains a field no current reader knows, at the root
// and inside every embedded `request` and `filters` object. Filters carried into a watch are
// stored with it, so the current services also meet the field in rows of the watches table.
//
// The original module is kept whole; only its two exported names move aside behind wrappers, so
// a change to how the pieces are serialized never breaks this plugin. A build where the module
// was not found fails.

/** The field and value the next version adds; the spec looks for it. */
export const NEXT_FIELD = 'upgrade_probe';
export const NEXT_VALUE = 'next';

const TARGET = /\/libs\/kafka\/dist\/json-bytes\.js$/;

const WRAPPERS = `
const NEXT_FIELD = ${JSON.stringify(NEXT_FIELD)};
const NEXT_VALUE = ${JSON.stringify(NEXT_VALUE)};
const EMBEDDED = new Set(['request', 'filters']);
const isPlain = (value) => value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.toJSON !== 'function';
function withNextFields(value, extend) {
  if (Array.isArray(value)) return value.map((item) => withNextFields(item, false));
  if (!isPlain(value)) return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) out[key] = withNextFields(item, EMBEDDED.has(key));
  if (extend) out[NEXT_FIELD] = NEXT_VALUE;
  return out;
}
export function jsonBytes(value) {
  return currentJsonBytes(withNextFields(value, true));
}
export function jsonText(value) {
  return currentJsonText(withNextFields(value, true));
}
`;

let patched = 0;

export default {
  name: 'next-version',
  transform(code, id) {
    if (!TARGET.test(id.replaceAll('\\', '/'))) return null;
    const renamed = code
      .replace('export function jsonBytes(', 'function currentJsonBytes(')
      .replace('export function jsonText(', 'function currentJsonText(');
    if (!renamed.includes('function currentJsonBytes(') || !renamed.includes('function currentJsonText('))
      throw new Error(`next-version: ${id} no longer exports jsonBytes and jsonText as functions`);
    patched += 1;
    return { code: `${renamed}\n${WRAPPERS}`, map: null };
  },
  buildEnd(error) {
    if (!error && patched === 0) throw new Error('next-version: the bundle never loaded libs/kafka/dist/json-bytes.js');
  },
};

/**
 * The JSON Schemas the MCP server publishes in `tools/list`, made from the tools' zod schemas
 * once per process. Arguments and answers are still checked against the zod schemas themselves
 * (the contracts' full bounds); what is published is what a model needs to call each tool right
 * and to know what comes back, in as few bytes as will do, because every client puts the whole
 * `tools/list` into its model's context.
 *
 * - Dialect: JSON Schema 2020-12, the default of the MCP revision the SDK implements (2025-11-25)
 *   when `$schema` is absent, so `$schema` is left out. Only keywords that mean the same in
 *   draft-07 are used, so clients of older revisions that validate as draft-07 agree.
 * - "A string or null" is `type: ["string", "null"]` (an enum gains `null`), not an `anyOf` of two.
 * - Inputs keep what a call depends on: types, enums, numeric bounds, defaults, formats, short
 *   patterns (`^[A-Z]{2}$`), required arguments and `additionalProperties: false`. Item counts,
 *   string lengths and long patterns (ids, cursors, domains: their descriptions say the form)
 *   are checked, not published: a call past them is told so, with every other problem.
 * - A contract object another tool publishes in full (the Filters of `search_jobs`, the Job of
 *   `get_job`) is, where nested in another schema, an object described in words.
 * - Outputs are outlines: an object whose description names every field of the answer, nested
 *   ones in braces (`{id, company{id, name, domain}, sources[{provider, ...}]}`). What a model
 *   plans with before a call is which fields come back; their types and values are in every
 *   answer, which is checked against the full contract before it is sent. An outline holds no
 *   `required` and no `additionalProperties`, so a field added later breaks no client
 *   (interface.md, Versioning).
 * - Both directions drop zod's noise (the safe-integer bounds of `.int()`, the regular
 *   expression zod adds beside `format: "date-time"`) and the contracts' `examples`, which are
 *   for the documentation.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** Longest pattern published in an input; longer ones are the forms of ids, cursors and domains. */
const LONGEST_PUBLISHED_PATTERN = 16;

const INPUT_UNPUBLISHED = ['minItems', 'maxItems', 'minLength', 'maxLength'] as const;

function trim(node: JsonSchema): void {
  // the contracts' examples are for the docs; a model reads the descriptions
  delete node['examples'];
  if (node['maximum'] === Number.MAX_SAFE_INTEGER) delete node['maximum'];
  if (node['minimum'] === Number.MIN_SAFE_INTEGER) delete node['minimum'];
  if (node['format'] === 'date-time') delete node['pattern'];
  for (const key of INPUT_UNPUBLISHED) delete node[key];
  if (typeof node['pattern'] === 'string' && node['pattern'].length > LONGEST_PUBLISHED_PATTERN) delete node['pattern'];
}

/**
 * The published form of `schema`: `input` for arguments, `output` for structured results.
 * `outlines` names contract schemas another tool publishes in full: nested anywhere below the
 * root, such a schema is published as an object with its description only.
 */
export function publishedSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  outlines: ReadonlyMap<z.ZodType, string> = new Map(),
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const node = jsonSchema as JsonSchema;
      const zod = zodSchema as unknown as z.ZodType;
      const outline = zod === schema ? undefined : outlines.get(zod);
      if (outline === undefined) return trim(node);
      for (const key of Object.keys(node)) delete node[key];
      Object.assign(node, { type: 'object', description: outline });
    },
  }) as JsonSchema;
  delete json['$schema'];
  const merged = mergeNullables(json) as JsonSchema;
  return io === 'input' ? merged : outlineOf(merged);
}

const isNull = (node: unknown): boolean =>
  typeof node === 'object' &&
  node !== null &&
  Object.keys(node).length === 1 &&
  (node as JsonSchema)['type'] === 'null';

/** `anyOf: [X, {type: null}]` as X with `null` added to its type (and enum), wherever X has one type. */
function mergeNullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeNullables);
  if (node === null || typeof node !== 'object') return node;
  const merged = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, mergeNullables(value)]));
  const anyOf = merged['anyOf'];
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || !anyOf.some(isNull)) return merged;
  const other = anyOf.find((branch) => !isNull(branch)) as JsonSchema;
  if (typeof other['type'] !== 'string' || 'anyOf' in other) return merged;
  const { anyOf: _union, ...siblings } = merged;
  return {
    ...other,
    type: [other['type'], 'null'],
    ...(Array.isArray(other['enum']) ? { enum: [...(other['enum'] as unknown[]), null] } : {}),
    ...siblings,
  };
}

const isObject = (node: JsonSchema): boolean =>
  node['type'] === 'object' || (Array.isArray(node['type']) && node['type'].includes('object'));

/**
 * A schema's fields in words: `{id, name, domain}`, `[{provider, code}]`, an object described in
 * words as `(its description)`; '' for a scalar.
 */
export function fieldList(node: JsonSchema): string {
  if (Array.isArray(node['anyOf'])) {
    return (node['anyOf'] as JsonSchema[])
      .filter((branch) => !isNull(branch))
      .map(fieldList)
      .filter(Boolean)
      .join(' | ');
  }
  const items = node['items'] as JsonSchema | undefined;
  if (items !== undefined) {
    const inner = fieldList(items);
    return inner === '' ? '' : `[${inner}]`;
  }
  const properties = node['properties'] as Record<string, JsonSchema> | undefined;
  if (properties === undefined || Object.keys(properties).length === 0) {
    return isObject(node) && typeof node['description'] === 'string' ? `(${node['description']})` : '';
  }
  return `{${Object.entries(properties)
    .map(([name, child]) => `${name}${fieldList(child)}`)
    .join(', ')}}`;
}

/**
 * An output schema's outline: an object whose description names every field, nested ones in
 * braces. Types, enums and nullability are left to the answers themselves and the contract they
 * are checked against; what a model plans with before a call is which fields come back.
 */
function outlineOf(root: JsonSchema): JsonSchema {
  return { type: 'object', description: fieldList(root) };
}

/**
 * The JSON Schemas the MCP server publishes in `tools/list`, made from the tools' zod schemas
 * once per process. Arguments and answers are still checked against the zod schemas themselves
 * (the contracts' full bounds); what is published is what a model and a client need to read, in
 * as few bytes as will do, because every client puts the whole `tools/list` into its model's
 * context.
 *
 * - Dialect: JSON Schema 2020-12, the default of the MCP revision the SDK implements (2025-11-25)
 *   when `$schema` is absent, so `$schema` is left out. Only keywords that mean the same in
 *   draft-07 are used (no `prefixItems`, no `unevaluated*`; `$defs` is understood by draft-07
 *   validators such as Ajv), so clients of older revisions that validate as draft-07 agree.
 * - A contract object another tool publishes in full (the Job of `get_job`, the Filters of
 *   `search_jobs`) is, where it is nested in another answer, an object described in words.
 * - A sub-schema used more than once (a Job inside two event types, a Company reference) is
 *   written once under `$defs` and referred to with `$ref`.
 * - Output schemas describe what the service sends, not what it checks: patterns, length and
 *   item bounds and `additionalProperties: false` are left out. Dropping the last also keeps the
 *   versioning rule that clients ignore fields added later (interface.md, Versioning).
 * - Both directions drop zod's noise (the safe-integer bounds of `.int()`, the regular
 *   expression zod adds beside `format: "date-time"`) and the contracts' `examples`, which are
 *   for the documentation.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const OUTPUT_ONLY_DROPPED = ['pattern', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const;

function trim(node: JsonSchema, io: 'input' | 'output'): void {
  // the contracts' examples are for the docs; a model reads the descriptions
  delete node['examples'];
  if (node['maximum'] === Number.MAX_SAFE_INTEGER) delete node['maximum'];
  if (node['minimum'] === Number.MIN_SAFE_INTEGER) delete node['minimum'];
  if (node['format'] === 'date-time') delete node['pattern'];
  if (io === 'output') {
    for (const key of OUTPUT_ONLY_DROPPED) delete node[key];
    if (node['additionalProperties'] === false) delete node['additionalProperties'];
  }
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
      if (outline === undefined) return trim(node, io);
      for (const key of Object.keys(node)) delete node[key];
      Object.assign(node, { type: 'object', description: outline });
    },
  }) as JsonSchema;
  delete json['$schema'];
  return shareRepeats(json);
}

/** A repeated sub-schema shorter than this stays inline: a `$ref` and its `$defs` entry would not save much. */
const MIN_SHARED_BYTES = 100;

/**
 * Writes each sub-schema that occurs more than once (and is long enough to matter) once under
 * `$defs`, largest first, and refers to it with `$ref`.
 */
function shareRepeats(root: JsonSchema): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  for (;;) {
    const counts = new Map<string, number>();
    const visit = (node: unknown, isRoot: boolean): void => {
      if (Array.isArray(node)) return node.forEach((item) => visit(item, false));
      if (node === null || typeof node !== 'object') return;
      const text = JSON.stringify(node);
      if (!isRoot && text.length >= MIN_SHARED_BYTES) counts.set(text, (counts.get(text) ?? 0) + 1);
      for (const value of Object.values(node)) visit(value, false);
    };
    visit(root, true);
    Object.values(defs).forEach((def) => visit(def, true));
    const repeated = [...counts].filter(([, count]) => count > 1).sort(([a], [b]) => b.length - a.length)[0]?.[0];
    if (!repeated) break;
    const def = JSON.parse(repeated) as JsonSchema;
    const base = nameOf(def);
    let name = base;
    for (let n = 2; name in defs; n++) name = `${base}${n}`;
    const replace = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(replace);
      if (node === null || typeof node !== 'object') return node;
      if (JSON.stringify(node) === repeated) return { $ref: `#/$defs/${name}` };
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replace(value)]));
    };
    root = replace(root) as JsonSchema;
    for (const [id, existing] of Object.entries(defs))
      defs[id] = Object.fromEntries(Object.entries(existing).map(([key, value]) => [key, replace(value)]));
    defs[name] = def;
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

const SHAPES: [name: string, has: string[]][] = [
  ['Job', ['sources', 'license']],
  ['JobData', ['job']],
  ['Filters', ['title_or', 'include_closed']],
  ['CompanyRef', ['id', 'name', 'domain']],
  ['IsHiring', ['value', 'confidence', 'basis']],
  ['Location', ['city', 'country_code']],
  ['Salary', ['currency', 'period']],
  ['Source', ['provider', 'provider_job_id']],
  ['Watch', ['webhook_url', 'events']],
];

function nameOf(def: JsonSchema): string {
  const properties = Object.keys((def['properties'] as object | undefined) ?? {});
  const shape = SHAPES.find(([, has]) => has.every((key) => properties.includes(key)));
  if (shape) return shape[0];
  if (Array.isArray(def['enum'])) return 'Enum';
  if (Array.isArray(def['anyOf'])) return 'Union';
  return typeof def['type'] === 'string' ? def['type'].replace(/^./, (c) => c.toUpperCase()) : 'Schema';
}

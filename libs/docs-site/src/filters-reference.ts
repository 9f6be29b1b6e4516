/**
 * The reference table of the Filters guide (guides/filters.md), rendered from the contracts'
 * FiltersSchema: each filter's type and bounds from the schema itself, its meaning and example
 * from the schema's metadata. `filters-reference.spec.ts` fails when the guide's table differs
 * from this rendering; `npm run docs:filters` writes it.
 */
import { z } from 'zod';
import { FiltersSchema } from '@jobs/contracts';

type Json = Record<string, unknown>;

/** String patterns of the filters, in words; a pattern not listed here fails the rendering. */
const PATTERNS: Record<string, string> = {
  '^[A-Z]{2}$': 'country code (two upper-case letters)',
  '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$':
    'domain name (lower case, no scheme or path)',
};

const code = (value: unknown) => `\`${String(value)}\``;

function range(min: unknown, max: unknown, unit: string): string {
  if (min !== undefined && max !== undefined)
    return min === max ? `${String(min)} ${unit}` : `${String(min)} to ${String(max)} ${unit}`;
  if (min !== undefined) return `at least ${String(min)} ${unit}`;
  if (max !== undefined) return `at most ${String(max)} ${unit}`;
  return '';
}

/** A scalar JSON Schema in words: "integer, 1 to 365", "string of 1 to 200 characters", "one of `a`, `b`". */
function scalar(schema: Json): string {
  if (Array.isArray(schema['enum'])) return `one of ${(schema['enum'] as unknown[]).map(code).join(', ')}`;
  const type = schema['type'];
  if (Array.isArray(type)) return type.map((one) => scalar({ ...schema, type: one })).join(' or ');
  if (type === 'string') {
    const pattern = schema['pattern'];
    if (typeof pattern === 'string') {
      const words = PATTERNS[pattern];
      if (!words) throw new Error(`filters-reference: describe the pattern ${pattern} in PATTERNS`);
      return words;
    }
    const length = range(schema['minLength'], schema['maxLength'], 'characters');
    return length ? `string of ${length}` : 'string';
  }
  if (type === 'integer' || type === 'number') {
    const bounds = range(schema['minimum'], schema['maximum'], '').trim();
    return bounds ? `${type}, ${bounds}` : type;
  }
  if (type === 'boolean' || type === 'null') return type;
  throw new Error(`filters-reference: no words for ${JSON.stringify(schema)}`);
}

/** A filter's JSON Schema in words. */
export function typeInWords(schema: Json): string {
  if (Array.isArray(schema['anyOf'])) return (schema['anyOf'] as Json[]).map(typeInWords).join(' or ');
  if (schema['type'] === 'array') {
    const count = range(schema['minItems'], schema['maxItems'], 'items');
    const items = schema['items'] as Json;
    return Array.isArray(items['enum'])
      ? `list of ${count} from ${(items['enum'] as unknown[]).map(code).join(', ')}`
      : `list of ${count}, each a ${scalar(items)}`;
  }
  return scalar(schema);
}

export interface FilterReference {
  name: string;
  type: string;
  meaning: string;
  /** The filter alone in a Filters object, as JSON. */
  example: string;
}

/** Every filter of the contracts, in their order. */
export function filterReferences(): FilterReference[] {
  const json = z.toJSONSchema(FiltersSchema, { target: 'draft-2020-12', io: 'input' }) as {
    properties: Record<string, Json>;
  };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, examples, ...schema } = property;
    if (typeof description !== 'string' || !Array.isArray(examples) || examples.length === 0) {
      throw new Error(`filters-reference: filter ${name} needs a description and an example in its schema (.meta)`);
    }
    return { name, type: typeInWords(schema), meaning: description, example: JSON.stringify({ [name]: examples[0] }) };
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The Markdown table between the guide's `filters:start` and `filters:end` markers. */
export function renderFiltersTable(): string {
  const rows = filterReferences().map(
    (filter) => `| \`${filter.name}\` | ${cell(filter.type)} | ${cell(filter.meaning)} | \`${filter.example}\` |`,
  );
  return ['| Filter | Type | Meaning | Example |', '|---|---|---|---|', ...rows].join('\n');
}

/**
 * A reader's view of a schema: the same schema with every object, at every depth, accepting keys
 * it does not declare and keeping them in the parsed value (zod's loose objects).
 *
 * Why: services are deployed one replica at a time, so a message written by a newer version
 * meets readers that do not know its new fields yet (and a rollback meets rows written by the
 * newer one). A strict reader would park every such message in `dead-letter`; a tolerant one
 * reads what it knows and passes the rest on untouched, so a field added by one service reaches
 * the next one that knows it (docs/architecture.md, "Changing a message").
 *
 * The strict schemas stay the one source of truth: producers are typed by them, public requests
 * are validated by them (an unknown field there is a 400), and the OpenAPI document is generated
 * from them. Only readers derive this view. Everything else stays as declared: literals (`v`),
 * enums, formats, bounds and refinements (an object's own checks are kept with it).
 */
import { z } from 'zod';

type Schema = z.core.$ZodType;
type Def = z.core.$ZodTypeDef & Record<string, unknown>;

const readers = new WeakMap<Schema, Schema>();

/** The tolerant reader of `schema` (derived once per schema; the result parses to the same type plus unknown keys). */
export function tolerantReaderOf<S extends z.ZodType>(schema: S): S {
  return readerOf(schema) as S;
}

function readerOf(schema: Schema): Schema {
  const known = readers.get(schema);
  if (known) return known;
  const def = schema._zod.def as Def;
  // A lazy schema may refer to itself: its getter resolves the reader when first parsed.
  if (def.type === 'lazy') {
    const { getter, _cachedInner: _resolved, ...rest } = def as Def & { getter: () => Schema; _cachedInner?: Schema };
    const reader = z.core.util.clone(schema, { ...rest, getter: () => readerOf(getter()) } as typeof def);
    readers.set(schema, reader);
    return reader;
  }
  const changed = childrenOf(def);
  const reader = changed ? z.core.util.clone(schema, { ...def, ...changed } as typeof def) : schema;
  readers.set(schema, reader);
  return reader;
}

/** The def's parts that hold other schemas, as readers; undefined when none changes (a leaf). */
function childrenOf(def: Def): Record<string, unknown> | undefined {
  const one = (key: string) => readerOf(def[key] as Schema);
  switch (def.type) {
    case 'object': {
      const shape = def['shape'] as Record<string, Schema>;
      const catchall = def['catchall'] as Schema | undefined;
      const open = catchall === undefined || catchall._zod.def.type === 'never';
      return {
        shape: Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, readerOf(value)])),
        catchall: open ? z.unknown() : readerOf(catchall),
      };
    }
    case 'array':
      return { element: one('element') };
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      return { innerType: one('innerType') };
    case 'union':
      return { options: (def['options'] as Schema[]).map(readerOf) };
    case 'intersection':
      return { left: one('left'), right: one('right') };
    case 'pipe':
      return { in: one('in'), out: one('out') };
    case 'record':
      return { valueType: one('valueType') };
    case 'tuple': {
      const rest = def['rest'] as Schema | null;
      return { items: (def['items'] as Schema[]).map(readerOf), rest: rest ? readerOf(rest) : rest };
    }
    default:
      return undefined;
  }
}

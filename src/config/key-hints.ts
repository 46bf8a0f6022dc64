/**
 * What to say of a key the schema does not know: the known key it was probably meant to be (an
 * edit distance of at most a third of its length, at least 1, or 2 from 5 letters on: `verfy` →
 * `verify`, `modle` → `model`), else the keys
 * that may appear there.
 */
import { closest, distance } from 'fastest-levenshtein';
import type { z } from 'zod';

/** Internal definition of a zod v4 schema: the parts read here. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const def = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under defaults, optionals, nullables, pipes and transforms. */
function unwrap(schema: z.ZodType): z.ZodType {
  let node = schema;
  for (let d = def(node); ; d = def(node)) {
    const inner = d.innerType ?? (d.type === 'pipe' ? d.in : undefined);
    if (!inner) return node;
    node = inner;
  }
}

/** The keys an object at `path` of values checked by `schema` may have; [] when it is not an object. */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node = unwrap(schema);
  for (const key of path) {
    const d = def(node);
    const next = d.type === 'object' ? d.shape?.[String(key)] : d.type === 'array' ? d.element : d.type === 'record' ? d.valueType : undefined;
    if (!next) return [];
    node = unwrap(next);
  }
  const d = def(node);
  return d.type === 'object' && d.shape ? Object.keys(d.shape) : [];
}

/**
 * `unknown key verfy (did you mean verify?)`, or `unknown key foo (keys here: a, b)`.
 * @param keys the unknown keys of one object
 * @param known the keys that object may have ({@link keysAt})
 */
export function unknownKeysProblem(keys: readonly string[], known: readonly string[]): string {
  const hints = keys.map((key) => {
    if (known.length === 0) return key;
    const near = closest(key, known as string[]);
    return distance(key, near) <= Math.max(key.length >= 5 ? 2 : 1, Math.floor(key.length / 3)) ? `${key} (did you mean ${near}?)` : key;
  });
  const guessed = hints.every((h, i) => h !== keys[i]);
  const list = known.length > 0 && !guessed ? ` (keys here: ${known.join(', ')})` : '';
  return `unknown key${keys.length > 1 ? 's' : ''} ${hints.join(', ')}${list}`;
}

// A fast acceptance check derived from a zod schema, for the hub's hottest
// requests. It exists only for a strict object whose every field is a string
// bounded by min/max length, or a boolean, either of them optional; any other
// schema has none (undefined), and zod alone decides. It accepts exactly the
// values zod accepts and hands them on as they are (no copy); anything it does
// not accept goes to zod, which then gives the error with its issues. The zod
// schema stays the one declaration: this reads its definition, never repeats
// it. Pure.

import type { z } from 'zod';

interface Field {
  readonly key: string;
  readonly optional: boolean;
  /** null: a boolean; otherwise a string of length min..max (UTF-16 units, as zod counts). */
  readonly length: { readonly min: number; readonly max: number } | null;
}

/** The parts of zod's definitions read here (zod 4's `def`); anything else means "no fast check". */
interface Def {
  type?: string;
  shape?: Record<string, { def?: Def }>;
  catchall?: { def?: Def };
  innerType?: { def?: Def };
  checks?: Array<{ _zod?: { def?: { check?: string; minimum?: number; maximum?: number } } }>;
}

function fieldOf(key: string, def: Def | undefined): Field | undefined {
  if (def === undefined) return undefined;
  if (def.type === 'optional') {
    const inner = fieldOf(key, def.innerType?.def);
    return inner === undefined || inner.optional ? undefined : { ...inner, optional: true };
  }
  if (def.type === 'boolean')
    return (def.checks ?? []).length === 0 ? { key, optional: false, length: null } : undefined;
  if (def.type !== 'string') return undefined;
  let min = 0;
  let max = Infinity;
  for (const check of def.checks ?? []) {
    const c = check._zod?.def;
    if (c?.check === 'min_length' && typeof c.minimum === 'number') min = Math.max(min, c.minimum);
    else if (c?.check === 'max_length' && typeof c.maximum === 'number') max = Math.min(max, c.maximum);
    else return undefined;
  }
  return { key, optional: false, length: { min, max } };
}

/** The fast check of `schema`, or undefined when its shape is not one this understands. */
export function flatAccept<S extends z.ZodType>(schema: S): ((x: unknown) => z.output<S> | undefined) | undefined {
  const def = (schema as { def?: Def }).def;
  if (def?.type !== 'object' || def.shape === undefined || def.catchall?.def?.type !== 'never') return undefined;
  const fields: Field[] = [];
  for (const [key, value] of Object.entries(def.shape)) {
    const field = fieldOf(key, value.def);
    if (field === undefined) return undefined;
    fields.push(field);
  }
  return (x: unknown): z.output<S> | undefined => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return undefined;
    const o = x as Record<string, unknown>;
    let present = 0;
    for (const f of fields) {
      const v = o[f.key];
      if (v === undefined) {
        if (!f.optional) return undefined;
        continue;
      }
      present++;
      if (f.length === null) {
        if (typeof v !== 'boolean') return undefined;
      } else if (typeof v !== 'string' || v.length < f.length.min || v.length > f.length.max) return undefined;
    }
    // Strict: every enumerable key is one of the fields (an inherited or undefined-valued one sends it to zod).
    let keys = 0;
    for (const _key in o) keys++;
    return keys === present ? (o as z.output<S>) : undefined;
  };
}

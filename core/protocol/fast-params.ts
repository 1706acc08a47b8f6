// A shortcut past zod for the params of the hottest methods. For a strict
// object schema made only of strings (with length bounds), booleans and
// optional ones of those, it compiles a plain check that accepts exactly what
// the schema accepts; anything it does not accept (or any other schema) goes
// to the zod schema, which gives its usual answer and its usual errors. On
// success it returns the params object itself (no transform can apply).

import type { z } from 'zod';

/** The params when the shortcut accepts them, undefined when the zod schema must decide. */
export type FastCheck = (params: unknown) => Record<string, unknown> | undefined;

interface Field {
  key: string;
  optional: boolean;
  kind: 'string' | 'boolean';
  min: number;
  max: number;
}

interface Def {
  type: string;
  coerce?: boolean;
  checks?: Array<{ _zod: { def: { check: string; minimum?: number; maximum?: number } } }>;
  innerType?: { _zod: { def: Def } };
  catchall?: { _zod: { def: Def } };
  shape?: Record<string, { _zod: { def: Def } }>;
}

function fieldOf(key: string, def: Def): Field | undefined {
  let optional = false;
  if (def.type === 'optional' && def.innerType !== undefined) {
    optional = true;
    def = def.innerType._zod.def;
  }
  if (def.coerce === true) return undefined;
  if (def.type === 'boolean' && (def.checks ?? []).length === 0) return { key, optional, kind: 'boolean', min: 0, max: 0 };
  if (def.type !== 'string') return undefined;
  let min = 0;
  let max = Infinity;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length' && typeof d.minimum === 'number') min = Math.max(min, d.minimum);
    else if (d.check === 'max_length' && typeof d.maximum === 'number') max = Math.min(max, d.maximum);
    else return undefined; // a pattern, trim or anything else: zod decides
  }
  return { key, optional, kind: 'string', min, max };
}

/** The shortcut for `schema`, or undefined when its shape is not one the shortcut covers. */
export function compileFastCheck(schema: z.ZodType): FastCheck | undefined {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type !== 'object' || def.catchall?._zod.def.type !== 'never' || def.shape === undefined) return undefined;
  const fields: Field[] = [];
  for (const [key, s] of Object.entries(def.shape)) {
    const f = fieldOf(key, s._zod.def);
    if (f === undefined) return undefined;
    fields.push(f);
  }
  const known = new Set(fields.map((f) => f.key));
  return (params) => {
    if (params === null || typeof params !== 'object' || Object.getPrototypeOf(params) !== Object.prototype) return undefined;
    const p = params as Record<string, unknown>;
    for (const k in p) if (!known.has(k)) return undefined; // an unknown key (or an own "__proto__"): zod's error
    for (const f of fields) {
      const v = p[f.key];
      if (v === undefined) {
        if (f.optional && !Object.prototype.hasOwnProperty.call(p, f.key)) continue;
        return undefined;
      }
      if (f.kind === 'boolean') {
        if (typeof v !== 'boolean') return undefined;
      } else if (typeof v !== 'string' || v.length < f.min || v.length > f.max) return undefined;
    }
    return p;
  };
}

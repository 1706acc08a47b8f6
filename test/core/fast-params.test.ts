// The shortcut past zod (core/protocol/fast-params.ts) never accepts what a
// method's schema refuses, and what it accepts is what the schema returns:
// checked on generated params around every bound, for every method it covers.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileFastCheck } from '../../core/protocol/fast-params.js';
import { METHODS } from '../../core/protocol/methods.js';

/** A small deterministic generator (the same cases every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const odd: unknown[] = [null, 0, 1.5, -1, true, false, [], ['a'], {}, { a: 1 }, '', 'x', 'é'.repeat(3), '\u{1F600}'];

interface FieldInfo {
  key: string;
  kind: string;
  optional: boolean;
  min: number;
  max: number;
}

function fieldsOf(schema: z.ZodType): FieldInfo[] {
  const shape = (schema as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([key, s]) => {
    const def = (s as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
    const inner = def.innerType ?? s;
    const { minLength, maxLength } = inner as z.ZodString;
    return { key, kind: (inner as unknown as { _zod: { def: { type: string } } })._zod.def.type, optional: def.type === 'optional', min: minLength ?? 0, max: maxLength ?? 100 };
  });
}

/** Valid params, then 0–3 fields changed to values around their bounds or of the wrong type, removed, or extra keys. */
function cases(fields: FieldInfo[], n: number): unknown[] {
  const r = rng(42);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const out: unknown[] = [null, [], 'params', 5, Object.create(null), JSON.parse('{"__proto__":{"x":1}}')];
  for (let i = 0; i < n; i++) {
    const p: Record<string, unknown> = {};
    for (const f of fields) {
      if (f.optional && r() < 0.3) continue;
      p[f.key] = f.kind === 'boolean' ? r() < 0.5 : 'a'.repeat(Math.max(1, f.min));
    }
    const changes = Math.floor(r() * 4);
    for (let c = 0; c < changes; c++) {
      const f = pick(fields);
      const what = r();
      if (what < 0.5 && f.kind === 'string') {
        const len = pick([0, 1, f.min - 1, f.min, f.min + 1, f.max - 1, f.max, f.max + 1].filter((x) => x >= 0));
        p[f.key] = r() < 0.7 ? 'a'.repeat(len) : '\u{1F600}'.repeat(Math.ceil(len / 2));
      } else if (what < 0.7) p[f.key] = pick(odd);
      else if (what < 0.8) delete p[f.key];
      else if (what < 0.9) p[f.key] = undefined;
      else p[`extra${c}`] = 'x';
    }
    const json = JSON.stringify(p);
    out.push(r() < 0.03 ? JSON.parse(`{"__proto__":1${json === '{}' ? '' : ','}${json.slice(1)}`) : p);
  }
  return out;
}

describe('fast params', () => {
  const covered = Object.entries(METHODS).filter(([, s]) => compileFastCheck(s) !== undefined);

  it('covers message.send and leaves schemas with defaults, numbers or nesting to zod', () => {
    const names = covered.map(([m]) => m);
    expect(names).toContain('message.send');
    expect(names).not.toContain('session.register');
    expect(names).not.toContain('inbox.fetch');
  });

  for (const [method, schema] of covered) {
    it(`${method}: accepts only what the schema accepts, unchanged`, () => {
      const check = compileFastCheck(schema)!;
      let accepted = 0;
      let refused = 0;
      for (const params of cases(fieldsOf(schema), 2000)) {
        const fast = check(params);
        const slow = schema.safeParse(params);
        if (fast === undefined) {
          refused++;
          continue;
        }
        accepted++;
        expect(slow.success, JSON.stringify(params)?.slice(0, 200)).toBe(true);
        expect(fast).toEqual(slow.data);
        expect(fast).toBe(params);
      }
      expect(accepted).toBeGreaterThan(100);
      expect(refused).toBeGreaterThan(fieldsOf(schema).length > 0 ? 100 : 10);
    });
  }

  it('message.send: refuses each way the schema refuses, so zod gives its error', () => {
    const check = compileFastCheck(METHODS['message.send'])!;
    const ok = { sessionId: 's', token: 't', to: 'x', summary: 'hi', message: 'body' };
    expect(check(ok)).toBe(ok);
    for (const bad of [
      { ...ok, sessionId: '' },
      { ...ok, sessionId: 'a'.repeat(65) },
      { ...ok, token: 5 },
      { ...ok, to: null },
      { ...ok, summary: 'x'.repeat(401) },
      { ...ok, message: ['a'] },
      { ...ok, notify_when_idle: 'yes' },
      { ...ok, extra: 1 },
      { ...ok, summary: undefined },
      JSON.parse('{"sessionId":"s","token":"t","to":"x","__proto__":{}}'),
      Object.assign(Object.create(null), ok),
    ]) {
      expect(check(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

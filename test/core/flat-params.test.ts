// The hub's fast params check (core/protocol/flat-params.ts) against zod, the
// authority: for every method that has one, on generated inputs near every
// bound, it accepts exactly what zod accepts and hands on the same data.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { flatAccept } from '../../core/protocol/flat-params.js';
import { METHODS } from '../../core/protocol/methods.js';

/** As the hub socket sees it: what JSON.parse makes. */
const asJson = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** A value for a field: strings of lengths around any bound, booleans, and wrong types. */
const value = fc.oneof(
  fc.string({ minLength: 0, maxLength: 3 }),
  fc.integer({ min: 0, max: 5000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(63, 64, 65, 127, 128, 129, 255, 256, 257, 4096, 4097).map((n) => 'é'.repeat(n)),
  fc.boolean(),
  fc.constantFrom(null, 0, 1, [], {}, ['a']),
);

function inputsFor(keys: string[]): fc.Arbitrary<unknown> {
  const likely = fc.oneof({ weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 3 }) }, fc.boolean(), value);
  const known = fc.oneof(
    fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }),
    fc.record(Object.fromEntries(keys.map((k) => [k, likely]))), // every key, mostly valid: acceptance is tried
  );
  const extra = fc.dictionary(fc.constantFrom('extra', '__proto__', 'constructor', '', 'toString'), value, {
    maxKeys: 1,
  });
  return fc.oneof(
    { weight: 8, arbitrary: known.map(asJson) },
    { weight: 2, arbitrary: fc.tuple(known, extra).map(([a, b]) => asJson({ ...a, ...b })) },
    { weight: 1, arbitrary: fc.constantFrom(null, 'x', 1, [], [{}]) },
  );
}

describe('flat params fast check', () => {
  const withCheck = Object.entries(METHODS).filter(([, m]) => m.accept !== undefined);

  it('exists for message.send and the other flat methods, and for no schema it does not understand', () => {
    expect(withCheck.map(([name]) => name)).toContain('message.send');
    expect(withCheck.length).toBeGreaterThan(10);
    expect(flatAccept(METHODS['session.register'].params)).toBeUndefined(); // defaults, numbers, nested objects
    expect(flatAccept(z.object({ a: z.string() }))).toBeUndefined(); // not strict: unknown keys are stripped
    expect(flatAccept(z.strictObject({ a: z.string().regex(/a/) }))).toBeUndefined();
    expect(flatAccept(z.strictObject({ a: z.string().optional().optional() }))).toBeUndefined();
  });

  it.each(withCheck)('%s: accepts exactly what zod accepts, with the same data', (_name, spec) => {
    const keys = Object.keys((spec.params as unknown as { def: { shape: object } }).def.shape);
    let accepted = 0;
    fc.assert(
      fc.property(inputsFor(keys), (input) => {
        const fast = spec.accept!(input);
        const zod = spec.params.safeParse(input);
        expect(fast !== undefined).toBe(zod.success);
        if (fast !== undefined) expect(fast).toStrictEqual(zod.data);
        if (fast !== undefined) accepted++;
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(0); // both sides of the check were tried
  });

  it('takes message.send at its exact bounds, and refuses one unit over', () => {
    const accept = METHODS['message.send'].accept!;
    const base = { sessionId: 'i'.repeat(64), token: 't'.repeat(128), to: 'x'.repeat(4096) };
    expect(accept(base)).toBe(base);
    expect(accept({ ...base, sessionId: 'i'.repeat(65) })).toBeUndefined();
    expect(accept({ ...base, token: '' })).toBeUndefined();
    expect(accept({ ...base, to: 'x'.repeat(4097) })).toBeUndefined();
    expect(accept({ ...base, notify_when_idle: 'yes' })).toBeUndefined();
    expect(accept(JSON.parse('{"__proto__":{"x":1},"sessionId":"a","token":"b","to":"c"}'))).toBeUndefined();
  });
});

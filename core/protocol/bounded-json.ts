// Free-form JSON values that arrive in requests (per-session settings, task
// metadata, a setting's value): any JSON, but at most LIMITS.jsonDepth deep
// and LIMITS.jsonBytes serialized. The walk is iterative, so a value nested
// 100 000 deep costs no stack; whatever it accepts, JSON.stringify (the
// journal, task files) can write and a reader can read back.

import { z } from 'zod';
import { LIMITS } from './limits.js';

export interface JsonBounds {
  readonly jsonDepth: number;
  readonly jsonBytes: number;
}

/** Why `value` is not a bounded JSON value, or undefined when it is one. */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds = LIMITS): string | undefined {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  let estimate = 0; // a lower bound of the serialized size, to stop early on huge values
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (v === null || typeof v === 'boolean') estimate += 4;
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'holds a number JSON cannot represent';
      estimate += 1;
    } else if (typeof v === 'string') estimate += v.length + 2;
    else if (typeof v === 'object') {
      if (depth >= bounds.jsonDepth) return `is nested deeper than ${bounds.jsonDepth} levels`;
      const children: unknown[] = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
      if (!Array.isArray(v)) for (const k of Object.keys(v)) estimate += k.length + 3;
      estimate += 2 + children.length;
      for (const c of children) stack.push({ v: c, depth: depth + 1 });
    } else return 'is not a JSON value';
    if (estimate > bounds.jsonBytes) return `is larger than ${bounds.jsonBytes} bytes as JSON`;
  }
  // The depth is safe now; measure exactly (escapes and UTF-8 only make it bigger than the estimate).
  if (Number.isFinite(bounds.jsonBytes) && utf8Length(JSON.stringify(value)) > bounds.jsonBytes)
    return `is larger than ${bounds.jsonBytes} bytes as JSON`;
  return undefined;
}

/** Another program's file, already size-bounded by its reader: only its depth is bounded here. */
export const FILE_JSON_BOUNDS: JsonBounds = { jsonDepth: LIMITS.jsonDepth, jsonBytes: Infinity };

/** UTF-8 length without Buffer (this module also runs in the renderer). */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else n += 3;
  }
  return n;
}

/** `schema`, refined to accept only bounded JSON values. */
export function boundedJson<T extends z.ZodType>(schema: T, bounds: JsonBounds = LIMITS): T {
  return schema.superRefine((v, ctx) => {
    const problem = jsonBoundsProblem(v, bounds);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `the value ${problem}` });
  });
}

/** A free-form JSON object (settings, metadata): string keys, bounded depth and size. */
export function boundedJsonObject(keyChars: number) {
  return boundedJson(z.record(z.string().max(keyChars), z.unknown()));
}

/** Any bounded JSON value. */
export const BoundedJsonValue = boundedJson(z.unknown());

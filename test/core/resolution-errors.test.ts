// A session never takes a name a live session holds (it gets
// `name-2` and is told), rewritten names are reported, and a send that
// resolves nowhere names what was typed, the closest names, and a prefix too
// short to count.

import { describe, expect, it } from 'vitest';
import { closestRows, editDistance } from '../../core/registry/closest.js';
import { freeName, nameChange, normalizeName, refHash } from '../../core/registry/names.js';
import { arrayIndex, resolveTo, type Row } from '../../core/registry/resolution.js';
import { errorObject, HubError } from '../../core/protocol/errors.js';

function row(name: string, address: string): Row {
  const h = refHash(address);
  return { name, nameNorm: normalizeName(name), ref: h.slice(0, 6), refHash: h, address };
}

function failure(fn: () => unknown): { reason: string; data: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    if (err instanceof HubError) return { reason: err.reason, data: err.data as Record<string, unknown> };
    throw err;
  }
  throw new Error('resolved, expected an error');
}

const list = [row('api', 'uds:/r/a.sock'), row('web', 'uds:/r/w.sock'), row('billing', 'uds:/r/b.sock')];
const labelOf = (r: Row): string => `${r.name} [${r.ref}]`;

describe('names a new session gets', () => {
  it('a held name gets the first free -2, -3 …, within 64 characters', () => {
    const held = new Set(['api', 'api-2']);
    expect(freeName('api', (n) => held.has(n))).toBe('api-3');
    expect(freeName('web', (n) => held.has(n))).toBe('web');
    const long = 'a'.repeat(64);
    const got = freeName(long, (n) => n === long);
    expect(got).toHaveLength(64);
    expect(got.endsWith('-2')).toBe(true);
  });

  it('says nothing when the name was kept', () => {
    expect(nameChange('api', 'api')).toBeUndefined();
  });

  it('says when the name was rewritten, and to what', () => {
    const rewritten = nameChange('My API', 'my-api');
    expect(rewritten).toMatchObject({ requested: 'My API', reasons: ['rewritten'] });
    expect(rewritten?.note).toContain('"my-api"');
  });

  it('says when the name was taken, by whom, and the name given instead', () => {
    const taken = nameChange('api', 'api-2', 'api [f9e9ab]');
    expect(taken).toMatchObject({ reasons: ['taken'] });
    expect(taken?.note).toContain('api [f9e9ab]');
    expect(taken?.note).toContain('"api-2"');
  });

  it('gives both reasons when the name was rewritten to one that is taken', () => {
    expect(nameChange('API', 'api-2', 'api [f9e9ab]')?.reasons).toEqual(['rewritten', 'taken']);
  });
});

describe('resolution errors name what was typed', () => {
  it('a typo is not found, with the closest names as candidates', () => {
    const f = failure(() => resolveTo('apx', arrayIndex(list)));
    expect(f.reason).toBe('target_not_found');
    expect(f.data).toEqual({ to: 'apx', candidates: [labelOf(list[0]!)] });
    expect(failure(() => resolveTo('billnig', arrayIndex(list))).data.candidates).toEqual([labelOf(list[2]!)]);
    expect(failure(() => resolveTo('zzzzzz', arrayIndex(list))).data).toEqual({ to: 'zzzzzz', candidates: [] });
  });

  it('a prefix under 3 characters is too short, whether it matches one name or several', () => {
    const f = failure(() => resolveTo('ap', arrayIndex(list)));
    expect(f.reason).toBe('to_too_short');
    expect(f.data).toEqual({ to: 'ap', candidates: [labelOf(list[0]!)], minChars: 3 });
    expect(resolveTo('bil', arrayIndex(list))).toMatchObject({ kind: 'row', row: { name: 'billing' } });
  });

  it('a name [ref] whose ref is another session offers that name', () => {
    const f = failure(() => resolveTo(`web [${list[0]!.ref}]`, arrayIndex(list)));
    expect(f).toEqual({
      reason: 'target_not_found',
      data: { to: `web [${list[0]!.ref}]`, candidates: [labelOf(list[1]!)] },
    });
  });

  it('the edit distance gives up past its bound', () => {
    expect(editDistance('api', 'apx', 5)).toBe(1);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2); // gave up past the bound
  });

  it('suggests at most 3 names, small edits before names that contain what was typed', () => {
    const rows = ['web-1', 'web-2', 'web-3', 'web-4', 'wex'].map((n, i) => row(n, `uds:/m/${i}.sock`));
    expect(closestRows('web', rows).map((r) => r.name)).toEqual(['wex', 'web-1', 'web-2']);
    expect(closestRows('', rows)).toEqual([]);
  });

  // The hub's error text, which the CLI, the MCP tools and the web UI all show.
  it('the error text says what was typed and what would fit', () => {
    const f = failure(() => resolveTo('apx', arrayIndex(list)));
    expect(errorObject('target_not_found', f.data).message, 'not found, with a candidate').toBe(
      `No live session matches "apx". Did you mean ${labelOf(list[0]!)}?`,
    );
    const short = failure(() => resolveTo('bi', arrayIndex(list)));
    expect(errorObject('to_too_short', short.data).message, 'too short').toContain('"bi" is too short');
    expect(errorObject('message_too_large', { bytes: 300 * 1024, limitBytes: 256 * 1024 }).message, 'too large').toBe(
      'The message is 300 KiB; the limit is 256 KiB. Nothing was sent.',
    );
    expect(errorObject('target_not_found').message, 'not found, no data').toBe(
      'No live session matches "to"; list agents to see who is reachable',
    );
  });
});

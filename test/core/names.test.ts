import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assignRefs, deriveName, normalizeName, parseLabel, refHash, validName } from '../../core/registry/names.js';
import { arrayIndex, Pins, resolveTo, type Row } from '../../core/registry/resolution.js';
import { HubError } from '../../core/protocol/errors.js';

function row(name: string, address: string, ref?: string): Row {
  const h = refHash(address);
  return { name, nameNorm: normalizeName(name), ref: ref ?? h.slice(0, 6), refHash: h, address };
}

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof HubError) return err.reason;
    throw err;
  }
  return undefined;
}

describe('names', () => {
  it('derives from the cwd base name', () => {
    expect(deriveName('/home/u/MyApp', '3f')).toBe('myapp-3f');
    expect(deriveName('/home/u/my app.v2', 'a0')).toBe('my-app-v2-a0');
    expect(deriveName('/', '01')).toBe('agent-01');
    expect(deriveName('/x/' + 'a'.repeat(60), 'ff')).toBe('a'.repeat(40) + '-ff');
  });

  // NFKC, lowercase, no control or format characters, - for whitespace.
  it('normalizes a typed name to its plain form', () => {
    expect(normalizeName('  Ｗorker\u200b One\u0007 ')).toBe('worker-one');
  });

  it('refuses reserved, address-like and @ names', () => {
    for (const bad of [
      'main',
      'MAIN',
      'team-lead',
      'a@b',
      'uds:/x',
      '/tmp/x',
      'x [abc123]',
      '',
      '   ',
      'a'.repeat(65),
      'local_deadbeef-1234', // a Claude Desktop session id: a send to it resolves to that session, never to a name
    ]) {
      expect(validName(bad), bad).toBeUndefined();
    }
    expect(validName('API Worker')).toBe('api-worker');
  });

  it('refs are 6 hex characters, lengthened while rows collide', () => {
    const a = 'abcdef0123' + '0'.repeat(54);
    const b = 'abcdef0199' + '0'.repeat(54);
    const c = '123456' + '0'.repeat(58);
    expect(assignRefs([a, b, c])).toEqual(['abcdef012', 'abcdef019', '123456']);
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[0-9a-f]{64}$/), { maxLength: 50 }), (hashes) => {
        const refs = assignRefs(hashes);
        expect(new Set(refs).size).toBe(hashes.length);
        refs.forEach((r, i) => expect(hashes[i]!.startsWith(r)).toBe(true));
      }),
    );
  });

  it('parses name [ref] labels', () => {
    expect(parseLabel('worker [3fa9c1]')).toEqual({ name: 'worker', ref: '3fa9c1' });
    expect(parseLabel('worker')).toBeUndefined();
  });
});

describe('resolution of to', () => {
  const list = [
    row('api-worker', 'uds:/r/a.sock'),
    row('api-tests', 'uds:/r/b.sock'),
    row('web', 'uds:/r/c.sock'),
    row('web', 'uds:/r/d.sock'),
  ];
  const rows = arrayIndex(list);

  it('refuses a recipient that cannot name one session, with a reason saying why', () => {
    expect(
      reason(() => resolveTo('  ', rows)),
      'an empty name',
    ).toBe('to_empty');
    expect(
      reason(() => resolveTo('*', rows)),
      'a broadcast',
    ).toBe('to_broadcast');
    expect(
      reason(() => resolveTo('web@team', rows)),
      'a team address',
    ).toBe('to_has_at');
    expect(
      reason(() => resolveTo('main', rows)),
      'a reserved name',
    ).toBe('to_reserved');
  });

  it('uses addresses directly, known or not', () => {
    expect(resolveTo('uds:/r/a.sock', rows)).toMatchObject({ kind: 'row', row: { name: 'api-worker' } });
    expect(resolveTo('uds:/elsewhere.sock', rows)).toEqual({ kind: 'address', address: 'uds:/elsewhere.sock' });
    expect(resolveTo('/elsewhere.sock', rows)).toEqual({ kind: 'address', address: '/elsewhere.sock' });
  });

  it('selects name [ref], exact names, and unique prefixes of at least 3', () => {
    const d = list[3]!;
    expect(resolveTo(`web [${d.ref}]`, rows)).toMatchObject({ row: { address: 'uds:/r/d.sock' } });
    expect(resolveTo('API-Worker', rows)).toMatchObject({ row: { address: 'uds:/r/a.sock' } });
    expect(resolveTo('api-w', rows)).toMatchObject({ row: { address: 'uds:/r/a.sock' } });
    expect(reason(() => resolveTo('ap', rows))).toBe('to_too_short'); // the start of two names, under 3 characters
    expect(reason(() => resolveTo('nobody', rows))).toBe('target_not_found');
  });

  it('never guesses: ambiguity lists up to 3 candidates as name [ref]', () => {
    try {
      resolveTo('web', rows);
      expect.unreachable();
    } catch (err) {
      expect((err as HubError).reason).toBe('target_ambiguous');
      expect((err as HubError).data).toEqual({
        to: 'web',
        candidates: [`web [${list[2]!.ref}]`, `web [${list[3]!.ref}]`],
      });
    }
    const many = ['a1', 'a2', 'a3', 'a4'].map((n, i) => row(`abc-${n}`, `uds:/m/${i}.sock`));
    try {
      resolveTo('abc', arrayIndex(many));
      expect.unreachable();
    } catch (err) {
      expect(((err as HubError).data as { candidates: string[] }).candidates).toHaveLength(3);
    }
  });

  it('a ref that belongs to a row of another name does not resolve', () => {
    expect(reason(() => resolveTo(`web [${list[0]!.ref}]`, rows))).toBe('target_not_found');
  });

  it('pins a name to the session it was sent to', () => {
    const pins = new Pins();
    const first = row('worker', 'uds:/r/1.sock');
    const second = row('worker', 'uds:/r/2.sock');
    pins.pin('me', first);
    expect(() => pins.check('me', 'worker', first)).not.toThrow();
    expect(reason(() => pins.check('me', 'worker', second))).toBe('pin_mismatch');
    expect(() => pins.check('me', `worker [${second.ref}]`, second)).not.toThrow();
    expect(() => pins.check('someone-else', 'worker', second)).not.toThrow();
  });
});

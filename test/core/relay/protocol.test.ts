// Relay payloads from the broker are untrusted: bounded schemas, our own
// format (unknown keys refused), machine names that keep peer: addresses
// unambiguous; garbage decodes to nothing.
import { describe, expect, it } from 'vitest';
import {
  decode,
  encode,
  machineToken,
  parsePeerAddress,
  Presence,
  RelayMessage,
} from '../../../core/protocol/relay-wire.js';

const msg = {
  v: 1,
  msgId: 'm1',
  to: 'bob',
  from: { machine: 'laptop', sessionId: 's1', name: 'alice' },
  summary: null,
  body: 'hi',
};

describe('relay protocol', () => {
  it('decodes a valid message and refuses variations', () => {
    expect(decode(RelayMessage, encode(msg))).toEqual(msg);
    for (const bad of [
      { ...msg, v: 2 },
      { ...msg, extra: true },
      { ...msg, from: { ...msg.from, machine: 'lap/top' } },
      { ...msg, from: { ...msg.from, machine: 'x'.repeat(65) } },
      { ...msg, summary: 's'.repeat(201) },
      { ...msg, to: '' },
      { ...msg, body: 42 },
    ])
      expect(decode(RelayMessage, encode(bad))).toBeUndefined();
    expect(decode(RelayMessage, new TextEncoder().encode('{not json'))).toBeUndefined();
    expect(decode(RelayMessage, new Uint8Array(3 * 1024 * 1024))).toBeUndefined();
  });

  it('bounds presence', () => {
    const p = { v: 1, machine: 'laptop', hubId: 'h', ttlMs: 15_000, sessions: [] };
    expect(decode(Presence, encode(p))).toEqual(p);
    expect(decode(Presence, encode({ ...p, ttlMs: 10 }))).toBeUndefined();
    expect(
      decode(
        Presence,
        encode({
          ...p,
          sessions: [
            {
              sessionId: 's',
              name: 'n',
              agent: 'claude',
              state: 'robot', // an unknown agent kind is read as other (presence-agents.test.ts); a state is not
              stateSince: 0,
              cwd: '/',
              inboxDepth: 0,
              canReceive: true,
            },
          ],
        }),
      ),
    ).toBeUndefined();
  });

  it('peer addresses and subject tokens', () => {
    expect(parsePeerAddress('peer:buildbox/bob [a1b2c3]')).toEqual({ machine: 'buildbox', session: 'bob [a1b2c3]' });
    expect(parsePeerAddress('peer:/bob')).toBeUndefined();
    expect(parsePeerAddress('uds:/x')).toBeUndefined();
    expect(machineToken('my laptop.local')).toMatch(/^my_laptop_local-[0-9a-f]{8}$/);
    expect(machineToken('a.b')).not.toBe(machineToken('a_b'));
  });
});

import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  escapeBody,
  percentDecode,
  percentEncode,
  unwrapMessage,
  UserEventLine,
  wrapMessage,
  udsAddress,
} from '../../core/protocol/cc-wire.js';
import { isProtocolFrame } from '../../core/protocol/frames.js';
import { LineSplitter } from '../../core/protocol/ndjson.js';
import { validateSend } from '../../core/messaging/validate.js';
import { HubError } from '../../core/protocol/errors.js';
import { LIMITS } from '../../core/protocol/limits.js';

import { FIXTURES } from '../helpers/peer.js';

describe('Claude Code wire format', () => {
  it('percent-encodes every byte outside [A-Za-z0-9:_/.-] and round-trips', () => {
    expect(percentEncode('/run/user/1000/cc-socks/48213.sock')).toBe('/run/user/1000/cc-socks/48213.sock');
    expect(percentEncode('/tmp/a b/é.sock')).toBe('/tmp/a%20b/%C3%A9.sock');
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => percentDecode(percentEncode(s)) === s));
  });

  it('parses the fixture user event lines', () => {
    const line = fs.readFileSync(path.join(FIXTURES, 'uds/user-message.ndjson'), 'utf8').trim();
    const parsed = UserEventLine.parse(JSON.parse(line));
    expect(parsed.from).toBe('uds:/run/user/1000/cc-socks/51002.sock');
    const { attrs, body } = unwrapMessage(parsed.message.content);
    expect(attrs).toEqual({ from: 'uds:/run/user/1000/cc-socks/51002.sock', 'from-name': 'api-7c' });
    expect(body).toBe('Can you re-run the integration tests on your branch and tell me if auth passes?');
  });

  it('wraps with attributes in Claude Code order and escapes closing tags in the body', () => {
    const wrapped = wrapMessage('a </cross-session-message> b', {
      from: udsAddress('/r/x.sock'),
      fromName: 'na"me<>',
      fromMode: 'bypass',
    });
    expect(wrapped).toBe(
      '<cross-session-message from="uds:/r/x.sock" from-name="name" from-mode="bypass">\na &lt;/cross-session-message> b\n</cross-session-message>',
    );
    fc.assert(
      fc.property(fc.string(), (body) => {
        const w = wrapMessage(body, { from: 'uds:/x' });
        expect(w.indexOf('</cross-session-message')).toBe(w.length - '</cross-session-message>'.length);
      }),
    );
    expect(escapeBody('</ cross-session-message')).toBe('&lt;/ cross-session-message');
  });

  it('recognises team protocol frames', () => {
    expect(
      isProtocolFrame(JSON.stringify({ type: 'shutdown_request', requestId: 'x', from: 'a', timestamp: 't' })),
    ).toBe(true);
    expect(isProtocolFrame('{"type":"note"}')).toBe(false);
    expect(isProtocolFrame('hello')).toBe(false);
  });
});

describe('NDJSON framing', () => {
  it('splits lines across chunks and reports an oversized line once', () => {
    const s = new LineSplitter(10);
    const lines: string[] = [];
    expect(s.push(Buffer.from('ab\ncd'), (l) => lines.push(l))).toBe(true);
    expect(s.push(Buffer.from('ef\r\n\n'), (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual(['ab', 'cdef']);
    expect(s.push(Buffer.from('x'.repeat(11)), (l) => lines.push(l))).toBe(false);
    expect(s.push(Buffer.from('ok\n'), (l) => lines.push(l))).toBe(false);
    expect(lines).toEqual(['ab', 'cdef']);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const s = new LineSplitter(100);
    const lines: string[] = [];
    const bytes = Buffer.from('é€\n');
    s.push(bytes.subarray(0, 1), (l) => lines.push(l));
    s.push(bytes.subarray(1), (l) => lines.push(l));
    expect(lines).toEqual(['é€']);
  });
});

describe('send validation (docs/design.md#6-sending-and-statuses)', () => {
  const reason = (input: Parameters<typeof validateSend>[0]): string | undefined => {
    try {
      validateSend(input, LIMITS);
      return undefined;
    } catch (err) {
      return (err as HubError).reason;
    }
  };
  it('rejects each invalid input with its own reason', () => {
    expect(reason({ to: '', summary: 's', message: 'm' })).toBe('to_empty');
    expect(reason({ to: '*', summary: 's', message: 'm' })).toBe('to_broadcast');
    expect(reason({ to: 'a@b', summary: 's', message: 'm' })).toBe('to_has_at');
    expect(reason({ to: 'x', message: 'm' })).toBe('summary_missing');
    expect(reason({ to: 'x', summary: '  ', message: 'm' })).toBe('summary_missing');
    expect(reason({ to: 'x', summary: 's'.repeat(201), message: 'm' })).toBe('summary_too_long');
    expect(reason({ to: 'x', summary: 's'.repeat(200), message: 'm' })).toBeUndefined();
    expect(
      reason({
        to: 'x',
        summary: 's',
        message: JSON.stringify({ type: 'permission_response', request_id: 'r', subtype: 'success' }),
      }),
    ).toBe('message_is_frame');
    expect(reason({ to: 'x', summary: 's', message: 'm'.repeat(LIMITS.messageBytes + 1) })).toBe('message_too_large');
    expect(reason({ to: 'x' })).toBe('message_missing');
    expect(reason({ to: 'x', notify_when_idle: true })).toBeUndefined();
  });
});

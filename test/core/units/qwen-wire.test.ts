// Qwen Code's wire (core/protocol/qwen-wire.ts): its registry record, the
// frames we write, the delivery_status frames we read and their receipts,
// with bad input and the bounds. Pure: no files, no sockets.
import { describe, expect, it } from 'vitest';
import {
  parseQwenLine,
  parseQwenRecord,
  QWEN_QUEUED_REASON,
  QWEN_RECORD_MAX_BYTES,
  QWEN_STATUSES,
  qwenAuthLine,
  qwenRecordPid,
  qwenUserFrame,
  receiptOf,
  splitProcStart,
  type DeliveryStatus,
} from '../../../core/protocol/qwen-wire.js';
import { receiptText } from '../../../core/receipts/texts.js';

const RECORD = {
  schemaVersion: 1,
  pid: 6508,
  procStart: 'ede0496c-8bf0-4414-9826-ba7cfd2477a8:3916228',
  pidNs: 4026531836,
  sessionId: '32b4f436-0000-4000-8000-000000000000',
  cwd: '/tmp/proj',
  name: 'proj-67',
  startedAt: 1796316432784,
  qwenVersion: '0.24.4',
  kind: 'tui',
  ipcPath: '/run/user/1/qwen-socks/6508.sock',
  ipcToken: 'f'.repeat(64),
};
const text = (v: unknown): string => JSON.stringify(v);

describe('Qwen Code registry records', () => {
  it('reads a record as Qwen Code 0.24.4 writes it', () => {
    const r = parseQwenRecord('6508.json', text(RECORD));
    expect(r).toMatchObject({ ok: true, record: { pid: 6508, kind: 'tui', ipcToken: 'f'.repeat(64) } });
  });

  it('accepts the <pid>-<8 hex>.json name of a process with several sessions, and no other names', () => {
    expect(qwenRecordPid('6508-0a1b2c3d.json')).toBe(6508);
    for (const bad of ['6508.json.tmp', '06508.json', '6508-0A1B2C3D.json', 'x.json', '6508-0a1b.json', '.json'])
      expect(qwenRecordPid(bad)).toBeUndefined();
  });

  it('refuses a record whose pid is not its file name', () => {
    expect(parseQwenRecord('6509.json', text(RECORD))).toEqual({
      ok: false,
      why: 'the pid inside does not match the file name',
    });
  });

  it('refuses text that is not JSON, and JSON that is not a record', () => {
    expect(parseQwenRecord('6508.json', '{"pid":')).toEqual({ ok: false, why: 'not JSON' });
    for (const v of [null, [], 'x', 7, {}]) expect(parseQwenRecord('6508.json', text(v)).ok).toBe(false);
  });

  it('refuses a newer schema version', () => {
    expect(parseQwenRecord('6508.json', text({ ...RECORD, schemaVersion: 2 })).ok).toBe(false);
  });

  it('refuses fields past their bounds', () => {
    for (const over of [
      { sessionId: 'x'.repeat(129) },
      { ipcToken: 'x'.repeat(257) },
      { ipcPath: '/'.repeat(1025) },
      { name: 'x'.repeat(257) },
      { pid: 2 ** 31 + 1 },
      { pid: -1 },
      { kind: 7 },
    ])
      expect(parseQwenRecord('6508.json', text({ ...RECORD, ...over })).ok).toBe(false);
  });

  it('refuses a record over 64 KiB, as Qwen Code does', () => {
    const big = text({ ...RECORD, pad: 'x'.repeat(QWEN_RECORD_MAX_BYTES) });
    expect(parseQwenRecord('6508.json', big)).toEqual({ ok: false, why: `over ${QWEN_RECORD_MAX_BYTES} bytes` });
  });

  it('splits procStart into boot id and start ticks, and nothing else', () => {
    expect(splitProcStart(RECORD.procStart)).toEqual({
      bootId: 'ede0496c-8bf0-4414-9826-ba7cfd2477a8',
      ticks: '3916228',
    });
    for (const bad of [undefined, '', '3916228', 'boot:', 'BOOT ID:12', `${'a'.repeat(65)}:1`])
      expect(splitProcStart(bad)).toBeUndefined();
  });
});

describe('frames we write', () => {
  it('writes the auth line with the record token', () => {
    expect(JSON.parse(qwenAuthLine('tok'))).toEqual({ msgV: 1, type: 'auth', token: 'tok' });
  });

  it('writes the exact user frame Qwen Code reads', () => {
    const f = JSON.parse(
      qwenUserFrame({
        msgId: 'a1b2-c3',
        reply: { from: '/run/sb/qw-1.sock', token: 'rt' },
        fromName: 'alice',
        fromMode: 'prompting',
        toSessionId: 'sid',
        content: 'hello',
      }),
    );
    expect(f).toEqual({
      msgV: 1,
      msgId: 'a1b2-c3',
      type: 'user',
      from: '/run/sb/qw-1.sock',
      replyToken: 'rt',
      fromName: 'alice',
      fromMode: 'prompting',
      toSessionId: 'sid',
      priority: 'next',
      message: { role: 'user', content: 'hello' },
    });
  });

  it('leaves fromMode out when the sender’s class is unknown (Qwen Code then holds it)', () => {
    const f = JSON.parse(qwenUserFrame({ msgId: 'm1', fromName: 'a', toSessionId: 's', content: 'x' }));
    expect(f).not.toHaveProperty('fromMode');
    expect(f).not.toHaveProperty('replyToken');
  });

  it('cleans the sender name of quotes, angle brackets and control characters', () => {
    const f = JSON.parse(qwenUserFrame({ msgId: 'm1', fromName: 'a"<b>\u0007c', toSessionId: 's', content: 'x' }));
    expect(f.fromName).toBe('abc');
  });

  it('refuses a message id Qwen Code would drop', () => {
    for (const id of ['', '-a', 'a b', 'x'.repeat(65)])
      expect(() => qwenUserFrame({ msgId: id, fromName: 'a', toSessionId: 's', content: 'x' })).toThrow();
  });
});

describe('frames we read', () => {
  const status = (over: Record<string, unknown> = {}): string =>
    text({
      msgV: 1,
      msgId: 'r1',
      type: 'control',
      action: 'delivery_status',
      status: 'held',
      origMsgId: 'm1',
      from: '/q/1.sock',
      ...over,
    });

  it('reads an auth line and a delivery status', () => {
    expect(parseQwenLine(qwenAuthLine('t'))).toEqual({ kind: 'auth', token: 't' });
    expect(parseQwenLine(status())).toMatchObject({ kind: 'status', frame: { status: 'held', origMsgId: 'm1' } });
  });

  it('ignores a line that is not a well-formed delivery status', () => {
    for (const line of [
      'not json',
      '[]',
      'null',
      status({ status: 'read' }),
      status({ action: 'rename' }),
      status({ origMsgId: undefined }),
    ])
      expect(parseQwenLine(line), line).toEqual({ kind: 'other' });
  });

  it('ignores a status past its bounds (more than 256 dropped ids, a long reason)', () => {
    const ids = Array.from({ length: 257 }, (_, i) => `m${i}`);
    expect(parseQwenLine(status({ status: 'dropped', droppedMsgIds: ids }))).toEqual({ kind: 'other' });
    expect(parseQwenLine(status({ reason: 'x'.repeat(4097) }))).toEqual({ kind: 'other' });
    expect(parseQwenLine(qwenAuthLine('t'.repeat(257)))).toEqual({ kind: 'other' });
  });
});

describe('receipts from Qwen Code statuses', () => {
  const frame = (s: (typeof QWEN_STATUSES)[number], over: Partial<DeliveryStatus> = {}): DeliveryStatus => ({
    type: 'control',
    action: 'delivery_status',
    status: s,
    origMsgId: 'm1',
    ...over,
  });

  it('maps each of its seven statuses onto ours', () => {
    expect(Object.fromEntries(QWEN_STATUSES.map((s) => [s, receiptOf(frame(s)).status]))).toEqual({
      held: 'held',
      delivered: 'delivered',
      denied: 'denied',
      refused: 'refused',
      expired: 'expired',
      misaddressed: 'undelivered',
      dropped: 'dropped',
    });
  });

  it('says that Qwen Code’s delivered means queued for its model, not read', () => {
    const r = receiptOf(frame('delivered', { reason: 'ok' }));
    expect(r.reason).toBe(QWEN_QUEUED_REASON);
    expect(receiptText(r.status, 'q [a1]', r.reason)).toContain('was queued for its model by Qwen Code');
    expect(receiptText(r.status, 'q [a1]', r.reason)).toContain('not read yet');
  });

  it('carries the drop reason of a dropped status', () => {
    expect(receiptOf(frame('dropped', { dropReason: 'duplicate' })).reason).toBe('duplicate');
    expect(receiptOf(frame('dropped', { dropReason: 'queue-full', reason: 'full.' })).reason).toBe('queue-full: full');
  });

  it('keeps Qwen Code’s reason on one line, without a final stop', () => {
    expect(receiptOf(frame('refused', { reason: 'inbound\nrefused by setting.' })).reason).toBe(
      'inbound refused by setting',
    );
  });
});

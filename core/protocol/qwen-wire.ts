// Qwen Code's own cross-session protocol (schema version 1, frame version 1;
// docs/integrations.md#qwen-code): its registry record
// `$QWEN_HOME/sessions/<pid>[-<8 hex>].json`, the auth line, the user frame
// we send, and the delivery_status control frame it answers with. Pure; no
// I/O. Qwen Code owns the format, so schemas keep unknown keys, and every
// field we read is bounded.

import { z } from 'zod';
import type { ReceiptStatus } from './results.js';
import { cleanFromName } from './cc-wire.js';

/** Qwen Code skips records over this size itself. */
export const QWEN_RECORD_MAX_BYTES = 64 * 1024;
/** Our bound on one line a Qwen session writes to our reply socket (its receipts are small). */
export const QWEN_LINE_MAX_BYTES = 64 * 1024;

/** `<pid>.json`, or `<pid>-<8 hex>.json` for a process that hosts several sessions. */
export function qwenRecordPid(fileName: string): number | undefined {
  const m = /^([1-9]\d{0,9})(-[0-9a-f]{8})?\.json$/.exec(fileName);
  return m === null ? undefined : Number(m[1]);
}

export const QwenRecord = z.looseObject({
  schemaVersion: z.number().int().min(1).max(1),
  pid: z
    .number()
    .int()
    .positive()
    .max(2 ** 31),
  /** `<boot id>:<field 22 of /proc/<pid>/stat>`. */
  procStart: z.string().max(128).optional(),
  /** The inode of the writer's /proc/self/ns/pid. */
  pidNs: z.number().int().nonnegative().optional(),
  sessionId: z.string().min(1).max(128),
  cwd: z.string().max(4096).default(''),
  name: z.string().max(256).optional(),
  startedAt: z.number().optional(),
  qwenVersion: z.string().max(64).optional(),
  kind: z.string().max(32),
  ipcPath: z.string().min(1).max(1024).optional(),
  ipcToken: z.string().min(1).max(256).optional(),
});
export type QwenRecord = z.infer<typeof QwenRecord>;

export type QwenRecordResult = { ok: true; record: QwenRecord } | { ok: false; why: string };

/** Parses one record file's text named `fileName`: valid JSON, the schema, and the pid inside matching the name. */
export function parseQwenRecord(fileName: string, text: string): QwenRecordResult {
  const pid = qwenRecordPid(fileName);
  if (pid === undefined) return { ok: false, why: 'not a <pid>.json name' };
  if (Buffer.byteLength(text) > QWEN_RECORD_MAX_BYTES) return { ok: false, why: `over ${QWEN_RECORD_MAX_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: 'not JSON' };
  }
  const parsed = QwenRecord.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, why: `invalid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}` };
  }
  if (parsed.data.pid !== pid) return { ok: false, why: 'the pid inside does not match the file name' };
  return { ok: true, record: parsed.data };
}

/** The boot id and start ticks of a record's `procStart`, when it has that form. */
export function splitProcStart(procStart: string | undefined): { bootId: string; ticks: string } | undefined {
  const m = /^([0-9a-f-]{1,64}):(\d{1,20})$/.exec(procStart ?? '');
  return m === null ? undefined : { bootId: m[1] as string, ticks: m[2] as string };
}

// ---- frames ----------------------------------------------------------------

/** Qwen Code drops frames whose msgId does not match this. */
export const QWEN_MSG_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function qwenAuthLine(token: string): string {
  return JSON.stringify({ msgV: 1, type: 'auth', token });
}

export interface QwenUserFrame {
  msgId: string;
  /** Our reply socket's path and its token: receipts come back there. Absent: no receipts. */
  reply?: { from: string; token: string };
  fromName: string;
  /** The sender's class; absent when unknown, and Qwen Code then holds the message (fail closed). */
  fromMode?: 'prompting' | 'bypass';
  toSessionId: string;
  content: string;
}

export function qwenUserFrame(f: QwenUserFrame): string {
  if (!QWEN_MSG_ID.test(f.msgId)) throw new Error(`not a Qwen Code message id: ${f.msgId}`);
  return JSON.stringify({
    msgV: 1,
    msgId: f.msgId,
    type: 'user',
    ...(f.reply !== undefined ? { from: f.reply.from, replyToken: f.reply.token } : {}),
    fromName: cleanFromName(f.fromName),
    ...(f.fromMode !== undefined ? { fromMode: f.fromMode } : {}),
    toSessionId: f.toSessionId,
    priority: 'next',
    message: { role: 'user', content: f.content },
  });
}

export const QwenAuth = z.looseObject({ type: z.literal('auth'), token: z.string().min(1).max(256) });

export const QWEN_STATUSES = ['held', 'delivered', 'denied', 'refused', 'expired', 'misaddressed', 'dropped'] as const;
export type QwenStatus = (typeof QWEN_STATUSES)[number];

const Id = z.string().min(1).max(128);

export const DeliveryStatus = z.looseObject({
  type: z.literal('control'),
  action: z.literal('delivery_status'),
  status: z.enum(QWEN_STATUSES),
  origMsgId: Id,
  msgId: Id.optional(),
  from: z.string().max(4096).optional(),
  reason: z.string().max(4096).optional(),
  dropReason: z.string().max(64).optional(),
  droppedMsgIds: z.array(Id).max(256).optional(),
});
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** One line from a Qwen session: auth, a delivery status, or anything else (ignored). */
export function parseQwenLine(
  line: string,
): { kind: 'auth'; token: string } | { kind: 'status'; frame: DeliveryStatus } | { kind: 'other' } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { kind: 'other' };
  }
  const auth = QwenAuth.safeParse(json);
  if (auth.success) return { kind: 'auth', token: auth.data.token };
  const status = DeliveryStatus.safeParse(json);
  if (status.success) return { kind: 'status', frame: status.data };
  return { kind: 'other' };
}

/**
 * The reason of a `delivered` receipt from Qwen Code: its "delivered" means the message joined the queue of
 * what its model reads next (at once when idle, else after the current turn), not that the model read it.
 */
export const QWEN_QUEUED_REASON = 'Qwen Code queued it for its model (it reads it at its next turn)';

/** A Qwen Code status as our receipt: `misaddressed` (that socket's session is another one now) is `undelivered`. */
export function receiptOf(frame: DeliveryStatus): { status: ReceiptStatus; reason: string } {
  const said = (frame.reason ?? '').replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  const why = (fallback: string): string => (said !== '' ? said : fallback);
  switch (frame.status) {
    case 'delivered':
      return { status: 'delivered', reason: QWEN_QUEUED_REASON };
    case 'misaddressed':
      return {
        status: 'undelivered',
        reason: `misaddressed: that Qwen Code socket now hosts another conversation${said !== '' ? ` (${said})` : ''}`,
      };
    case 'dropped':
      return {
        status: 'dropped',
        reason:
          [frame.dropReason, said].filter((s) => s !== undefined && s !== '').join(': ') || 'Qwen Code dropped it',
      };
    default:
      return { status: frame.status, reason: why(`reported by the Qwen Code session (${frame.status})`) };
  }
}

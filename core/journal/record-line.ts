// A journal record as its NDJSON line (without the newline). The record of a
// queued peer message, one per message on the send path, is built from its
// parts, its sender's JSON kept once per shared `from` object, and is the
// same bytes JSON.stringify gives for a message item in the order
// frameMessage builds it (in another key order, the same JSON value). Any
// other record, or a message item of any other shape, is JSON.stringify's.
// Pure; throws what JSON.stringify throws.

import type { JournalRecord } from './records.js';

type MessageRecord = Extract<JournalRecord, { t: 'i' }> & { item: { kind: 'message' } };
type From = MessageRecord['item']['from'];

/** The JSON of frozen `from` objects (delivery/enqueue.ts shares one per sender; frozen, it cannot change). */
const fromJson = new WeakMap<From, string>();

function senderJson(from: From): string | undefined {
  const known = fromJson.get(from);
  if (known !== undefined) return known;
  if (typeof from !== 'object' || from === null || !Object.isFrozen(from)) return undefined;
  const json = JSON.stringify(from);
  fromJson.set(from, json);
  return json;
}

/** Keys a message item has; any other key (or one missing) sends the record to JSON.stringify. */
const MESSAGE_KEYS = 7;

function countKeys(o: object): number {
  let n = 0;
  for (const _key in o) n++;
  return n;
}

function messageLine(rec: MessageRecord): string | undefined {
  const item = rec.item;
  const { id, summary, text, at, approvedAfterHold } = item;
  if (
    typeof rec.id !== 'string' ||
    typeof id !== 'string' ||
    (summary !== null && typeof summary !== 'string') ||
    typeof text !== 'string' ||
    typeof at !== 'number' ||
    !Number.isFinite(at) ||
    typeof approvedAfterHold !== 'boolean' ||
    countKeys(rec) !== 3 ||
    countKeys(item) !== MESSAGE_KEYS
  )
    return undefined;
  const from = senderJson(item.from);
  if (from === undefined) return undefined;
  return (
    '{"t":"i","id":' +
    JSON.stringify(rec.id) +
    ',"item":{"kind":"message","id":' +
    JSON.stringify(id) +
    ',"from":' +
    from +
    ',"summary":' +
    JSON.stringify(summary) +
    ',"text":' +
    JSON.stringify(text) +
    ',"at":' +
    String(at) +
    ',"approvedAfterHold":' +
    String(approvedAfterHold) +
    '}}'
  );
}

export function recordLine(record: JournalRecord): string {
  if (record.t === 'i' && record.item.kind === 'message') {
    const line = messageLine(record as MessageRecord);
    if (line !== undefined) return line;
  }
  return JSON.stringify(record);
}

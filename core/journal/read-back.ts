// Reads one queued item back from the journal file: the inbox keeps only a
// header of a written message in memory (delivery/inbox.ts) and the text
// comes from its record here, exactly as it was admitted. Anything but that
// record at that place (a short read, damaged bytes, another record) is a
// JournalReadError: never an empty or a different message.

import fs from 'node:fs';
import type { InboxItem } from '../protocol/results.js';
import { CodedError } from '../protocol/coded-error.js';
import { isRecord } from './records.js';

export class JournalReadError extends CodedError<'journal_read_back'> {
  override readonly name = 'JournalReadError';
  constructor(file: string, what: string, detail: string, options?: { cause?: unknown }) {
    super('journal_read_back', `journal ${file}: ${what} cannot be read back (${detail})`, options);
  }
}

/** The item of the record at [off, off + len) of `fd` (`len` counts its newline). */
export function readItemAt(
  fd: number,
  file: string,
  at: readonly [number, number] | undefined,
  sessionId: string,
  itemId: string,
): InboxItem {
  const what = `item ${itemId} of session ${sessionId}`;
  if (at === undefined) throw new JournalReadError(file, what, 'it has no live record');
  const [off, len] = at;
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  try {
    while (got < len) {
      const n = fs.readSync(fd, buf, got, len - got, off + got);
      if (n === 0) break;
      got += n;
    }
  } catch (err) {
    throw new JournalReadError(file, what, `read failed at byte ${off}: ${String(err)}`, { cause: err });
  }
  if (got < len) throw new JournalReadError(file, what, `the file ends before byte ${off + len}`);
  if (buf[len - 1] !== 0x0a) throw new JournalReadError(file, what, `no record ends at byte ${off + len}`);
  let rec: unknown;
  try {
    rec = JSON.parse(buf.toString('utf8', 0, len - 1));
  } catch (err) {
    throw new JournalReadError(file, what, `the bytes at ${off} are not a record`, { cause: err });
  }
  if (!isRecord(rec) || rec.t !== 'i' || rec.id !== sessionId || rec.item.id !== itemId)
    throw new JournalReadError(file, what, `the record at byte ${off} is another one`);
  return rec.item;
}

// Where `send` gets its message: `--message TEXT`, `--message -` (stdin) or
// `--message-file PATH` (`-`: stdin). A shell refuses an argument of about
// 128 KiB, below the hub's 256 KiB limit, so a long message comes from stdin
// or a file. The text must be UTF-8 and within LIMITS.messageBytes: an
// oversize message is refused here, before anything is sent, with both sizes
// ("the message is 300 KiB; the limit is 256 KiB"), never as a frame or
// params error. Reading is bounded: past READ_CAP it stops and says "over".

import fs from 'node:fs';
import { LIMITS } from '../core/protocol/limits.js';
import { CliFailure, messageTooLargeText, UsageError } from './errors.js';

/** How much of an oversize stdin is counted before the answer is "over N". */
export const READ_CAP = 64 * 1024 * 1024;

export interface MessageFlags {
  message?: string | undefined;
  'message-file'?: string | undefined;
  'token-file'?: string | undefined;
}

/** Reads at most `limit + 1` bytes kept, counting on (without keeping) up to READ_CAP. */
async function readStream(stream: AsyncIterable<unknown>, limit: number): Promise<{ bytes: number; data: Buffer }> {
  const kept: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    if (bytes <= limit) kept.push(b);
    bytes += b.length;
    if (bytes > READ_CAP) break;
  }
  return { bytes, data: Buffer.concat(kept) };
}

async function readSource(flag: string, source: string, limit: number): Promise<{ bytes: number; data: Buffer }> {
  if (source === '-') return readStream(process.stdin, limit);
  let st: fs.Stats;
  try {
    st = fs.statSync(source);
  } catch (err) {
    throw new UsageError(`${flag} ${source}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (st.isDirectory()) throw new UsageError(`${flag} ${source}: is a directory`);
  if (st.isFile() && st.size > limit) return { bytes: st.size, data: Buffer.alloc(0) };
  return readStream(fs.createReadStream(source), limit);
}

function tooLarge(bytes: number, limit: number): CliFailure {
  const text =
    bytes > READ_CAP
      ? `The message is over ${READ_CAP / (1024 * 1024)} MiB; the limit is ${limit / 1024} KiB. Nothing was sent.`
      : messageTooLargeText(bytes, limit);
  return new CliFailure('message_too_large', text);
}

/**
 * The message to send, or undefined when none was given. `--message -` and
 * `--message-file -` read stdin (not together with `--token-file -`).
 */
export async function readMessage(values: MessageFlags, limit = LIMITS.messageBytes): Promise<string | undefined> {
  const inline = values.message;
  const file = values['message-file'];
  if (inline !== undefined && file !== undefined)
    throw new UsageError('give --message TEXT or --message-file PATH, not both');
  const source = file ?? (inline === '-' ? '-' : undefined);
  if (source === '-' && values['token-file'] === '-')
    throw new UsageError(
      'stdin can carry the token or the message, not both: put the token in a file or the environment',
    );
  if (source === undefined) {
    if (inline === undefined) return undefined;
    const bytes = Buffer.byteLength(inline, 'utf8');
    if (bytes > limit) throw tooLarge(bytes, limit);
    return inline;
  }
  const flag = file !== undefined ? '--message-file' : '--message';
  const { bytes, data } = await readSource(flag, source, limit);
  if (bytes > limit) throw tooLarge(bytes, limit);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new CliFailure('message_not_text', `${flag} ${source}: not UTF-8 text; nothing was sent`);
  }
}

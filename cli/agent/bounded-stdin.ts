// The MCP server's stdin with over-long lines dropped. The MCP SDK's stdio
// transport closes itself on a line over its 10 MiB buffer, and `mcp` then
// ended and unregistered its session for good, so the messages waiting for
// it were reported undeliverable. This passes every line under `maxBytes`
// through unchanged and drops a longer one whole (up to its newline),
// telling `onDrop`; the rest of the stream goes on.

import { PassThrough, type Readable } from 'node:stream';

/** `input`'s lines, at most `maxBytes` each (newline excluded); longer ones are dropped. */
export function boundedLines(
  input: Readable,
  maxBytes: number,
  onDrop: (bytes: number) => void,
  /** Rewrites each whole line (newline included) before it is passed on. */
  map: (line: Buffer) => Buffer = (l) => l,
): PassThrough {
  const out = new PassThrough();
  let partial = 0; // bytes of the current line passed on so far
  let held: Buffer[] = []; // the current line's bytes, held until it ends or overflows
  let dropping = 0; // > 0: bytes of an over-long line being dropped
  input.on('data', (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (dropping > 0 || partial + piece.length > maxBytes) {
        dropping += piece.length + partial;
        partial = 0;
        held = [];
      } else {
        held.push(piece);
        partial += piece.length;
      }
      if (nl === -1) break;
      if (dropping > 0) onDrop(dropping);
      else out.write(map(Buffer.concat([...held, Buffer.from('\n')])));
      dropping = 0;
      partial = 0;
      held = [];
      start = nl + 1;
    }
  });
  input.on('end', () => out.end());
  input.on('error', (err) => out.destroy(err));
  return out;
}

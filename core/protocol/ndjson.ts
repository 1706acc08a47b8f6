// Splits a byte stream into newline-terminated lines, bounded by a byte
// limit. It knows nothing about JSON or sockets. A line over the limit is
// reported once and the splitter stops: the stream cannot be resynchronised
// safely, so the owner must close the connection.

const NEWLINE = 0x0a;

export type LineSink = (line: string) => void;

export class LineSplitter {
  readonly #maxBytes: number;
  #parts: Buffer[] = [];
  #partBytes = 0;
  #overflowed = false;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** Bytes of a line begun but not yet ended by a newline (0 between lines). */
  get partialBytes(): number {
    return this.#partBytes;
  }

  /** Feeds a chunk; returns false (and emits nothing more) once a line overflowed. */
  push(chunk: Buffer, onLine: LineSink): boolean {
    if (this.#overflowed) return false;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const pieceBytes = nl - start;
      if (this.#partBytes + pieceBytes > this.#maxBytes) return this.#overflow();
      let line: string;
      if (this.#parts.length === 0) {
        line = chunk.toString('utf8', start, nl);
      } else {
        this.#parts.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.#parts).toString('utf8');
        this.#parts = [];
        this.#partBytes = 0;
      }
      start = nl + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim() !== '') onLine(line);
      if (this.#overflowed) return false;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      if (this.#partBytes + rest > this.#maxBytes) return this.#overflow();
      this.#parts.push(Buffer.from(chunk.subarray(start)));
      this.#partBytes += rest;
    }
    return true;
  }

  #overflow(): false {
    this.#overflowed = true;
    this.#parts = [];
    this.#partBytes = 0;
    return false;
  }
}

/**
 * Reply lines read from a stream in chunks, with a bound: a line longer than `maxBytes` is
 * reported as too long as soon as it passes the bound, and its bytes are not kept (readline
 * would buffer it whole: 600 MB without a newline took `evaluate` down). Lines are UTF-8, with
 * the `\n` (and a `\r` before it) removed.
 */

/** What `LineSplitter.push` found in a chunk: complete lines, and whether a line overflowed. */
export interface SplitResult {
  readonly lines: string[];
  /** A line grew past the bound: the caller stops reading this stream. */
  readonly tooLong: boolean;
}

/** Splits a byte stream into lines of at most `maxBytes` bytes (see the module description). */
export class LineSplitter {
  /** The line being read: `buf[0, partial)`, grown by doubling (tiny chunks cost no object each). */
  private buf = Buffer.alloc(0);
  private partial = 0;
  private overflowed = false;

  constructor(readonly maxBytes: number) {}

  /** Bytes of the line being read (not yet ended by a newline). */
  get pending(): number {
    return this.partial;
  }

  push(chunk: Buffer): SplitResult {
    const lines: string[] = [];
    if (this.overflowed) return { lines, tooLong: true };
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (this.partial + (end - start) > this.maxBytes) {
        this.overflowed = true;
        this.buf = Buffer.alloc(0);
        this.partial = 0;
        return { lines, tooLong: true };
      }
      if (nl === -1) {
        // A copy: a view would keep the stream's whole read buffer alive for a few bytes.
        if (end > start) this.append(chunk.subarray(start));
        return { lines, tooLong: false };
      }
      const piece = chunk.subarray(start, nl);
      const whole = this.partial === 0 ? piece : Buffer.concat([this.buf.subarray(0, this.partial), piece]);
      this.partial = 0;
      if (this.buf.length > 65536) this.buf = Buffer.alloc(0);
      const text = whole.toString('utf8');
      lines.push(text.endsWith('\r') ? text.slice(0, -1) : text);
      start = nl + 1;
    }
  }

  private append(bytes: Buffer): void {
    const need = this.partial + bytes.length;
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(need, this.buf.length * 2, 256), this.maxBytes));
      this.buf.copy(grown, 0, 0, this.partial);
      this.buf = grown;
    }
    bytes.copy(this.buf, this.partial);
    this.partial = need;
  }
}

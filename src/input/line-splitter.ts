import { StringDecoder } from "node:string_decoder";

/** One physical line of input: 1-based line number, text without its `\n` / `\r\n`. */
export interface Line {
  lineNo: number;
  text: string;
}

/** Raised (as a value, not thrown) when a line grows past the configured limit. */
export interface OversizeLine {
  lineNo: number;
  oversize: number;
}

/**
 * Bytes in, physical lines out. Pure (no streams): feed it chunks of any size, it returns the
 * lines each chunk completed. UTF-8 split across chunks, CRLF split between `\r` and `\n`, a BOM,
 * and a last line without `\n` are all handled. Lines longer than `maxLineChars` are reported
 * and skipped without ever being held whole.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private parts: string[] = [];
  private partsLength = 0;
  private lineNo = 0;
  private first = true;
  private skipping = false;

  constructor(private readonly maxLineChars = Number.MAX_SAFE_INTEGER) {}

  /** Lines completed by this chunk, in order. */
  push(chunk: Buffer): Array<Line | OversizeLine> {
    return this.split(this.decoder.write(chunk), false);
  }

  /** The last line, if the input did not end with a newline. */
  end(): Array<Line | OversizeLine> {
    return this.split(this.decoder.end(), true);
  }

  private split(s: string, final: boolean): Array<Line | OversizeLine> {
    const out: Array<Line | OversizeLine> = [];
    if (this.first && s.length > 0) {
      this.first = false;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    let p = 0;
    for (;;) {
      const q = s.indexOf("\n", p);
      if (q < 0) break;
      this.take(s.slice(p, q), out);
      p = q + 1;
    }
    if (p < s.length) this.hold(s.slice(p));
    if (final && (this.partsLength > 0 || this.skipping)) this.take("", out);
    return out;
  }

  private hold(piece: string): void {
    if (this.skipping) return;
    this.partsLength += piece.length;
    if (this.partsLength > this.maxLineChars) {
      this.skipping = true;
      this.parts = [];
      return;
    }
    this.parts.push(piece);
  }

  private take(tail: string, out: Array<Line | OversizeLine>): void {
    this.lineNo++;
    if (this.skipping || this.partsLength + tail.length > this.maxLineChars) {
      out.push({ lineNo: this.lineNo, oversize: this.partsLength + tail.length });
      this.skipping = false;
      this.parts = [];
      this.partsLength = 0;
      return;
    }
    let text = tail;
    if (this.parts.length > 0) {
      this.parts.push(tail);
      text = this.parts.join("");
      this.parts = [];
      this.partsLength = 0;
    }
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    out.push({ lineNo: this.lineNo, text });
  }
}

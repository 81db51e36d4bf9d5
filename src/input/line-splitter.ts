import { constants, isAscii, isUtf8 } from "node:buffer";
import type { RawSkip } from "./raw-skip.js";
import type { JsonObject } from "./record.js";

const MAX_STRING_LENGTH = constants.MAX_STRING_LENGTH;

/** One physical line of input: 1-based line number, text without its `\n` / `\r\n`. */
export interface Line {
  lineNo: number;
  text: string;
  /** `text` has long strings shortened (RawSkip.shorten); the line itself is `buf[start, end]`. */
  shortened?: { buf: Buffer; start: number; end: number };
  /** The line is not valid UTF-8 (`text` has U+FFFD in place of the bad bytes): its bytes, a copy. */
  bytes?: Buffer;
}

/**
 * A line the command can skip: its type, and its bytes in case they are needed after all.
 * Consecutive skipped lines of the same type found in one chunk are one entry (`count` lines, the
 * bytes of them all): a log's thousands of thinking deltas in a row cost one object, not one each.
 */
export interface SkippedLine {
  /** The first line. */
  lineNo: number;
  /** Its type (the line stands in as `{type}`), or the stand-in object the skip test made. */
  skipped: string | JsonObject;
  /** The number of lines, from `lineNo` on (1 unless the type is a string and `keep` is not set). */
  count: number;
  /** RawSkip.keep said so: the stage gets the line's bytes, `buf[start, end]` including its LF. */
  keep?: true;
  buf: Buffer;
  /** The first line's first byte and the last line's end (without its CR LF); line ends between. */
  start: number;
  end: number;
}

/** A line that grew past the configured limit: reported by number, never held whole. */
export interface OversizeLine {
  lineNo: number;
  oversize: number;
}

/**
 * Bytes in, physical lines out. Pure (no streams): feed it chunks of any size, it returns the
 * lines each chunk completed, in order. Lines are found in the raw bytes and decoded one by one,
 * so UTF-8 split across chunks needs no care and a line the command can `skip` (see raw-skip.ts)
 * is never decoded at all: it only counts. CRLF, a BOM at the start of any line, and a last line without `\n` are handled.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partsLength = 0;
  private lineNo = 0;
  private skipping = false;

  private readonly maxLineBytes: number;

  constructor(
    maxLineBytes = Number.MAX_SAFE_INTEGER,
    private readonly skip?: RawSkip,
  ) {
    // A longer line could not be decoded at all (V8's longest string): it is an oversize line too.
    this.maxLineBytes = Math.min(maxLineBytes, MAX_STRING_LENGTH);
  }

  /** The number of the last line completed so far. */
  get lastLine(): number {
    return this.lineNo;
  }

  /** The number of bytes of a line begun but not ended yet (a line too long to hold counts as 1 at least). */
  get held(): number {
    return this.skipping ? Math.max(1, this.partsLength) : this.partsLength;
  }

  /** The bytes of the line begun but not ended yet (empty for a line too long to hold). */
  peekHeld(): Buffer {
    if (this.skipping || this.partsLength === 0) return Buffer.alloc(0);
    if (this.parts.length > 1) this.parts = [Buffer.concat(this.parts, this.partsLength)];
    return this.parts[0]!;
  }

  /** Lines completed by this chunk, in order. */
  push(chunk: Buffer): Array<Line | SkippedLine | OversizeLine> {
    const out: Array<Line | SkippedLine | OversizeLine> = [];
    let p = 0;
    const n = chunk.length;
    while (p < n) {
      const q = chunk.indexOf(10, p);
      if (q < 0) {
        this.hold(chunk.subarray(p));
        break;
      }
      if (this.parts.length === 0 && !this.skipping) this.take(chunk, p, q, out);
      else this.takeHeld(chunk.subarray(p, q), out);
      p = q + 1;
    }
    return out;
  }

  /** The last line, if the input did not end with a newline. */
  end(): Array<Line | SkippedLine | OversizeLine> {
    const out: Array<Line | SkippedLine | OversizeLine> = [];
    if (this.partsLength > 0 || this.skipping) this.takeHeld(Buffer.alloc(0), out);
    return out;
  }

  private hold(piece: Buffer): void {
    if (this.skipping) return;
    this.partsLength += piece.length;
    if (this.partsLength > this.maxLineBytes) {
      this.skipping = true;
      this.parts = [];
      return;
    }
    // A copy: the chunk's buffer may be read into again once its complete lines are done (chunk-pool.ts).
    this.parts.push(Buffer.from(piece));
  }

  private takeHeld(tail: Buffer, out: Array<Line | SkippedLine | OversizeLine>): void {
    if (this.skipping || this.partsLength + tail.length > this.maxLineBytes) {
      out.push({ lineNo: ++this.lineNo, oversize: this.partsLength + tail.length });
      this.skipping = false;
      this.parts = [];
      this.partsLength = 0;
      return;
    }
    this.parts.push(tail);
    const whole = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsLength + tail.length);
    this.parts = [];
    this.partsLength = 0;
    this.take(whole, 0, whole.length, out);
  }

  private take(buf: Buffer, start: number, end: number, out: Array<Line | SkippedLine | OversizeLine>): void {
    const lineNo = ++this.lineNo;
    if (end - start > this.maxLineBytes) {
      out.push({ lineNo, oversize: end - start });
      return;
    }
    if (end > start && buf[end - 1] === 13) end--;
    // A UTF-8 byte-order mark is not part of the line, at the start of any line: `cat a.ndjson
    // b.ndjson` of two files that begin with one puts one mid-stream.
    if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    // A blank line is counted and nothing more: no object, no decoding, no parse.
    if (isBlankBytes(buf, start, end)) return;
    if (this.skip !== undefined) {
      const kept = this.skip.keep?.(buf, start, end);
      if (kept !== undefined) {
        out.push({ lineNo, skipped: kept, count: 1, keep: true, buf, start, end });
        return;
      }
      const type = this.skip.test(buf, start, end);
      if (type !== undefined) {
        const last = out.length > 0 ? out[out.length - 1]! : undefined;
        // The same type as the line before, in the same buffer: the run grows by a line.
        if (typeof type === "string" && last !== undefined && "skipped" in last && last.skipped === type && last.keep === undefined && last.buf === buf && last.lineNo + last.count === lineNo) {
          last.count++;
          last.end = end;
          return;
        }
        out.push({ lineNo, skipped: type, count: 1, buf, start, end });
        return;
      }
      const short = this.skip.shorten?.(buf, start, end);
      if (short !== undefined) {
        out.push({ lineNo, text: short, shortened: { buf, start, end } });
        return;
      }
    }
    const text = decode(buf, start, end);
    // U+FFFD in the text: a bad byte sequence, or the character itself, written validly.
    if (text.indexOf("\ufffd") >= 0 && !isUtf8(buf.subarray(start, end))) out.push({ lineNo, text, bytes: Buffer.from(buf.subarray(start, end)) });
    else out.push({ lineNo, text });
  }
}

/** True when `buf[start, end)` holds only spaces, tabs, CRs, form feeds and vertical tabs (or nothing). */
function isBlankBytes(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b !== 32 && b !== 9 && b !== 13 && b !== 12 && b !== 11) return false;
  }
  return true;
}

/** Past this length a line is checked for ASCII first: decoding ASCII as Latin-1 is several times faster than UTF-8. */
const ASCII_CHECK_BYTES = 512;

/** A line's text. Node 20's UTF-8 decoder is slow on long ASCII lines (a tool's output, a file's contents), which are common. */
export function decode(buf: Buffer, start: number, end: number): string {
  if (end - start >= ASCII_CHECK_BYTES && isAscii(buf.subarray(start, end))) return buf.toString("latin1", start, end);
  return buf.toString("utf8", start, end);
}

import { constants, isAscii, isUtf8 } from "node:buffer";
import type { RawSkip, SoundLine } from "./raw-skip.js";
import { Field, LineFlag, LineScanner, LineStatus, MERGE_LEN, MERGE_MAX, RECORD_FIELDS } from "./scan/index.js";
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
  /** Its object keys at every depth, repeats included (the splitter was asked: `keys`). */
  keys?: number;
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
  /** The number of lines, from `lineNo` on (1 unless `skipped` is a type name, and never with `keep`). */
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

/** Bytes given to the scanner at a time: a longer chunk is scanned in slices. */
const SLICE = 1 << 20;
/** A line longer than a slice (or held over several chunks) is scanned alone up to this length; past it, it is parsed unscanned. */
const LONG_SCAN = 8 << 20;

let shared: LineScanner | undefined;

/** The process's one scanner: a splitter uses it only within push() and end(), never across them. */
function lineScanner(): LineScanner {
  return (shared ??= new LineScanner(SLICE));
}

/**
 * Bytes in, physical lines out. Pure (no streams): feed it chunks of any size, it returns the
 * lines each chunk completed, in order. The line scanner (scan/) finds the lines of each chunk,
 * checks each against the whole JSON grammar and notes its type; lines are then decoded one by
 * one, so UTF-8 split across chunks needs no care and a sound line the command can `skip` (see
 * raw-skip.ts) is never decoded at all: it only counts. A line that is not sound (damaged, not an
 * object, not UTF-8) is decoded and parsed as usual, whatever its type: every command reports it.
 * CRLF, a BOM at the start of any line, and a last line without `\n` are handled.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partsLength = 0;
  private lineNo = 0;
  private skipping = false;
  /** The last run of skipped lines of a string type, and where its last line's type is. */
  private run: SkippedLine | undefined;
  private runTypeStart = 0;
  private runTypeEnd = 0;
  /**
   * Types the skip answered with their name alone: the scanner merges a run of
   * lines of one of them into one record (scan/), so such lines cost nothing here one by one.
   */
  private readonly merged: Buffer[] = [];
  /** What the skip tests see of the line being taken (one object, reused). */
  private readonly sound: SoundLine = { buf: EMPTY, start: 0, end: 0, typeStart: -1, typeEnd: -1, typeEscaped: false, subStart: -1, subEnd: -1, subEscaped: false, flags: 0 };

  private readonly maxLineBytes: number;
  /**
   * The scanner checks each line's grammar: the skip needs sound lines, or the keys are counted.
   * Otherwise every line is parsed, and the parser is the judge: the scanner finds lines only
   * (UNCHECKED), at a fraction of the cost.
   */
  private readonly grammar: boolean;

  private readonly skip: RawSkip | undefined;

  constructor(
    maxLineBytes = Number.MAX_SAFE_INTEGER,
    /** One splitter reads one file: a skip that decides per file gives it that file's (RawSkip.forFile). */
    skip?: RawSkip,
    /** Each Line says its object keys (Line.keys). */
    private readonly keys = false,
  ) {
    this.skip = skip?.forFile !== undefined ? skip.forFile() : skip;
    // A longer line could not be decoded at all (V8's longest string): it is an oversize line too.
    this.maxLineBytes = Math.min(maxLineBytes, MAX_STRING_LENGTH);
    this.grammar = skip !== undefined || keys;
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
    if (this.parts.length > 0 || this.skipping) {
      const q = chunk.indexOf(10);
      if (q < 0) {
        this.hold(chunk);
        return out;
      }
      this.takeHeld(chunk.subarray(0, q), out);
      p = q + 1;
    }
    const scanner = lineScanner();
    scanner.useMerge(this, this.merged, this.maxLineBytes);
    while (p < n) {
      const stop = Math.min(n, p + SLICE);
      const count = scanner.scan(chunk, p, stop, false, this.grammar);
      if (count === 0) {
        // No LF in the slice: the rest of the chunk, or a line longer than a slice.
        const q = stop === n ? -1 : chunk.indexOf(10, stop);
        if (q < 0) {
          this.hold(chunk.subarray(p));
          break;
        }
        this.takeAlone(chunk, p, q, out);
        p = q + 1;
        continue;
      }
      const rec = scanner.records;
      for (let k = 0; k < count * RECORD_FIELDS; k += RECORD_FIELDS) {
        this.take(chunk, p, rec, k, out);
        if (rec[k + Field.LINES]! > 1) this.takeMerged(chunk, p, rec, k, out);
      }
      p += scanner.consumed;
      scanner.useMerge(this, this.merged, this.maxLineBytes);
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
    this.takeAlone(whole, 0, whole.length, out);
  }

  /** The line `buf[start, end)` (`end` its LF or the input's end), scanned alone: it spans chunks or slices. */
  private takeAlone(buf: Buffer, start: number, end: number, out: Array<Line | SkippedLine | OversizeLine>): void {
    if (end - start > this.maxLineBytes) {
      out.push({ lineNo: ++this.lineNo, oversize: end - start });
      return;
    }
    if (end - start > LONG_SCAN) {
      // Not held in the scanner's memory, which would keep that size: parsed, and checked by that.
      let e = end;
      if (e > start && buf[e - 1] === 13) e--;
      const s = e - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf ? start + 3 : start;
      if (isBlankBytes(buf, s, e)) ++this.lineNo;
      else this.decoded(++this.lineNo, buf, s, e, -1, out);
      return;
    }
    const scanner = lineScanner();
    scanner.useMerge(this, this.merged, this.maxLineBytes);
    // An empty line makes no record: it is blank, counted and nothing more.
    if (scanner.scan(buf, start, end, true, this.grammar) === 0) ++this.lineNo;
    else this.take(buf, start, scanner.records, 0, out);
  }

  /** The line of the scanner's record at `rec[k]`, whose offsets count from `buf[base]`. */
  private take(buf: Buffer, base: number, rec: Int32Array, k: number, out: Array<Line | SkippedLine | OversizeLine>): void {
    const lineNo = ++this.lineNo;
    const start = base + rec[k + Field.START]!;
    const end = base + rec[k + Field.END]!;
    const word = rec[k + Field.WORD]!;
    const status = word & 0xff;
    // The line as read: its BOM and CR count against the limit.
    const length = end - start + ((word & LineFlag.BOM) !== 0 ? 3 : 0) + (buf[end] === 13 ? 1 : 0);
    if (length > this.maxLineBytes) {
      out.push({ lineNo, oversize: length });
      return;
    }
    // A blank line is counted and nothing more: no object, no decoding, no parse. (Form feeds and
    // vertical tabs are not JSON white space, so the scanner calls a line of them BAD: blank too.)
    if (status === LineStatus.BLANK || ((status === LineStatus.BAD || (status === LineStatus.UNCHECKED && buf[start] !== 0x7b)) && isBlankBytes(buf, start, end))) return;
    const skip = this.skip;
    // The run of skipped lines just before, of this very type (its bytes, escape-free): one line
    // more, without asking the skip again (its string answers depend on the type alone).
    const run = this.run;
    if (run !== undefined && status === LineStatus.OBJECT && (word & (LineFlag.KEY_ESCAPED | LineFlag.TYPE_ESCAPED)) === 0 && run.buf === buf && run.lineNo + run.count === lineNo && out.length > 0 && out[out.length - 1] === run) {
      const ts = base + rec[k + Field.TYPE_START]!;
      const n = base + rec[k + Field.TYPE_END]! - ts;
      if (rec[k + Field.TYPE_START]! >= 0 && n === this.runTypeEnd - this.runTypeStart && sameRange(buf, ts, this.runTypeStart, n)) {
        run.count++;
        run.end = end;
        return;
      }
    }
    if (skip !== undefined && status === LineStatus.OBJECT && rec[k + Field.TYPE_START]! >= 0 && (word & LineFlag.KEY_ESCAPED) === 0) {
      const line = this.sound;
      line.buf = buf;
      line.start = start;
      line.end = end;
      line.typeStart = base + rec[k + Field.TYPE_START]!;
      line.typeEnd = base + rec[k + Field.TYPE_END]!;
      line.typeEscaped = (word & LineFlag.TYPE_ESCAPED) !== 0;
      line.subStart = rec[k + Field.SUB_START]! < 0 ? -1 : base + rec[k + Field.SUB_START]!;
      line.subEnd = rec[k + Field.SUB_END]! < 0 ? -1 : base + rec[k + Field.SUB_END]!;
      line.subEscaped = (word & LineFlag.SUBTYPE_ESCAPED) !== 0;
      line.flags = word;
      const kept = skip.keep?.(line);
      if (kept !== undefined) {
        out.push({ lineNo, skipped: kept, count: 1, keep: true, buf, start, end });
        return;
      }
      const type = skip.test(line);
      if (type !== undefined) {
        const last = out.length > 0 ? out[out.length - 1]! : undefined;
        // The same type as the line before, in the same buffer: the run grows by a line.
        if (typeof type === "string" && last !== undefined && "skipped" in last && last.skipped === type && last.keep === undefined && last.buf === buf && last.lineNo + last.count === lineNo) {
          last.count++;
          last.end = end;
          return;
        }
        const skipped: SkippedLine = { lineNo, skipped: type, count: 1, buf, start, end };
        out.push(skipped);
        // (`keep` never takes a type the test names: raw-skip.ts.)
        if (typeof type === "string" && !line.typeEscaped) {
          this.run = skipped;
          this.runTypeStart = line.typeStart;
          this.runTypeEnd = line.typeEnd;
          this.mergeType(buf, line.typeStart, line.typeEnd);
        }
        return;
      }
      const short = skip.shorten?.(line);
      if (short !== undefined) {
        out.push({ lineNo, text: short, shortened: { buf, start, end } });
        return;
      }
    }
    this.decoded(lineNo, buf, start, end, status, out);
    if (this.keys && status === LineStatus.OBJECT) (out[out.length - 1] as Line).keys = rec[k + Field.KEYS]!;
  }

  /** The scanner is to merge runs of lines of the type `buf[start, end)` from its next scan on. */
  private mergeType(buf: Buffer, start: number, end: number): void {
    const merged = this.merged;
    if (merged.length === MERGE_MAX || end - start > MERGE_LEN) return;
    for (const t of merged) if (t.length === end - start && sameRange2(t, buf, start)) return;
    merged.push(Buffer.from(buf.subarray(start, end)));
  }

  /**
   * The lines after the first of a merged record (`rec[k + Field.LINES]` lines in all, the first taken):
   * lines of a type the skip answered with its name alone, so the run their first line joined or
   * began grows by them.
   */
  private takeMerged(buf: Buffer, base: number, rec: Int32Array, k: number, out: Array<Line | SkippedLine | OversizeLine>): void {
    const more = rec[k + Field.LINES]! - 1;
    const last = out.length > 0 ? out[out.length - 1]! : undefined;
    if (last !== undefined && "skipped" in last && typeof last.skipped === "string" && last.keep === undefined && last.buf === buf && last.lineNo + last.count === this.lineNo + 1) {
      last.count += more;
      last.end = base + rec[k + Field.LAST_END]!;
      this.lineNo += more;
      return;
    }
    // Not skipped after all (never so today: a merged type is one the skip named): each line is
    // sound, and read as any other.
    let s = base + rec[k + Field.END]!;
    const stop = base + rec[k + Field.LAST_END]!;
    while (s < stop) {
      s = buf.indexOf(10, s) + 1;
      let e = buf.indexOf(10, s);
      if (e < 0 || e > stop) e = stop;
      else if (e > s && buf[e - 1] === 13) e--;
      this.decoded(++this.lineNo, buf, s, e, LineStatus.OBJECT, out);
      s = e;
    }
  }

  /** The line decoded, for JSON.parse (json-reader.ts) to read and, if it is damaged, to report. `status` -1: not scanned. */
  private decoded(lineNo: number, buf: Buffer, start: number, end: number, status: number, out: Array<Line | SkippedLine | OversizeLine>): void {
    const text = decode(buf, start, end);
    if (status === LineStatus.BAD_UTF8) out.push({ lineNo, text, bytes: Buffer.from(buf.subarray(start, end)) });
    // U+FFFD in the text: a bad byte sequence, or the character itself, written validly.
    else if (status !== LineStatus.OBJECT && text.indexOf("\ufffd") >= 0 && !isUtf8(buf.subarray(start, end))) out.push({ lineNo, text, bytes: Buffer.from(buf.subarray(start, end)) });
    else out.push({ lineNo, text });
  }
}

const EMPTY = Buffer.alloc(0);

/** True when `buf[start, end)` holds only spaces, tabs, CRs, form feeds and vertical tabs (or nothing). */
function isBlankBytes(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b !== 32 && b !== 9 && b !== 13 && b !== 12 && b !== 11) return false;
  }
  return true;
}

/** `t` holds the bytes of `buf[at, at + t.length)`. */
function sameRange2(t: Buffer, buf: Buffer, at: number): boolean {
  for (let i = 0; i < t.length; i++) if (t[i] !== buf[at + i]) return false;
  return true;
}

/** `buf[a, a + n)` and `buf[b, b + n)` hold the same bytes. */
function sameRange(buf: Buffer, a: number, b: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (buf[a + i] !== buf[b + i]) return false;
  return true;
}

/**
 * What a RawSkip is shown of the line `buf[start, end)` (no LF inside), or undefined when it is
 * not a sound line and is parsed instead: for tests and tools that judge one line.
 */
export function soundLine(buf: Buffer, start: number, end: number): SoundLine | undefined {
  const scanner = lineScanner();
  if (scanner.scan(buf, start, end, true) === 0) return undefined;
  const r = scanner.records;
  const word = r[Field.WORD]!;
  if ((word & 0xff) !== LineStatus.OBJECT || r[Field.TYPE_START]! < 0 || (word & LineFlag.KEY_ESCAPED) !== 0) return undefined;
  return {
    buf,
    start: start + r[Field.START]!,
    end: start + r[Field.END]!,
    typeStart: start + r[Field.TYPE_START]!,
    typeEnd: start + r[Field.TYPE_END]!,
    typeEscaped: (word & LineFlag.TYPE_ESCAPED) !== 0,
    subStart: r[Field.SUB_START]! < 0 ? -1 : start + r[Field.SUB_START]!,
    subEnd: r[Field.SUB_END]! < 0 ? -1 : start + r[Field.SUB_END]!,
    subEscaped: (word & LineFlag.SUBTYPE_ESCAPED) !== 0,
    flags: word,
  };
}

/** Past this length a line is checked for ASCII first: decoding ASCII as Latin-1 is several times faster than UTF-8. */
const ASCII_CHECK_BYTES = 512;

/** A line's text. Node 20's UTF-8 decoder is slow on long ASCII lines (a tool's output, a file's contents), which are common. */
export function decode(buf: Buffer, start: number, end: number): string {
  if (end - start >= ASCII_CHECK_BYTES && isAscii(buf.subarray(start, end))) return buf.toString("latin1", start, end);
  return buf.toString("utf8", start, end);
}

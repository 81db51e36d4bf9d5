import { SCANNER_WASM_BASE64 } from "./generated/scanner-wasm.js";

/**
 * The line scanner (assembly/scanner.ts, WebAssembly with SIMD): one pass over a chunk that finds
 * each line, checks it against the whole JSON grammar (strings included: raw control characters,
 * escapes, UTF-8) and notes where its top-level "type" and "subtype" values are. JavaScript then
 * decodes and parses only the lines a command needs, and knows of every other line whether it is
 * sound, wherever its damage is.
 */

/** A line's status: a record's low byte. */
export const LineStatus = {
  /** A JSON object, with only whitespace around it. */
  OBJECT: 0,
  /** Empty, or only spaces, tabs and CRs. */
  BLANK: 1,
  /** Not JSON; `errPos` is the first byte that cannot be. */
  BAD: 2,
  /** JSON, but not an object. */
  NOT_OBJECT: 3,
  /** Nested deeper than 65,536 levels: not judged (the caller parses it). */
  TOO_DEEP: 4,
  /** JSON but for bytes that are not UTF-8; `errPos` is the first of them. */
  BAD_UTF8: 5,
  /** Not judged: the scan was asked for the lines only (its caller parses every line). */
  UNCHECKED: 6,
} as const;
export type LineStatus = (typeof LineStatus)[keyof typeof LineStatus];

/** Flags above a record's status byte. */
export const LineFlag = {
  /** The "type" value holds an escape: decode it rather than compare its bytes. */
  TYPE_ESCAPED: 0x100,
  SUBTYPE_ESCAPED: 0x200,
  /** "type" is a key of the top-level object more than once; the positions are the last one's (jq's rule). */
  TYPE_REPEATED: 0x400,
  /** The line began with a UTF-8 byte order mark; `start` is after it. */
  BOM: 0x800,
  /** A top-level key holds an escape, so it may spell "type": parse the line to know its type. */
  KEY_ESCAPED: 0x1000,
  /** The last "type" value is not a string. */
  TYPE_NOT_STRING: 0x2000,
  SUBTYPE_NOT_STRING: 0x4000,
  /** "call_id" is a key of the top-level object more than once. */
  CALL_ID_REPEATED: 0x8000,
} as const;

/**
 * Int32 fields of a record: start, end (before CR LF), status|flags, errPos, typeStart, typeEnd,
 * subStart, subEnd, lines, lastEnd, keys. A record stands for `lines` lines: with more than one, a
 * run of sound lines of one merged type (setMerge), the fields before `lines` being its first
 * line's and `lastEnd` its last line's end (before CR LF). `keys`: the object keys of the line at
 * every depth, repeated ones included (JSON.parse keeps one of each).
 */
export const RECORD_FIELDS = 11;

/** Where each of a record's fields is, from its first int32 (RECORD_FIELDS): read them by name. */
export const Field = {
  START: 0,
  END: 1,
  /** status | flags (LineStatus, LineFlag). */
  WORD: 2,
  ERR_POS: 3,
  TYPE_START: 4,
  TYPE_END: 5,
  SUB_START: 6,
  SUB_END: 7,
  LINES: 8,
  LAST_END: 9,
  KEYS: 10,
} as const;

/** Types the scanner can merge, and their longest name in bytes. */
export const MERGE_MAX = 8;
export const MERGE_LEN = 64;

let compiled: WebAssembly.Module | undefined;

interface ScannerExports {
  memory: WebAssembly.Memory;
  consumed: WebAssembly.Global;
  layout(inputCap: number, recordCap: number): number;
  outAddress(): number;
  mergeAddress(k: number): number;
  setMerge(count: number, k: number, len: number, maxLine: number): void;
  scan(len: number, final: number, grammar: number): number;
}

/**
 * One scanner: its own WebAssembly instance and memory. `scan` copies bytes in and leaves one
 * record per line in `records` (offsets relative to the bytes given); positions are -1 when absent.
 */
export class LineScanner {
  private readonly wasm: ScannerExports;
  private inputCap = 0;
  private input!: Uint8Array;
  /** The records of the last scan: RECORD_FIELDS int32s per line. */
  records!: Int32Array;
  /** Bytes of the last scan's input that its records cover (up to and including the last LF). */
  consumed = 0;
  /** Whose merged types the scanner holds (useMerge), and how many of them. */
  private mergeOwner: unknown;
  private mergeCount = 0;

  constructor(
    inputCap = 1 << 20,
    private readonly recordCap = 1 << 16,
  ) {
    compiled ??= new WebAssembly.Module(Buffer.from(SCANNER_WASM_BASE64, "base64"));
    this.wasm = new WebAssembly.Instance(compiled, {}).exports as unknown as ScannerExports;
    this.reserve(inputCap);
  }

  private reserve(cap: number): void {
    const at = this.wasm.layout(cap, this.recordCap);
    if (at === 0) throw new RangeError(`cannot hold a chunk of ${cap} bytes in the scanner's memory`);
    this.inputCap = cap;
    const buf = this.wasm.memory.buffer;
    this.input = new Uint8Array(buf, at, cap);
    this.records = new Int32Array(buf, this.wasm.outAddress(), this.recordCap * RECORD_FIELDS);
  }

  /**
   * From the next scan on, a sound line whose type is one of `types` (plainly written, at most
   * MERGE_MAX of up to MERGE_LEN bytes; the rest are ignored) and no longer than `maxLine` bytes
   * joins the record of the line before it when that line has the same type. `owner` says whose
   * list it is: a list only grows, so the same owner with as many types as before is a no-op.
   */
  useMerge(owner: unknown, types: readonly Uint8Array[], maxLine: number): void {
    if (owner === this.mergeOwner && types.length === this.mergeCount) return;
    let count = 0;
    const w = this.wasm;
    for (const t of types) {
      if (count === MERGE_MAX || t.length > MERGE_LEN) continue;
      new Uint8Array(w.memory.buffer, w.mergeAddress(count), t.length).set(t);
      w.setMerge(count + 1, count, t.length, Math.min(maxLine, 0x7fffffff));
      count++;
    }
    if (count === 0) w.setMerge(0, -1, 0, 0x7fffffff);
    this.mergeOwner = owner;
    this.mergeCount = types.length;
  }

  /**
   * Scans bytes[start, end): one record per line that ends in LF, and with `final` the rest as a
   * last line, up to the record capacity; `consumed` says how far the records reach. Returns the
   * number of records. `grammar` false: the lines only, each UNCHECKED (no type, no keys).
   */
  scan(bytes: Uint8Array, start: number, end: number, final: boolean, grammar = true): number {
    const len = end - start;
    if (len > this.inputCap) this.reserve(Math.max(len, this.inputCap * 2));
    this.input.set(bytes.subarray(start, end));
    const n = this.wasm.scan(len, final ? 1 : 0, grammar ? 1 : 0);
    this.consumed = this.wasm.consumed.value as number;
    return n;
  }
}

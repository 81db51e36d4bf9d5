// The line scanner, in AssemblyScript (compiled to WebAssembly with SIMD by scripts/build-scanner.mjs;
// tsc never sees this folder). One pass over a chunk of NDJSON: finds each line, checks it against
// the whole JSON grammar (strings included: raw control characters, escapes, UTF-8), and notes
// where the top-level "type" and "subtype" string values are, so that JavaScript decodes and
// parses only the lines a command needs. The JavaScript side is ../index.ts.
//
// Memory: static data (the compiler's, up to __heap_base); then [STACK, STACK + MAX_DEPTH) the
// open containers of the line being checked; then the merged types; then the records (REC_BYTES
// each); then the input. layout() places the last two and grows the memory. Nothing is allocated.

// Line status, in a record's low byte (../index.ts has the same table).
const OBJECT: i32 = 0; // a JSON object, with only whitespace around it
const BLANK: i32 = 1; // empty, or only spaces, tabs and CRs
const BAD: i32 = 2; // not JSON: errPos is the first byte that cannot be
const NOT_OBJECT: i32 = 3; // JSON, but not an object (an array, a string, a number, a literal)
const TOO_DEEP: i32 = 4; // nested deeper than MAX_DEPTH
const BAD_UTF8: i32 = 5; // JSON but for bytes that are not UTF-8: errPos is the first of them
const UNCHECKED: i32 = 6; // scan() was asked for the lines only: not judged (the caller parses it)

// Flags, above the status byte.
const TYPE_ESCAPED: i32 = 0x100; // the "type" value holds an escape: decode it, do not compare bytes
const SUBTYPE_ESCAPED: i32 = 0x200;
const TYPE_REPEATED: i32 = 0x400; // "type" is a key of the top-level object more than once: the last counts
const BOM: i32 = 0x800; // the line began with a UTF-8 byte order mark, which start skips
const KEY_ESCAPED: i32 = 0x1000; // a top-level key holds an escape: it may spell "type"; parse to know
const TYPE_NOT_STRING: i32 = 0x2000; // the last "type" value is not a string
const SUBTYPE_NOT_STRING: i32 = 0x4000;
const CALL_ID_REPEATED: i32 = 0x8000; // "call_id" is a key of the top-level object more than once

// start, end, status|flags, errPos, typeStart, typeEnd, subStart, subEnd, lines, lastEnd, keys: a
// record stands for `lines` lines (a run of lines of one merged type, below) whose last ends at
// lastEnd; the other fields are its first line's. keys: the number of object keys in the line, at
// every depth (a line that repeats a key in an object has more than JSON.parse keeps).
const REC_I32: i32 = 11;
const REC_BYTES: i32 = REC_I32 * 4;
const MAX_DEPTH: i32 = 1 << 16;
const STACK: usize = (__heap_base + 15) & ~15;

// Merged types: a sound line whose type is one of these, written plainly, that follows a line of
// the same type, joins that line's record instead of making its own (JavaScript skips such lines
// by their type alone, so it needs only their count and extent). Up to MERGE_MAX types of up to
// MERGE_LEN bytes each, at MERGE_AT; JavaScript writes them with setMerge().
const MERGE_MAX: i32 = 8;
const MERGE_LEN: i32 = 64;
const MERGE_AT: usize = STACK + <usize>MAX_DEPTH;
/** The merged types' lengths: MERGE_MAX i32s. */
const MERGE_LENS: usize = MERGE_AT + <usize>(MERGE_MAX * MERGE_LEN);
let mergeCount: i32 = 0;
/** Lines longer than this (CR and BOM included) are never merged: JavaScript reports them. */
let mergeMaxLine: i32 = 0x7fffffff;

let outPtr: usize = 0;
let outCap: i32 = 0;
let inPtr: usize = 0;

/** Offset (from the input's start) just past the last line scan() recorded. */
export let consumed: i32 = 0;

/**
 * Places the records and the input for chunks of up to `inputCap` bytes and `recordCap` lines,
 * growing the memory if need be; returns the input's address (the records are at outAddress()).
 */
export function layout(inputCap: i32, recordCap: i32): usize {
  outPtr = (MERGE_LENS + <usize>(MERGE_MAX * 4) + 15) & ~15;
  outCap = recordCap;
  inPtr = (outPtr + <usize>recordCap * REC_BYTES + 15) & ~15;
  const need = inPtr + <usize>inputCap + 64;
  const have = <usize>memory.size() << 16;
  if (need > have) {
    if (memory.grow(<i32>((need - have + 0xffff) >> 16)) < 0) return 0;
  }
  return inPtr;
}

export function outAddress(): usize {
  return outPtr;
}

/** Where JavaScript writes merged type `k`'s bytes before calling setMerge(). */
export function mergeAddress(k: i32): usize {
  return MERGE_AT + <usize>(k * MERGE_LEN);
}

/** Merged type k has `len` bytes (k == count of types: adds one); `count` types in all, lines up to maxLine bytes. */
export function setMerge(count: i32, k: i32, len: i32, maxLine: i32): void {
  mergeCount = count;
  mergeMaxLine = maxLine;
  if (k >= 0 && k < MERGE_MAX) store<i32>(MERGE_LENS + <usize>(k * 4), len);
}

// What validate() leaves for the record, besides its status.
let flags: i32 = 0;
let errPos: i32 = -1;
let utf8Err: i32 = -1;
let typeStart: i32 = -1;
let typeEnd: i32 = -1;
let subStart: i32 = -1;
let subEnd: i32 = -1;
// The string scanString() last read had a backslash.
let escaped: bool = false;

// The keys of the line being checked, at every depth.
let keys: i32 = 0;

/**
 * Scans input[0, len) for lines ending in LF (and, when `final`, the rest as a last line); writes
 * one record per line until the records are full; sets `consumed`; returns the number of records.
 * Without `grammar`, the lines only: each is UNCHECKED, with no type (for a caller that parses
 * every line, whose parser is the judge).
 */
export function scan(len: i32, final: bool, grammar: bool): i32 {
  let p: i32 = 0;
  let n: i32 = 0;
  // The merged type of the record before, or -1.
  let prevMerge: i32 = -1;
  while (n < outCap && p < len) {
    let lf = findLF(p, len);
    if (lf < 0) {
      if (!final) break;
      lf = len;
    }
    record(n, p, lf, grammar);
    const m = mergeCount > 0 && lf - p <= mergeMaxLine && (flags & (KEY_ESCAPED | TYPE_ESCAPED | BOM)) == 0 && typeStart >= 0 && (load<i32>(outPtr + <usize>n * REC_BYTES + 8) & 0xff) == OBJECT ? mergedType(prevMerge) : -1;
    if (m >= 0 && m == prevMerge) {
      const r = outPtr + <usize>(n - 1) * REC_BYTES;
      store<i32>(r, load<i32>(r, 32) + 1, 32);
      store<i32>(r, load<i32>(outPtr + <usize>n * REC_BYTES, 4), 36);
    } else {
      prevMerge = m;
      n++;
    }
    p = lf < len ? lf + 1 : len;
  }
  consumed = p;
  return n;
}

/** The merged type the line just recorded has (its "type" is typeStart..typeEnd), or -1; `hint` is tried first. */
function mergedType(hint: i32): i32 {
  const len = typeEnd - typeStart;
  if (hint >= 0 && load<i32>(MERGE_LENS + <usize>(hint * 4)) == len && sameBytes(inPtr + <usize>typeStart, MERGE_AT + <usize>(hint * MERGE_LEN), len)) return hint;
  for (let k = 0; k < mergeCount; k++) {
    if (k != hint && load<i32>(MERGE_LENS + <usize>(k * 4)) == len && sameBytes(inPtr + <usize>typeStart, MERGE_AT + <usize>(k * MERGE_LEN), len)) return k;
  }
  return -1;
}

@inline function sameBytes(a: usize, b: usize, len: i32): bool {
  let i: i32 = 0;
  for (; i + 8 <= len; i += 8) if (load<u64>(a + <usize>i) != load<u64>(b + <usize>i)) return false;
  for (; i < len; i++) if (load<u8>(a + <usize>i) != load<u8>(b + <usize>i)) return false;
  return true;
}

/** The first LF in input[p, len), or -1. */
function findLF(p: i32, len: i32): i32 {
  const base = inPtr;
  const nl = i8x16.splat(0x0a);
  while (p + 16 <= len) {
    const bits = i8x16.bitmask(i8x16.eq(v128.load(base + <usize>p), nl));
    if (bits != 0) return p + ctz(bits);
    p += 16;
  }
  while (p < len) {
    if (load<u8>(base + <usize>p) == 0x0a) return p;
    p++;
  }
  return -1;
}

function record(n: i32, start: i32, end: i32, grammar: bool): void {
  if (end > start && load<u8>(inPtr + <usize>end - 1) == 0x0d) end--;
  flags = 0;
  errPos = -1;
  utf8Err = -1;
  typeStart = typeEnd = subStart = subEnd = -1;
  if (end - start >= 3 && load<u8>(inPtr + <usize>start) == 0xef && load<u8>(inPtr + <usize>start + 1) == 0xbb && load<u8>(inPtr + <usize>start + 2) == 0xbf) {
    start += 3;
    flags |= BOM;
  }
  keys = 0;
  let status = grammar ? validate(start, end) : UNCHECKED;
  if (status == OBJECT && utf8Err >= 0) {
    status = BAD_UTF8;
    errPos = utf8Err;
  }
  const r = outPtr + <usize>n * REC_BYTES;
  store<i32>(r, start);
  store<i32>(r, end, 4);
  store<i32>(r, status | flags, 8);
  store<i32>(r, errPos, 12);
  store<i32>(r, typeStart, 16);
  store<i32>(r, typeEnd, 20);
  store<i32>(r, subStart, 24);
  store<i32>(r, subEnd, 28);
  store<i32>(r, 1, 32);
  store<i32>(r, end, 36);
  store<i32>(r, keys, 40);
}

// What the next token may be.
const VALUE: i32 = 0; // any value
const VALUE_OR_CLOSE: i32 = 1; // after `[`
const KEY: i32 = 2; // after `,` in an object
const KEY_OR_CLOSE: i32 = 3; // after `{`
const COLON: i32 = 4; // after a key
const NEXT: i32 = 5; // after a value: `,` or the container's close

@inline function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0d;
}

function bad(at: i32): i32 {
  errPos = at;
  return BAD;
}

/** Checks input[start, end) as one JSON text; returns its status. */
function validate(start: i32, end: i32): i32 {
  const base = inPtr;
  let p = start;
  while (p < end && isSpace(load<u8>(base + <usize>p))) p++;
  if (p == end) return BLANK;
  const topIsObject = load<u8>(base + <usize>p) == 0x7b;
  let depth: i32 = 0;
  let state = VALUE;
  // 1: the key just read at depth 1 is "type", 2: "subtype"; the value that follows is noted.
  let member: i32 = 0;
  let callIds: i32 = 0;
  while (p < end) {
    const c = <u32>load<u8>(base + <usize>p);
    if (isSpace(c)) {
      p++;
      continue;
    }
    if (depth == 0 && state == NEXT) return bad(p); // something after the top-level value
    if (state == COLON) {
      if (c != 0x3a) return bad(p);
      state = VALUE;
      p++;
      continue;
    }
    if (state == NEXT) {
      if (c == 0x2c) {
        state = load<u8>(STACK + <usize>depth - 1) == 1 ? KEY : VALUE;
        p++;
        continue;
      }
      const open = load<u8>(STACK + <usize>depth - 1);
      if ((c == 0x7d && open == 1) || (c == 0x5d && open == 0)) {
        depth--;
        p++;
        continue; // state stays NEXT
      }
      return bad(p);
    }
    if (state == KEY || state == KEY_OR_CLOSE) {
      if (c == 0x7d && state == KEY_OR_CLOSE) {
        depth--;
        state = NEXT;
        p++;
        continue;
      }
      if (c != 0x22) return bad(p);
      const q = scanString(p + 1, end);
      if (q < 0) return BAD;
      keys++;
      if (depth == 1) {
        member = 0;
        if (escaped) flags |= KEY_ESCAPED;
        else if (q - p == 6 && load<u32>(base + <usize>p + 1) == 0x65707974) member = 1; // "type"
        else if (q - p == 9 && load<u32>(base + <usize>p + 1) == 0x74627573 && load<u16>(base + <usize>p + 5) == 0x7079 && load<u8>(base + <usize>p + 7) == 0x65) member = 2; // "subtype"
        else if (q - p == 9 && load<u32>(base + <usize>p + 1) == 0x6c6c6163 && load<u16>(base + <usize>p + 5) == 0x695f && load<u8>(base + <usize>p + 7) == 0x64) {
          // "call_id": a second one would win in JSON.parse over the first, which a command may read from the bytes
          if (callIds > 0) flags |= CALL_ID_REPEATED;
          callIds++;
        }
      }
      p = q;
      // Compact JSON: the colon right after the key, taken here rather than by another turn.
      if (p < end && load<u8>(base + <usize>p) == 0x3a) {
        state = VALUE;
        p++;
      } else state = COLON;
      continue;
    }
    // A value (state VALUE or VALUE_OR_CLOSE).
    if (c == 0x5d && state == VALUE_OR_CLOSE) {
      depth--;
      state = NEXT;
      p++;
      continue;
    }
    const noted = depth == 1 ? member : 0;
    member = 0;
    if (c == 0x22) {
      const q = scanString(p + 1, end);
      if (q < 0) return BAD;
      if (noted == 1) {
        if (typeStart >= 0 || (flags & TYPE_NOT_STRING) != 0) flags |= TYPE_REPEATED;
        flags &= ~(TYPE_ESCAPED | TYPE_NOT_STRING);
        typeStart = p + 1;
        typeEnd = q - 1;
        if (escaped) flags |= TYPE_ESCAPED;
      } else if (noted == 2) {
        flags &= ~(SUBTYPE_ESCAPED | SUBTYPE_NOT_STRING);
        subStart = p + 1;
        subEnd = q - 1;
        if (escaped) flags |= SUBTYPE_ESCAPED;
      }
      p = q;
      state = afterValue(p, end, depth);
      if (state != NEXT) p++;
      continue;
    }
    if (noted == 1) {
      if (typeStart >= 0 || (flags & TYPE_NOT_STRING) != 0) flags |= TYPE_REPEATED;
      flags = (flags & ~TYPE_ESCAPED) | TYPE_NOT_STRING;
      typeStart = typeEnd = -1;
    } else if (noted == 2) {
      flags = (flags & ~SUBTYPE_ESCAPED) | SUBTYPE_NOT_STRING;
      subStart = subEnd = -1;
    }
    if (c == 0x7b || c == 0x5b) {
      if (depth == MAX_DEPTH) return TOO_DEEP;
      store<u8>(STACK + <usize>depth, c == 0x7b ? 1 : 0);
      depth++;
      state = c == 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
      p++;
      continue;
    }
    let q: i32;
    if (c == 0x2d || (c >= 0x30 && c <= 0x39)) q = scanNumber(p, end);
    else if (c == 0x74) q = literal(p, end, 0x65757274, 0); // true
    else if (c == 0x6e) q = literal(p, end, 0x6c6c756e, 0); // null
    else if (c == 0x66) q = literal(p, end, 0x736c6166, 0x65); // false
    else return bad(p);
    if (q < 0) return BAD;
    p = q;
    state = afterValue(p, end, depth);
    if (state != NEXT) p++;
  }
  if (depth != 0 || state != NEXT) return bad(end);
  return topIsObject ? OBJECT : NOT_OBJECT;
}

/**
 * The state after a value ending before p: NEXT, or, in compact JSON, when a comma follows at once
 * inside a container, the state after that comma (the caller steps over it).
 */
@inline function afterValue(p: i32, end: i32, depth: i32): i32 {
  if (depth == 0 || p >= end || load<u8>(inPtr + <usize>p) != 0x2c) return NEXT;
  return load<u8>(STACK + <usize>depth - 1) == 1 ? KEY : VALUE;
}

/** A literal whose first four bytes are `word` (little-endian), and a fifth byte `fifth` unless 0; returns its end or -1. */
function literal(p: i32, end: i32, word: u32, fifth: u32): i32 {
  const len = fifth == 0 ? 4 : 5;
  if (p + len > end || load<u32>(inPtr + <usize>p) != word || (fifth != 0 && <u32>load<u8>(inPtr + <usize>p + 4) != fifth)) {
    errPos = p;
    return -1;
  }
  return p + len;
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/** A number from p (a `-` or a digit); returns its end, or -1 with errPos set. */
function scanNumber(p: i32, end: i32): i32 {
  const base = inPtr;
  if (load<u8>(base + <usize>p) == 0x2d) p++;
  if (p >= end) {
    errPos = p;
    return -1;
  }
  let c = <u32>load<u8>(base + <usize>p);
  if (c == 0x30) p++;
  else if (isDigit(c)) {
    p = digits(p + 1, end);
  } else {
    errPos = p;
    return -1;
  }
  if (p < end && load<u8>(base + <usize>p) == 0x2e) {
    p++;
    if (p >= end || !isDigit(load<u8>(base + <usize>p))) {
      errPos = p;
      return -1;
    }
    p = digits(p, end);
  }
  if (p < end && (load<u8>(base + <usize>p) | 0x20) == 0x65) {
    p++;
    if (p < end && (load<u8>(base + <usize>p) == 0x2b || load<u8>(base + <usize>p) == 0x2d)) p++;
    if (p >= end || !isDigit(load<u8>(base + <usize>p))) {
      errPos = p;
      return -1;
    }
    p = digits(p, end);
  }
  return p;
}

/** The end of the run of digits from p (at most `end`). Reads up to 15 bytes past `end`. */
function digits(p: i32, end: i32): i32 {
  const zero = i8x16.splat(0x30);
  const ten = i8x16.splat(10);
  while (p < end) {
    const v = v128.load(inPtr + <usize>p);
    const bits = i8x16.bitmask(i8x16.ge_u(i8x16.sub(v, zero), ten));
    if (bits != 0) {
      const q = p + <i32>ctz(bits);
      return q < end ? q : end;
    }
    p += 16;
  }
  return end;
}

@inline function hex(c: u32): bool {
  return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6;
}

@inline function cont(p: i32): bool {
  return (load<u8>(inPtr + <usize>p) & 0xc0) == 0x80;
}

/** Escapes JSON allows after a backslash: 1 for `"` `\` `/` b f n r t, 2 for u. */
const ESCAPES = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
  0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/**
 * The rest of a string whose opening quote is before p: returns the position after its closing
 * quote, or -1 with errPos set. Sets `escaped`. Bytes that are not UTF-8 set utf8Err (the first
 * of them) and are stepped over: the grammar goes on. Reads up to 15 bytes past `end` (the input
 * has slack after it) and ignores them.
 */
function scanString(p: i32, end: i32): i32 {
  const base = inPtr;
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const space = i8x16.splat(0x20);
  // A byte needs a look if it is a quote, a backslash, or not printable ASCII: below 0x20 or above
  // 0x7f, that is (v - 0x20) >= 0x60 unsigned.
  const low = i8x16.splat(0x60);
  escaped = false;
  while (p < end) {
    const v = v128.load(base + <usize>p);
    let bits = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.ge_u(i8x16.sub(v, space), low)));
    if (end - p < 16) bits |= 1 << (end - p); // the end: a look there says the string is cut
    // The bytes of this block that need a look, in order; a step past the block loads the next.
    let next = p + 16;
    while (bits != 0) {
      const q = p + <i32>ctz(bits);
      if (q >= end) {
        errPos = end;
        return -1;
      }
      const c = <u32>load<u8>(base + <usize>q);
      if (c == 0x22) return q + 1;
      let after: i32;
      if (c == 0x5c) {
        escaped = true;
        const kind = q + 1 < end ? load<u8>(ESCAPES + <usize>load<u8>(base + <usize>q + 1)) : 0;
        if (kind == 1) after = q + 2;
        else if (kind == 2 && q + 6 <= end && hex(load<u8>(base + <usize>q + 2)) && hex(load<u8>(base + <usize>q + 3)) && hex(load<u8>(base + <usize>q + 4)) && hex(load<u8>(base + <usize>q + 5))) after = q + 6;
        else {
          errPos = q + 1 < end ? q : end;
          return -1;
        }
      } else if (c < 0x20) {
        errPos = q;
        return -1;
      } else after = utf8(q, end, c);
      if (after >= next) {
        next = after;
        break;
      }
      bits &= -1 << (after - p);
    }
    p = next;
  }
  errPos = end;
  return -1;
}

/** Steps over the UTF-8 sequence that starts with byte c at p; notes utf8Err if it is not one. */
function utf8(p: i32, end: i32, c: u32): i32 {
  let n: i32 = 0;
  let ok = false;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 1;
    ok = p + 1 < end && cont(p + 1);
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 2;
    if (p + 2 < end && cont(p + 1) && cont(p + 2)) {
      const c1 = <u32>load<u8>(inPtr + <usize>p + 1);
      ok = c == 0xe0 ? c1 >= 0xa0 : c == 0xed ? c1 < 0xa0 : true;
    }
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 3;
    if (p + 3 < end && cont(p + 1) && cont(p + 2) && cont(p + 3)) {
      const c1 = <u32>load<u8>(inPtr + <usize>p + 1);
      ok = c == 0xf0 ? c1 >= 0x90 : c == 0xf4 ? c1 < 0x90 : true;
    }
  }
  if (ok) return p + 1 + n;
  if (utf8Err < 0) utf8Err = p;
  return p + 1;
}

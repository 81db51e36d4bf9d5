import { wellFormed } from "./well-formed.js";

/**
 * Whether a line a command skips (or keeps as bytes) unparsed is sound enough to leave unparsed.
 * `buf[start]` is `{` and the line's type was read from its start.
 *
 * Most lines of a log are thinking deltas, flat objects: `{"type":"thinking",…,"timestamp_ms":N}`
 * with no `{` after the first. Walking every byte of them (wellFormed) was a third of the time of
 * `cursorlog json`. A flat line is taken as sound when it ends in a whole member, `,"key":value}`
 * (the value a string, number or literal; the key not "type"); this is found from the end, and
 * the rest of the line is not walked. That is still enough to catch what breaks lines in real
 * logs: a line cut anywhere ends inside a string or before the final `}` (in a flat line, a `}`
 * outside strings is the last byte; in a string every `"` is escaped, so no cut there can end in
 * `"key":value}`), and two events run together hold a second `{`. Any other line, and a flat
 * line that does not end that way, gets the full walk.
 *
 * What a flat line's middle may hide goes unnoticed: raw control characters in a string, bytes
 * that are not JSON. A line holding the bytes `"type"` past its first key gets the full walk, which
 * sends a second top-level "type" to be parsed. `cursorlog validate` parses every line.
 */
export function soundLine(buf: Buffer, start: number, end: number): boolean {
  const brace = buf.indexOf(0x7b, start + 1);
  if ((brace < 0 || brace >= end) && endsInMember(buf, start, end) && !secondType(buf, start, end)) return true;
  return wellFormed(buf, start, end);
}

/**
 * Where a second key "type" can stand in a line: after a comma, or after white space. A quote
 * inside a string is escaped and a raw TAB or CR cannot be in one, so none of these bytes occur
 * inside strings. (The TAB and CR patterns stop short of the closing quote: a pattern under 7
 * bytes is searched for its rare first byte, which is several times faster; the rest is checked
 * here.)
 */
const SECOND_TYPE = [',"type"', ' "type"', '\t"type', '\r"type'].map((s) => Buffer.from(s));

/** The buffer last searched, and where SECOND_TYPE's patterns start in it (sorted). */
let searched: Buffer | undefined;
let found: number[] = [];

/**
 * A second top-level "type" key may be in the flat line `buf[start, end)` (JSON.parse, like jq,
 * lets the last one win, so the type read from the line's start would be wrong): one of
 * SECOND_TYPE's patterns is there, as a key or, more rarely, a string value; the full walk then
 * tells which. A native search costs about 0.4 µs a call whatever the line (a tenth of a second
 * per million thinking deltas), so the whole buffer, a read chunk of thousands of lines, is
 * searched once, and each line looks its range up.
 */
function secondType(buf: Buffer, start: number, end: number): boolean {
  if (buf !== searched) {
    searched = buf;
    found = [];
    for (const p of SECOND_TYPE) {
      for (let at = buf.indexOf(p); at >= 0; at = buf.indexOf(p, at + 1)) {
        if (p.length === 6 && buf[at + 6] !== 0x22) continue;
        found.push(at);
      }
    }
    if (found.length > 1) found.sort((a, b) => a - b);
  }
  if (found.length === 0) return false;
  // The first pattern starting after the line's first key, `{"type"`.
  let lo = 0;
  let hi = found.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (found[mid]! <= start + 1) lo = mid + 1;
    else hi = mid;
  }
  return lo < found.length && found[lo]! < end;
}

/** True when the line ends `,"key":value}`, value a string, number or literal, key not "type". */
function endsInMember(buf: Buffer, start: number, end: number): boolean {
  let i = end - 1;
  if (i <= start || buf[i] !== 0x7d) return false;
  i--;
  if (buf[i] === 0x22) {
    // A string: its opening quote is the nearest unescaped one before its closing quote.
    if (escaped(buf, i)) return false;
    i = openingQuote(buf, start, i - 1);
    if (i < 0) return false;
    i--;
  } else {
    const last = i;
    while (i > start && SCALAR[buf[i]!] === 1) i--;
    if (i === last) return false;
  }
  while (buf[i] === 0x20) i--;
  if (buf[i] !== 0x3a) return false;
  i--;
  while (buf[i] === 0x20) i--;
  if (buf[i] !== 0x22 || escaped(buf, i)) return false;
  const key = openingQuote(buf, start, i - 1);
  if (key < 0 || (i - key === 5 && buf[key + 1] === 0x74 && buf[key + 2] === 0x79 && buf[key + 3] === 0x70 && buf[key + 4] === 0x65)) return false;
  let k = key - 1;
  while (buf[k] === 0x20) k--;
  return k > start && buf[k] === 0x2c;
}

/** Bytes of a number or literal: digits - + . e E and the letters of true, false, null. */
const SCALAR = new Uint8Array(256);
for (const ch of "0123456789-+.eEtrufalsn") SCALAR[ch.charCodeAt(0)] = 1;

/** The quote at `q` is escaped: an odd number of backslashes stand before it. */
function escaped(buf: Buffer, q: number): boolean {
  let b = q - 1;
  while (buf[b] === 0x5c) b--;
  return (q - 1 - b) % 2 === 1;
}

/** The nearest unescaped quote at or before `from`, after `start`; -1 if none. */
function openingQuote(buf: Buffer, start: number, from: number): number {
  // Keys and ids are short: a loop here is cheaper than a native call; long text is searched natively.
  const near = Math.max(start, from - NEAR);
  for (let q = from; q > near; q--) if (buf[q] === 0x22 && !escaped(buf, q)) return q;
  for (let q = near; q > start; q--) {
    q = buf.lastIndexOf(0x22, q);
    if (q <= start) return -1;
    if (!escaped(buf, q)) return q;
  }
  return -1;
}

const NEAR = 48;

import { isUtf8 } from "node:buffer";
import { closingQuote, isType } from "./well-formed.js";

/**
 * The check of a line `filter` writes as its own bytes, without parsing it (raw-skip.ts keepWhole):
 * the JSON grammar outside strings (commas, colons, brackets, numbers, literals; one object that
 * closes at the line's last byte), valid UTF-8, and in each string's first SHORT bytes no raw
 * control character and no escape JSON lacks. Where it says yes, JSON.parse reads the decoded line
 * as an object, except for damage inside a string past its first SHORT bytes, which only a walk as
 * costly as parsing would see (README LIMITATIONS). It says no to some valid lines (nesting deeper
 * than MAX_DEPTH; a second top-level "type", which JSON.parse lets win over the one the caller
 * read): those are decoded and parsed as usual.
 */
export function jsonObjectLine(buf: Buffer, start: number, end: number): boolean {
  if (end - start < 2 || buf[start] !== 0x7b || buf[end - 1] !== 0x7d) return false;
  return grammar(buf, start, end) && isUtf8(buf.subarray(start, end));
}

const MAX_DEPTH = 64;

// What the next token may be.
const VALUE = 0; // any value
const VALUE_OR_CLOSE = 1; // after `[`
const KEY = 2; // after `,` in an object
const KEY_OR_CLOSE = 3; // after `{`
const COLON = 4; // after a key
const NEXT = 5; // after a value: `,` or the container's close

/** Whitespace JSON allows between tokens (LF cannot occur inside a line). */
const SPACE = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0d, 0x0a]) SPACE[c] = 1;

/** The characters a backslash may escape in a JSON string, `u` aside. */
const ESCAPED = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPED[c.charCodeAt(0)] = 1;

/** 1 for an ASCII hex digit. */
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/** The open containers of the line being checked, 1 for an object, 0 for an array. */
const stack = new Uint8Array(MAX_DEPTH);

function grammar(buf: Buffer, start: number, end: number): boolean {
  let depth = 0;
  let state = VALUE;
  let i = start;
  while (i < end) {
    const c = buf[i]!;
    if (SPACE[c] === 1) {
      i++;
      continue;
    }
    if (depth === 0 && i > start) return false; // something after the top-level object
    switch (state) {
      case COLON:
        if (c !== 0x3a) return false;
        state = VALUE;
        i++;
        continue;
      case NEXT:
        if (c === 0x2c) {
          state = stack[depth - 1] === 1 ? KEY : VALUE;
          i++;
          continue;
        }
        if (c !== (stack[depth - 1] === 1 ? 0x7d : 0x5d)) return false;
        depth--;
        i++;
        continue; // state stays NEXT
      case KEY:
      case KEY_OR_CLOSE:
        if (c === 0x7d && state === KEY_OR_CLOSE) {
          depth--;
          state = NEXT;
          i++;
          continue;
        }
        if (c !== 0x22) return false;
        {
          const q = stringEnd(buf, i + 1, end);
          if (q < 0) return false;
          // a second top-level "type" would win in JSON.parse over the one the caller read
          if (depth === 1 && i !== start + 1 && isType(buf, i + 1, q)) return false;
          i = q + 1;
        }
        state = COLON;
        continue;
      default: {
        // VALUE or VALUE_OR_CLOSE
        if (c === 0x5d && state === VALUE_OR_CLOSE) {
          depth--;
          state = NEXT;
          i++;
          continue;
        }
        if (depth === 0 && c !== 0x7b) return false;
        if (c === 0x7b || c === 0x5b) {
          if (depth === MAX_DEPTH) return false;
          stack[depth++] = c === 0x7b ? 1 : 0;
          state = c === 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
          i++;
          continue;
        }
        if (c === 0x22) {
          const q = stringEnd(buf, i + 1, end);
          if (q < 0) return false;
          i = q + 1;
        } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          i = numberEnd(buf, i, end);
          if (i < 0) return false;
        } else if (c === 0x74) {
          if (!word(buf, i, end, TRUE)) return false;
          i += 4;
        } else if (c === 0x66) {
          if (!word(buf, i, end, FALSE)) return false;
          i += 5;
        } else if (c === 0x6e) {
          if (!word(buf, i, end, NULL)) return false;
          i += 4;
        } else return false;
        state = NEXT;
      }
    }
  }
  return depth === 0 && state === NEXT;
}

const TRUE = Buffer.from("true");
const FALSE = Buffer.from("false");
const NULL = Buffer.from("null");

function word(buf: Buffer, i: number, end: number, w: Buffer): boolean {
  if (i + w.length > end) return false;
  for (let k = 1; k < w.length; k++) if (buf[i + k] !== w[k]) return false;
  return true;
}

/** The index just past the number starting at `i` (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), or -1. */
function numberEnd(buf: Buffer, i: number, end: number): number {
  if (buf[i] === 0x2d) i++;
  if (i >= end) return -1;
  if (buf[i] === 0x30) i++;
  else if (buf[i]! >= 0x31 && buf[i]! <= 0x39) i = digits(buf, i, end);
  else return -1;
  if (i < end && buf[i] === 0x2e) {
    const d = digits(buf, i + 1, end);
    if (d === i + 1) return -1;
    i = d;
  }
  if (i < end && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++;
    if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) i++;
    const d = digits(buf, i, end);
    if (d === i) return -1;
    i = d;
  }
  return i;
}

function digits(buf: Buffer, i: number, end: number): number {
  while (i < end && buf[i]! >= 0x30 && buf[i]! <= 0x39) i++;
  return i;
}

/**
 * The closing quote of the string whose first content byte is `i`, or -1: no close before `end`,
 * a raw control character (below 0x20) or an escape JSON does not have in its first SHORT bytes.
 * Past those the string is jumped over natively to its closing quote, unchecked: that walk would
 * cost as much as parsing the line.
 */
function stringEnd(buf: Buffer, i: number, end: number): number {
  const short = Math.min(end, i + SHORT);
  while (i < short) {
    const c = buf[i]!;
    if (c === 0x22) return i;
    if (c < 0x20) return -1;
    if (c === 0x5c) {
      if (i + 1 >= end) return -1;
      const e = buf[i + 1]!;
      if (e === 0x75) {
        if (i + 6 > end || HEX[buf[i + 2]!] !== 1 || HEX[buf[i + 3]!] !== 1 || HEX[buf[i + 4]!] !== 1 || HEX[buf[i + 5]!] !== 1) return -1;
        i += 6;
      } else if (ESCAPED[e] === 1) i += 2;
      else return -1;
      continue;
    }
    i++;
  }
  return i >= end ? -1 : closingQuote(buf, i, end);
}

/** Strings up to this long are walked a byte at a time. */
const SHORT = 64;

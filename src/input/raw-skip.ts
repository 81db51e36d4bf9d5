/**
 * Deciding from a line's raw bytes, before decoding or parsing it, that a command does not need
 * it. This is what makes `json` and `text` fast: most lines of a real log are thinking deltas.
 *
 * A line is skipped only when it begins `{"type":"<one of the given types>"` (how cursor-agent
 * writes every event) AND it is structurally sound: it is one object that closes exactly at the
 * end of the line, every string is closed, no string holds a raw control character, nothing but
 * JSON punctuation, numbers and literals stands outside strings, and no second top-level "type"
 * key could override the first. A line failing any of that is parsed as usual, so a truncated,
 * cut or garbled line is still reported with its file:line. Full grammar checks (number syntax,
 * escapes, comma placement) are `cursorlog validate`'s job.
 */
export interface RawSkip {
  /**
   * `test` returns the skipped line's type (it stands in as `{type}`), or a small stand-in object
   * holding the few fields the command needs, or undefined when the line must be read in full.
   */
  test(buf: Buffer, start: number, end: number): string | JsonObject | undefined;
  /**
   * Optional, asked first: the line is wanted as it is, for its type alone (filter --type): return
   * its type and the line reaches the stage as its raw bytes (JsonRecord.raw), never decoded or
   * parsed. Same structural check as a skipped line.
   */
  keep?(buf: Buffer, start: number, end: number): string | undefined;
}

/**
 * `base`, plus: a line whose type `accept`s is kept whole as bytes. Only a line read straight from
 * its chunk and ending in a bare LF qualifies (its bytes then include the LF: no copy at all).
 */
export function keepWhole(base: RawSkip | undefined, accept: (type: string) => boolean): RawSkip {
  const seen = new Map<number, string[]>();
  return {
    test: (buf, start, end) => base?.test(buf, start, end),
    keep(buf, start, end) {
      if (buf[end] !== 10 || !hasPrefix(buf, start, end)) return undefined;
      const at = start + PREFIX.length;
      const q = typeEnd(buf, at, end);
      if (q < 0) return undefined;
      const type = typeName(seen, buf, at, q);
      return accept(type) && wellFormed(buf, start, end) ? type : undefined;
    },
  };
}

/** The index of the quote closing a plain (escape-free, ASCII) type name starting at `at`, or -1. */
function typeEnd(buf: Buffer, at: number, end: number): number {
  let q = at;
  while (q < end && q - at <= 64) {
    const c = buf[q]!;
    if (c === 0x22) return q === at ? -1 : q;
    if (c === 0x5c || c < 0x20 || c >= 0x80) return -1;
    q++;
  }
  return -1;
}

const PREFIX = Buffer.from('{"type":"');
const COMPLETED = Buffer.from('{"type":"tool_call","subtype":"completed","call_id":"');

/**
 * For commands that need of a tool call's completion only its `call_id` (to close the call):
 * a completion line, which carries the call's whole result (file contents, stdout: the big lines
 * of a log), stands in as `{type, subtype, call_id, tool_call: {}}`, its id read from the bytes.
 * Lines in any other shape go to `base`.
 */
export function skipCompletionBodies(base: RawSkip | undefined): RawSkip {
  return {
    test(buf, start, end) {
      if (end - start > COMPLETED.length + 2 && sameBytes(buf, start, end, COMPLETED)) {
        const open = start + COMPLETED.length - 1;
        const close = closingQuote(buf, open + 1, end);
        if (close > 0 && wellFormed(buf, start, end)) {
          let callId: unknown;
          try {
            callId = JSON.parse(buf.toString("utf8", open, close + 1));
          } catch {
            return undefined;
          }
          return { type: "tool_call", subtype: "completed", call_id: callId, tool_call: {} };
        }
        return undefined;
      }
      return base?.test(buf, start, end);
    },
  };
}

/** Bytes allowed outside strings: whitespace, , : digits - + . e E and the letters of true/false/null. */
const OUTSIDE = new Uint8Array(256);
for (const ch of " \t\r,:0123456789-+.eEtrufalsn") OUTSIDE[ch.charCodeAt(0)] = 1;

import type { JsonObject } from "./record.js";

/** Skip lines of these types. */
export function skipTypes(types: readonly string[]): RawSkip | undefined {
  if (types.length === 0) return undefined;
  const names = types.map((t) => Buffer.from(t + '"'));
  const test = (buf: Buffer, start: number, end: number): string | undefined => {
    if (!hasPrefix(buf, start, end)) return undefined;
    const at = start + PREFIX.length;
    for (let n = 0; n < names.length; n++) {
      if (sameBytes(buf, at, end, names[n]!)) return wellFormed(buf, start, end) ? types[n] : undefined;
    }
    return undefined;
  };
  return { test };
}

/** Skip lines of every type but these (the type is read from the line's first key). */
export function skipAllBut(types: readonly string[]): RawSkip {
  const names = types.map((t) => Buffer.from(t + '"'));
  const seen = new Map<number, string[]>();
  const test = (buf: Buffer, start: number, end: number): string | undefined => {
    if (!hasPrefix(buf, start, end)) return undefined;
    const at = start + PREFIX.length;
    for (const name of names) if (sameBytes(buf, at, end, name)) return undefined;
    const q = typeEnd(buf, at, end);
    if (q < 0 || !wellFormed(buf, start, end)) return undefined;
    return typeName(seen, buf, at, q);
  };
  return { test };
}

/** The type's name as a string, interned so skipped lines allocate nothing. */
function typeName(seen: Map<number, string[]>, buf: Buffer, at: number, q: number): string {
  const key = (q - at) * 256 + buf[at]!;
  let list = seen.get(key);
  if (list === undefined) seen.set(key, (list = []));
  for (const s of list) {
    let same = true;
    for (let k = 0; k < s.length; k++) {
      if (s.charCodeAt(k) !== buf[at + k]) {
        same = false;
        break;
      }
    }
    if (same) return s;
  }
  const s = buf.toString("latin1", at, q);
  if (list.length < 16) list.push(s);
  return s;
}

function hasPrefix(buf: Buffer, start: number, end: number): boolean {
  if (end - start < PREFIX.length + 2) return false;
  for (let k = 0; k < PREFIX.length; k++) if (buf[start + k] !== PREFIX[k]) return false;
  return true;
}

function sameBytes(buf: Buffer, at: number, end: number, name: Uint8Array): boolean {
  if (end - at < name.length) return false;
  for (let k = 0; k < name.length; k++) if (buf[at + k] !== name[k]) return false;
  return true;
}

const SHORT = 48;

/** The index of the quote that closes a string, searching from `i` (inside it); -1 if none before `end`. */
function closingQuote(buf: Buffer, i: number, end: number): number {
  for (;;) {
    const q = buf.indexOf(0x22, i);
    if (q < 0 || q >= end) return -1;
    let b = q - 1;
    while (buf[b] === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    i = q + 1;
  }
}

/**
 * The structural check described above. `buf[start]` is known to be `{`. Raw control characters
 * are looked for in the first 48 bytes of each string; a long string is jumped over to its closing
 * quote (the part of the check that costs), so a control byte deep inside one goes unnoticed.
 */
export function wellFormed(buf: Buffer, start: number, end: number): boolean {
  let depth = 0;
  let i = start;
  while (i < end) {
    const c = buf[i]!;
    if (c === 0x22) {
      const s = ++i;
      // Short strings (keys, ids) byte by byte; past SHORT bytes, jump to the next quote natively.
      const stop = Math.min(end, s + SHORT);
      for (;;) {
        if (i >= stop) {
          i = closingQuote(buf, i, end);
          if (i < 0) return false;
          break;
        }
        const d = buf[i]!;
        if (d === 0x22) break;
        if (d === 0x5c) {
          i += 2;
          continue;
        }
        if (d < 0x20) return false;
        i++;
      }
      // a top-level key "type" other than the first one would win in JSON.parse
      if (depth === 1 && i - s === 4 && s !== start + 2 && buf[s] === 0x74 && buf[s + 1] === 0x79 && buf[s + 2] === 0x70 && buf[s + 3] === 0x65) {
        return false;
      }
      i++;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return i === end - 1;
    } else if (OUTSIDE[c] === 0) return false;
    i++;
  }
  return false;
}

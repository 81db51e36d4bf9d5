import type { JsonObject } from "./record.js";
import { shortenStrings } from "./shorten-strings.js";
import { soundLine } from "./sound-line.js";
import { jsonObjectLine } from "./json-line.js";
import { closingQuote, wellFormed } from "./well-formed.js";

/**
 * Deciding from a line's raw bytes, before decoding or parsing it, that a command does not need
 * it. This is what makes `json` and `text` fast: most lines of a real log are thinking deltas.
 *
 * A line is skipped only when it begins `{"type":"<one of the given types>"` (how cursor-agent
 * writes every event) AND it is sound (sound-line.ts): a flat line (no `{` after the first) must
 * end in a whole member `,"key":value}`; any other line must pass the full structural walk of
 * well-formed.ts (one object closing exactly at the end of the line, strings closed, nothing but
 * JSON punctuation, numbers and literals outside strings, no second top-level "type"). A line
 * failing that is parsed as usual, so a truncated, cut or run-together line is still reported with
 * its file:line. A line kept as bytes (filter --type), which is written out, gets the JSON grammar
 * check of json-line.ts instead. What neither looks at (control characters and escapes past a long
 * string's first bytes) is `cursorlog validate`'s job.
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
   * parsed. Checked against the JSON grammar first (json-line.ts).
   */
  keep?(buf: Buffer, start: number, end: number): string | undefined;
  /**
   * Optional, asked last, for a line that is read: the text to parse instead of the line, with the
   * long strings the command does not read shortened (shorten-strings.ts), or undefined for the
   * line as it is.
   */
  shorten?(buf: Buffer, start: number, end: number): string | undefined;
}

const TOOL_CALL = Buffer.from('{"type":"tool_call",');
/** Below this, a line is parsed as it is: shortening would save less than its walk costs. */
const SHORTEN_FROM_BYTES = 2048;

/** `base`, plus: a long tool_call line is parsed with its long strings shortened, but for the members `keep` names. */
export function shortenToolCalls(base: RawSkip | undefined, keep: ReadonlySet<string>): RawSkip {
  const cut = { keep, longer: 256, to: 64 };
  const skip: RawSkip = {
    test: (buf, start, end) => base?.test(buf, start, end),
    shorten: (buf, start, end) =>
      end - start >= SHORTEN_FROM_BYTES && sameBytes(buf, start, end, TOOL_CALL) ? shortenStrings(buf, start, end, cut) : undefined,
  };
  if (base?.keep !== undefined) skip.keep = base.keep;
  return skip;
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
      // Written out as it is: only a line JSON.parse would read as an object (json-line.ts).
      return accept(type) && jsonObjectLine(buf, start, end) ? type : undefined;
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
        // The full walk (a completion is never flat): a second top-level "subtype" or "call_id"
        // would win in JSON.parse over the one read here (jq's rule, every command's): parsed whole.
        if (close > 0 && wellFormed(buf, start, end, ONCE)) {
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

const ONCE = [Buffer.from("subtype"), Buffer.from("call_id")];

/** Skip lines of these types. */
export function skipTypes(types: readonly string[]): RawSkip | undefined {
  if (types.length === 0) return undefined;
  const names = types.map((t) => Buffer.from(t + '"'));
  const test = (buf: Buffer, start: number, end: number): string | undefined => {
    if (!hasPrefix(buf, start, end)) return undefined;
    const at = start + PREFIX.length;
    for (let n = 0; n < names.length; n++) {
      if (sameBytes(buf, at, end, names[n]!)) return soundLine(buf, start, end) ? types[n] : undefined;
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
    if (q < 0 || !soundLine(buf, start, end)) return undefined;
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

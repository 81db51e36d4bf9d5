import type { JsonObject } from "./record.js";
import { LineFlag } from "./scan/index.js";
import { closingQuote, shortenStrings } from "./shorten-strings.js";

/**
 * Deciding from a line's bytes, before decoding or parsing it, that a command does not need it.
 * This is what makes `json` and `text` fast: most lines of a real log are thinking deltas.
 *
 * The line scanner (scan/) has already checked the line against the whole JSON grammar (strings
 * included: raw control characters, escapes, UTF-8) and found where its top-level "type" and
 * "subtype" string values are, the last of each when a key repeats (JSON.parse's rule, and jq's).
 * A RawSkip is only asked about a line that is one JSON object, valid UTF-8, with a string "type"
 * and no top-level key written with an escape (which might spell "type"): a SoundLine. Every
 * other line is decoded and parsed as usual, so a damaged line is reported with its file:line by
 * every command, wherever its damage is.
 */
export interface SoundLine {
  buf: Buffer;
  /** The line is `buf[start, end)`: no BOM, no CR LF. */
  start: number;
  end: number;
  /** The last top-level "type" string value, between its quotes: `buf[typeStart, typeEnd)`. */
  typeStart: number;
  typeEnd: number;
  /** That value holds an escape: decode it rather than compare its bytes. */
  typeEscaped: boolean;
  /** The last top-level "subtype" string value, -1 when there is none (or it is not a string). */
  subStart: number;
  subEnd: number;
  subEscaped: boolean;
  /** The scanner's flags (scan/index.ts LineFlag). */
  flags: number;
}

export interface RawSkip {
  /**
   * `test` returns the skipped line's type (it stands in as `{type}`), or a small stand-in object
   * holding the few fields the command needs, or undefined when the line must be read in full.
   * A string answer must follow from the line's type alone: the splitter grows a run of skipped
   * lines of one type by comparing the next line's type bytes, without asking again (and the
   * scanner merges such a run into one record).
   */
  test(line: SoundLine): string | JsonObject | undefined;
  /**
   * Optional, asked first: the line is wanted as it is, for its type alone (filter --type): return
   * its type and the line reaches the stage as its raw bytes (JsonRecord.raw), never decoded or
   * parsed. It must never take a line of a type `test` answers with its name (those lines are
   * counted in runs without asking either again).
   */
  keep?(line: SoundLine): string | undefined;
  /**
   * Optional, asked last, for a sound line that is read: the text to parse instead of the line,
   * with the long strings the command does not read shortened (shorten-strings.ts), or undefined
   * for the line as it is.
   */
  shorten?(line: SoundLine): string | undefined;
  /**
   * Optional: a skip that decides per file (by the file's dialect, dialects/index.ts
   * skipByDialect): the splitter of each file asks it for that file's own, and asks nothing else of it.
   */
  forFile?(): RawSkip;
}

/** Below this, a line is parsed as it is: shortening would save less than its walk costs. */
const SHORTEN_FROM_BYTES = 2048;

/** `base`, plus: a long tool_call line is parsed with its long strings shortened, but for the members `keep` names. */
export function shortenToolCalls(base: RawSkip | undefined, keep: ReadonlySet<string>): RawSkip {
  const cut = { keep, longer: 256, to: 64 };
  const toolCall = name("tool_call");
  const skip: RawSkip = {
    test: (line) => base?.test(line),
    shorten: (line) => (line.end - line.start >= SHORTEN_FROM_BYTES && typeIs(line, toolCall) ? shortenStrings(line.buf, line.start, line.end, cut) : undefined),
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
    test: (line) => base?.test(line),
    keep(line) {
      if (line.buf[line.end] !== 10) return undefined;
      const type = typeOf(line, seen);
      return accept(type) ? type : undefined;
    },
  };
}

const COMPLETED = Buffer.from('{"type":"tool_call","subtype":"completed","call_id":"');
const SUBTYPE_AT = '{"type":"tool_call","subtype":"'.length;

/**
 * For commands that need of a tool call's completion only its `call_id` (to close the call):
 * a completion line, which carries the call's whole result (file contents, stdout: the big lines
 * of a log), stands in as `{type, subtype, call_id, tool_call: {}}`, its id read from the bytes.
 * Only a line written as cursor-agent writes them qualifies: it begins with those three members,
 * and no later top-level key overrides them (the scanner's last type and subtype are these, and
 * it saw "call_id" once: a second one would win in JSON.parse). Lines in any other shape go to `base`.
 */
export function skipCompletionBodies(base: RawSkip | undefined): RawSkip {
  return {
    test(line) {
      const { buf, start, end } = line;
      // The type and subtype the scanner found (the last of each) are the first ones, then the id.
      if (line.typeStart === start + 9 && line.subStart === start + SUBTYPE_AT && end - start > COMPLETED.length + 2 && sameBytes(buf, start, start + COMPLETED.length, COMPLETED)) {
        const open = start + COMPLETED.length - 1;
        const close = closingQuote(buf, open + 1, end);
        if (close < 0 || (line.flags & LineFlag.CALL_ID_REPEATED) !== 0) return undefined;
        let callId: unknown;
        try {
          callId = JSON.parse(buf.toString("utf8", open, close + 1));
        } catch {
          return undefined;
        }
        return { type: "tool_call", subtype: "completed", call_id: callId, tool_call: {} };
      }
      return base?.test(line);
    },
  };
}

/** Skip lines of these types. */
export function skipTypes(types: readonly string[]): RawSkip | undefined {
  if (types.length === 0) return undefined;
  const names = types.map(name);
  return {
    test(line) {
      for (let n = 0; n < names.length; n++) if (typeIs(line, names[n]!)) return types[n];
      return undefined;
    },
  };
}

/** Skip lines of every type but these. */
export function skipAllBut(types: readonly string[]): RawSkip {
  const names = types.map(name);
  const seen = new Map<number, string[]>();
  return {
    test(line) {
      for (const n of names) if (typeIs(line, n)) return undefined;
      return typeOf(line, seen);
    },
  };
}

/** A type name to compare lines with: its string and its UTF-8 bytes. */
export interface Name {
  text: string;
  bytes: Buffer;
}

export function name(text: string): Name {
  return { text, bytes: Buffer.from(text) };
}

/** The line's type is `n`. */
export function typeIs(line: SoundLine, n: Name): boolean {
  if (line.typeEscaped) return decodeString(line.buf, line.typeStart, line.typeEnd) === n.text;
  return sameBytes(line.buf, line.typeStart, line.typeEnd, n.bytes);
}

/** The line's subtype is `n` (false when it has none). */
export function subtypeIs(line: SoundLine, n: Name): boolean {
  if (line.subStart < 0) return false;
  if (line.subEscaped) return decodeString(line.buf, line.subStart, line.subEnd) === n.text;
  return sameBytes(line.buf, line.subStart, line.subEnd, n.bytes);
}

/** The line's type as a string, interned (by `seen`) when it is plain ASCII, so skipped lines allocate nothing. */
export function typeOf(line: SoundLine, seen: Map<number, string[]>): string {
  const { buf, typeStart: at, typeEnd: q } = line;
  if (line.typeEscaped) return decodeString(buf, at, q);
  if (q === at) return "";
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
  const s = buf.toString("utf8", at, q);
  // Only ASCII names are interned: their characters are their bytes.
  if (list.length < 16 && s.length === q - at) list.push(s);
  return s;
}

/** The JSON string whose content is `buf[s, q)` (a valid one: the scanner checked it), decoded. */
function decodeString(buf: Buffer, s: number, q: number): string {
  return JSON.parse(buf.toString("utf8", s - 1, q + 1)) as string;
}

function sameBytes(buf: Buffer, at: number, end: number, bytes: Buffer): boolean {
  if (end - at !== bytes.length) return false;
  for (let k = 0; k < bytes.length; k++) if (buf[at + k] !== bytes[k]) return false;
  return true;
}

import { isType, OUTSIDE, stringEnd } from "./well-formed.js";

/** What `shortenStrings` may shorten, and what it must leave whole. */
export interface Shortening {
  /** Member names inside a tool call's arguments and result whose string values the command reads in full. */
  keep: ReadonlySet<string>;
  /** A string longer than this many bytes is shortened… */
  longer: number;
  /** …to about this many bytes of its beginning (never inside a character or an escape). */
  to: number;
}

/**
 * A tool call line, as text to parse, with its long strings shortened: a call carries the file
 * read, the command's output, the file written or edited before and after, and `text` and
 * `timeline` read none of that. Decoding and parsing those strings was more than half of their
 * time. Only member values inside the tool's own objects (`tool_call.<kind>.args`, `.result`,
 * and deeper: four objects down) are shortened, never the members `keep` names; each keeps its
 * beginning, so a test like "starts with --- /dev/null" still holds.
 *
 * The walk checks the line's structure as well-formed.ts does; undefined when the line fails it
 * (it is then parsed whole, and reported if broken) or when nothing is long enough to shorten.
 * What a shortened string held past its beginning is not checked.
 */
export function shortenStrings(buf: Buffer, start: number, end: number, cut: Shortening): string | undefined {
  let text = "";
  let from = start; // bytes from here on are still to be copied
  let depth = 0;
  let prev = 0; // the last byte outside strings that was not white space
  let key = -1; // the last string's opening quote: the key of a value that follows ':'
  let keyEnd = -1;
  let i = start;
  while (i < end) {
    const c = buf[i]!;
    if (c === 0x22) {
      const s = i + 1;
      const q = stringEnd(buf, s, end);
      if (q < 0) return undefined;
      if (prev === 0x3a) {
        if (depth >= 4 && q - s > cut.longer && !named(buf, key + 1, keyEnd, cut.keep)) {
          const at = safeCut(buf, s, s + cut.to);
          text += buf.toString("utf8", from, at);
          from = q;
        }
      } else {
        // A key (or an array element, which is never cut).
        if (depth === 1 && s !== start + 2 && isType(buf, s, q)) return undefined;
        key = i;
        keyEnd = q;
      }
      prev = 0x22;
      i = q + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) {
        if (i !== end - 1 || from === start) return undefined;
        return text + buf.toString("utf8", from, end);
      }
    } else if (OUTSIDE[c] === 0) return undefined;
    if (c > 0x20) prev = c;
    i++;
  }
  return undefined;
}

/** The bytes `buf[s, e)` (a key without its quotes, escape-free) are one of `names`. */
function named(buf: Buffer, s: number, e: number, names: ReadonlySet<string>): boolean {
  if (e - s > 64) return false;
  for (let k = s; k < e; k++) if (buf[k] === 0x5c || buf[k]! >= 0x80) return false;
  return names.has(buf.toString("latin1", s, e));
}

/**
 * A position at or before `at` in a string starting at `s` where it can end: not inside a UTF-8
 * character, nor inside an escape sequence (`\n`, `\\`, `\u00e9`).
 */
function safeCut(buf: Buffer, s: number, at: number): number {
  while (at > s && (buf[at]! & 0xc0) === 0x80) at--;
  for (let b = at - 1; b >= s && b >= at - 5; b--) {
    if (buf[b] !== 0x5c) continue;
    let k = b - 1;
    while (k >= s && buf[k] === 0x5c) k--;
    // An even number of backslashes before this one: it starts an escape.
    if ((b - 1 - k) % 2 === 0) {
      if (b + (buf[b + 1] === 0x75 ? 6 : 2) > at) return b;
      break;
    }
  }
  return at;
}

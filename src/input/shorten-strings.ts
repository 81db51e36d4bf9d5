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
 * Only a sound line is given (raw-skip.ts: the line scanner checked all of it against the JSON
 * grammar, the strings cut here included); undefined when nothing is long enough to shorten.
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
    }
    if (c > 0x20) prev = c;
    i++;
  }
  return undefined;
}

/** The closing quote of the string whose first byte is `s`: keys and ids are short, walked a byte at a time; past that, found natively. */
function stringEnd(buf: Buffer, s: number, end: number): number {
  const stop = Math.min(end, s + 48);
  let i = s;
  while (i < stop) {
    const d = buf[i]!;
    if (d === 0x22) return i;
    i += d === 0x5c ? 2 : 1;
  }
  return closingQuote(buf, i, end);
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

/** The index of the quote that closes a string, searching from `i` (inside it); -1 if none before `end`. */
export function closingQuote(buf: Buffer, i: number, end: number): number {
  for (;;) {
    const q = buf.indexOf(0x22, i);
    if (q < 0 || q >= end) return -1;
    let b = q - 1;
    while (buf[b] === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    i = q + 1;
  }
}

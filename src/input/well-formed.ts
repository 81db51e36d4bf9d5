/**
 * The structural check of a line a command skips or keeps unparsed (raw-skip.ts): one object that
 * closes exactly at the end of the line, every string closed, no raw control character at the
 * start of a string, nothing but JSON punctuation, numbers and literals outside strings, and no
 * second top-level "type" key that would override the first in JSON.parse.
 */
/** Bytes allowed outside strings: whitespace, , : digits - + . e E and the letters of true/false/null. */
export const OUTSIDE = new Uint8Array(256);
for (const ch of " \t\r,:0123456789-+.eEtrufalsn") OUTSIDE[ch.charCodeAt(0)] = 1;

const SHORT = 48;

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

/**
 * The closing quote of the string whose first byte is `s`, or -1 if it does not close before `end`
 * or starts with a raw control character. Short strings (keys, ids) are walked byte by byte; past
 * SHORT bytes, the rest is jumped over natively to the closing quote.
 */
export function stringEnd(buf: Buffer, s: number, end: number): number {
  const stop = Math.min(end, s + SHORT);
  let i = s;
  while (i < stop) {
    const d = buf[i]!;
    if (d === 0x22) return i;
    if (d === 0x5c) i += 2;
    else if (d < 0x20) return -1;
    else i++;
  }
  return closingQuote(buf, i, end);
}

/** The string `buf[s, q)` (q its closing quote) is `type`. */
export function isType(buf: Buffer, s: number, q: number): boolean {
  return q - s === 4 && buf[s] === 0x74 && buf[s + 1] === 0x79 && buf[s + 2] === 0x70 && buf[s + 3] === 0x65;
}

/** The string `buf[s, q)` (q its closing quote) is `name`. */
function isName(buf: Buffer, s: number, q: number, name: Buffer): boolean {
  if (q - s !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (buf[s + k] !== name[k]) return false;
  return true;
}

/**
 * The structural check described above. With `once`, a top-level string equal to one of these
 * names (escape-free) must occur at most once: a completion read for its `subtype` and `call_id`. `buf[start]` is known to be `{`. Raw control characters
 * are looked for in the first 48 bytes of each string; a long string is jumped over to its closing
 * quote (the part of the check that costs), so a control byte deep inside one goes unnoticed.
 */
export function wellFormed(buf: Buffer, start: number, end: number, once?: readonly Buffer[]): boolean {
  let depth = 0;
  let i = start;
  let seen = 0; // bit k: a top-level string equal to once[k] was seen
  while (i < end) {
    const c = buf[i]!;
    if (c === 0x22) {
      const s = ++i;
      i = stringEnd(buf, s, end);
      if (i < 0) return false;
      // a top-level key "type" other than the first one would win in JSON.parse
      if (depth === 1 && s !== start + 2 && isType(buf, s, i)) return false;
      // …and so would a second one of the keys `once` names (a value equal to one counts too: parsed)
      if (once !== undefined && depth === 1) {
        for (let k = 0; k < once.length; k++) {
          if (isName(buf, s, i, once[k]!)) {
            if ((seen & (1 << k)) !== 0) return false;
            seen |= 1 << k;
          }
        }
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

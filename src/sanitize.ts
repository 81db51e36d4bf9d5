/**
 * Characters that show as nothing yet can disguise or reorder text on a terminal ("Trojan
 * Source"): the bidi overrides and isolates (U+202A–E, U+2066–9), the bidi marks (U+200E, U+200F,
 * U+061C), zero-width space, word joiner and byte order mark (U+200B, U+2060, U+FEFF), and the line
 * and paragraph separators (U+2028, U+2029). ZWNJ and ZWJ (U+200C, U+200D) are left as they are:
 * emoji sequences and several scripts need them. A regular-expression class body.
 */
export const INVISIBLE = "\\u061c\\u200b\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff";

/** C0 and C1 controls, DEL, and the invisible characters above. */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE}]`);
const UNSAFE_G = new RegExp(UNSAFE.source, "g");
const UNSAFE_KEEP_NL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`);
const UNSAFE_KEEP_NL_G = new RegExp(UNSAFE_KEEP_NL.source, "g");

function escapeChar(c: string): string {
  switch (c) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
  }
}

/**
 * Text from a log made safe for a terminal: control characters and escape sequences (OSC, CSI,
 * BEL, …) are shown escaped (`\u001b`), never emitted raw. One line: `\n` shows as `\n`.
 */
export function escapeControls(s: string): string {
  return UNSAFE.test(s) ? s.replace(UNSAFE_G, escapeChar) : s;
}

/** As escapeControls, but multi-line text keeps its newlines and tabs. */
export function escapeControlsKeepLines(s: string): string {
  return UNSAFE_KEEP_NL.test(s) ? s.replace(UNSAFE_KEEP_NL_G, escapeChar) : s;
}

/** In JSON text, what a terminal would act on or reorder: controls but TAB and LF, DEL, C1, the invisible characters. */
const JSON_UNSAFE = UNSAFE_KEEP_NL;
const JSON_UNSAFE_G = UNSAFE_KEEP_NL_G;

/**
 * JSON text for a terminal: each such character written as its \uXXXX escape. Inside a string
 * (the only place valid JSON can hold them) that is the same value, so the text stays valid JSON
 * that means the same, and a log's U+009B or U+202E cannot drive or disguise the terminal.
 */
export function escapeJsonForTerminal(text: string): string {
  return JSON_UNSAFE.test(text) ? text.replace(JSON_UNSAFE_G, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : text;
}

/** C0 and C1 controls, DEL, and the bidi overrides that can disguise text ("Trojan Source"). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_G = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_KEEP_NL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_KEEP_NL_G = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

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

/** In JSON text, what a terminal would act on or reorder: controls but TAB and LF, DEL, C1, bidi overrides. */
const JSON_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const JSON_UNSAFE_G = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text for a terminal: each such character written as its \uXXXX escape. Inside a string
 * (the only place valid JSON can hold them) that is the same value, so the text stays valid JSON
 * that means the same, and a log's U+009B or U+202E cannot drive or disguise the terminal.
 */
export function escapeJsonForTerminal(text: string): string {
  return JSON_UNSAFE.test(text) ? text.replace(JSON_UNSAFE_G, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : text;
}

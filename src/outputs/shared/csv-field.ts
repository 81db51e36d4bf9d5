const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE_G = /"/g;

/**
 * One RFC 4180 field: quoted only when it holds `,` `"` CR or LF, quotes doubled inside. Newlines
 * stay raw inside the quotes, so a multi-line command or a `call_…\nfc_…` id is still one record.
 */
export function csvField(s: string): string {
  return NEEDS_QUOTES.test(s) ? '"' + s.replace(QUOTE_G, '""') + '"' : s;
}

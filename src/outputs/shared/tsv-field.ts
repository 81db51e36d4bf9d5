const NEEDS_ESCAPE = /[\t\n\r\\]/;
const ESCAPE_G = /[\t\n\r\\]/g;

function escapeChar(c: string): string {
  return c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\\\";
}

/**
 * One TSV field, with TAB, LF, CR and backslash written as `\t` `\n` `\r` `\\`: the convention of
 * `mlr --otsv` and PostgreSQL's text format, so every record is one physical line.
 */
export function tsvField(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(ESCAPE_G, escapeChar) : s;
}

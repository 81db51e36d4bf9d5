import { escapeControls } from "../../sanitize.js";

/**
 * Characters that mean something inline in GitHub-flavoured Markdown: code spans, emphasis,
 * links/images, raw HTML and entities, strikethrough, table cells, math ($), mentions (@).
 */
const INLINE_G = /[\\`*_[\]<>&|~!$@]/g;

/**
 * Text from the log as one line of literal Markdown, safe inside a table cell, a list item or a
 * heading: control characters escaped first (a newline shows as `\n`, it cannot end the row),
 * then every inline-special ASCII character backslash-escaped, so `|` cannot split a cell, a
 * backtick cannot open a code span and `<b>` is shown, not rendered.
 */
export function markdownText(s: string): string {
  return escapeControls(s).replace(INLINE_G, "\\$&");
}

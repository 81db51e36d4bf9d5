import MarkdownIt from "markdown-it";
import { escapeControlsKeepLines } from "../../../sanitize.js";
import { entities } from "./escape.js";

/** The only link destinations kept: anything else (`javascript:`, `data:`, `vbscript:`, `file:`, a relative path) stays text. */
const SAFE_LINK = /^(?:https?:|mailto:)/i;

/**
 * The agent's Markdown as HTML (markdown-it, CommonMark with GFM tables and strikethrough):
 * - raw HTML off (`html: false`): a tag in the text is shown as text;
 * - links only to http, https and mailto (validateLink: markdown-it checks it on the normalized
 *   destination of links, autolinks, reference definitions and images); linkify off (a bare URL is text);
 * - an image is never fetched: it is a link to its source, its alt text as the link's text;
 * - headings go down two levels (`#` is an <h3>): the page's own headings stay the top ones;
 * - links get rel="noopener noreferrer nofollow".
 * Control and invisible characters are made visible before parsing (sanitize.ts), as in every output.
 */
const md: MarkdownIt = (() => {
  const m = new MarkdownIt("default", { html: false, linkify: false, typographer: false, breaks: false });
  m.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());
  m.core.ruler.push("cursorlog_headings_down", (state) => {
    for (const t of state.tokens) {
      if (t.type === "heading_open" || t.type === "heading_close") t.tag = `h${Math.min(6, Number(t.tag.slice(1)) + 2)}`;
    }
    return true;
  });
  m.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx]!;
    const src = t.attrGet("src") ?? "";
    const alt = t.children ? m.renderer.renderInlineAsText(t.children, m.options, {}) : t.content;
    return `<a class="img" href="${entities(src)}" rel="noopener noreferrer nofollow">image: ${entities(alt === "" ? src : alt)}</a>`;
  };
  const linkOpen = m.renderer.rules.link_open;
  m.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet("rel", "noopener noreferrer nofollow");
    return linkOpen ? linkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  return m;
})();

/**
 * `text` (the agent's Markdown) as HTML blocks. The characters an entity in it names (`&#x202E;`)
 * are made visible too, after rendering: escaping writes only backslashes and letters, never markup.
 */
export function agentHtml(text: string): string {
  return escapeControlsKeepLines(md.render(escapeControlsKeepLines(text.replace(/\r\n/g, "\n"))));
}

import { escapeControlsKeepLines } from "../../sanitize.js";
import { markdownText } from "../shared/markdown-escape.js";

/**
 * The agent's own Markdown (its messages, its plan, its thinking) for `show --format markdown`,
 * rendered as Markdown but unable to reach out of its place in the transcript:
 *
 * - no raw HTML: every `<` outside a fenced code block is backslash-escaped (so no tag, comment,
 *   HTML block or `<…>` autolink), and so is every `&` that would start an entity (`&#x202E;`
 *   could hide a bidi override);
 * - a fenced code block left open is closed where the text ends, so it cannot swallow what
 *   follows (the next call, the `</details>` around thinking);
 * - headings go down three levels (`#` becomes `####`, a `===` or `---` underline an ATX heading
 *   of level 4 or 5): the transcript's `###` session headings stay the top ones;
 * - a link or reference definition whose destination has a scheme other than http, https or
 *   mailto (`javascript:`, `data:`, `vbscript:`) is left as text; an image (`![x](url)`), which a
 *   viewer would fetch unasked (a URL can carry data out), is shown as a link; `@name` is not a
 *   mention; a footnote definition is text;
 * - control and invisible characters are escaped as everywhere (sanitize.ts).
 *
 * Everything else (emphasis, lists, quotes, tables, code spans and blocks, links) renders as the
 * agent wrote it. This needs to know which lines a CommonMark reader takes for code, so it
 * follows GitHub's parser (cmark-gfm) block by block: containers (block quotes, list items),
 * fenced and indented code, paragraphs with their lazy continuation lines, setext underlines,
 * GFM tables. Inside a fenced block the text is left as written; an indented code block, which
 * is rare in agent text, gets `<` and `&` escaped like text in case a reader takes it for one.
 */
export function agentMarkdown(text: string): string {
  return scanAgentMarkdown(text)
    .map((l) => l.text)
    .join("\n");
}

/** A line agentMarkdown writes, and whether it reads it as part of a code block (`info`: a fence that opens one). */
export interface ShownLine {
  text: string;
  code?: "info" | "fence" | "indented";
}

/** agentMarkdown's lines, each with the kind of block it takes it for (tests compare that with cmark-gfm's). */
export function scanAgentMarkdown(text: string): ShownLine[] {
  const src = escapeControlsKeepLines(text.replace(/\r\n/g, "\n")).split("\n").map(expandTabs);
  while (src.length > 0 && src[0]!.trim() === "") src.shift();
  while (src.length > 0 && src[src.length - 1]!.trim() === "") src.pop();
  if (src.length === 0) return [];
  return new BlockScanner().run(src);
}

type Container = { kind: "quote" } | { kind: "item"; width: number; empty: boolean };

interface ParaLine {
  at: number;
  prefix: string;
  content: string;
}

type Leaf =
  | { kind: "para"; lines: ParaLine[] }
  | { kind: "table" }
  | { kind: "fence"; ch: string; len: number }
  | { kind: "icode" };

const ATX = /^(#{1,6})(?=[ \t]|$)/;
const FENCE = /^(?:(`{3,})(?![^`]*`)|(~{3,}))/;
const CLOSER = /^(`{3,}|~{3,})[ \t]*$/;
const SETEXT = /^(?:=+|-+)[ \t]*$/;
const THEMATIC = /^(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,})$/;
const DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const FOOTNOTE_DEF = /^\[\^[^\]\s]+\]:/;

class BlockScanner {
  private open: Container[] = [];
  private leaf: Leaf | undefined;
  private out: (ShownLine | undefined)[] = [];

  run(lines: string[]): ShownLine[] {
    for (let i = 0; i < lines.length; i++) this.line(lines[i]!, lines[i + 1]);
    // A fenced block still open ends here, where it stands (its containers continued), so that
    // nothing after the text is read as code.
    if (this.leaf?.kind === "fence") this.push(this.continuation(this.open.length) + this.leaf.ch.repeat(this.leaf.len), "fence");
    return this.out.filter((l): l is ShownLine => l !== undefined);
  }

  private push(text: string, code?: ShownLine["code"]): void {
    this.out.push(code === undefined ? { text } : { text, code });
  }

  /** What continues the first `n` open containers on a line: `> ` for a quote, its width in spaces for a list item. */
  private continuation(n: number): string {
    let s = "";
    for (let k = 0; k < n; k++) {
      const c = this.open[k]!;
      s += c.kind === "quote" ? "> " : " ".repeat(c.width);
    }
    return s;
  }

  private line(ln: string, next: string | undefined): void {
    let off = 0;
    let matched = 0;
    // 1. The open containers this line continues.
    for (; matched < this.open.length; matched++) {
      const c = this.open[matched]!;
      const nn = nonspace(ln, off);
      const indent = nn - off;
      if (c.kind === "quote") {
        if (indent > 3 || ln[nn] !== ">") break;
        off = nn + 1;
        if (ln[off] === " ") off++;
      } else if (indent >= c.width) {
        off += c.width;
      } else if (nn === ln.length && !c.empty) {
        off = nn;
      } else break;
    }
    const allContainers = matched === this.open.length;
    let nn = nonspace(ln, off);
    const blank = nn === ln.length;
    // 2. The open leaf: a fenced block takes every line its containers continue.
    let leafMatched = false;
    const leaf = this.leaf;
    if (allContainers && leaf !== undefined) {
      if (leaf.kind === "fence") {
        const m = nn - off <= 3 ? CLOSER.exec(ln.slice(nn)) : null;
        if (m !== null && m[1]![0] === leaf.ch && m[1]!.length >= leaf.len) this.leaf = undefined;
        this.push(ln, "fence");
        return;
      }
      if (leaf.kind === "icode") {
        if (nn - off >= 4 || blank) {
          this.push(ln.slice(0, off) + minimal(ln.slice(off), next), "indented");
          return;
        }
      } else if (leaf.kind === "para") leafMatched = !blank;
      else leafMatched = !blank && rowCells(inline(ln.slice(nn), next)) > 0;
    }
    let containerIsPara = allContainers && leafMatched && leaf?.kind === "para";
    const closeUnmatched = (): void => {
      this.open.length = matched;
      if (!leafMatched) this.leaf = undefined;
    };
    // 3. New containers and leaf blocks starting on the line.
    let kind: "heading" | "fence" | "setext" | "hr" | "icode" | "delimiter" | undefined;
    for (;;) {
      nn = nonspace(ln, off);
      const indent = nn - off;
      const rest = ln.slice(nn);
      if (indent < 4 && rest[0] === ">") {
        closeUnmatched();
        this.open.push({ kind: "quote" });
        matched = this.open.length;
        this.leaf = undefined;
        leafMatched = containerIsPara = false;
        off = nn + 1;
        if (ln[off] === " ") off++;
        continue;
      }
      if (indent < 4) {
        if (ATX.test(rest)) kind = "heading";
        else if (FENCE.test(rest)) kind = "fence";
        else if (containerIsPara && SETEXT.test(rest)) kind = "setext";
        else if (THEMATIC.test(rest)) kind = "hr";
        if (kind !== undefined) break;
        const item = listMarker(ln, nn, containerIsPara);
        if (item !== undefined) {
          closeUnmatched();
          this.open.push({ kind: "item", width: indent + item.padding, empty: item.blank });
          matched = this.open.length;
          this.leaf = undefined;
          leafMatched = containerIsPara = false;
          off = item.content;
          continue;
        }
      }
      if (indent >= 4 && this.leaf?.kind !== "para" && rest !== "") kind = "icode";
      else if (indent < 4 && containerIsPara && DELIMITER_ROW.test(rest)) {
        const para = (this.leaf as { lines: ParaLine[] }).lines;
        const header = para[para.length - 1]!.content;
        if (rowCells(header.slice(nonspace(header, 0))) === rowCells(rest)) kind = "delimiter";
      }
      break;
    }
    // Every open list item but one just opened on a blank rest now has content.
    const markFilled = (): void => {
      for (let k = 0; k < this.open.length; k++) {
        const c = this.open[k]!;
        if (c.kind === "item" && (k < this.open.length - 1 || nonspace(ln, off) < ln.length)) c.empty = false;
      }
    };
    const prefix = ln.slice(0, off);
    const content = ln.slice(off);
    switch (kind) {
      case "heading": {
        closeUnmatched();
        this.leaf = undefined;
        const body = ln.slice(nn);
        const hashes = ATX.exec(body)![1]!;
        this.push(ln.slice(0, nn) + "#".repeat(Math.min(6, hashes.length + 3)) + inline(body.slice(hashes.length), next));
        break;
      }
      case "fence": {
        closeUnmatched();
        const m = FENCE.exec(ln.slice(nn))!;
        const run = m[1] ?? m[2]!;
        this.leaf = { kind: "fence", ch: run[0]!, len: run.length };
        // The info string is read for a language name only; `<` and `&` in it escaped all the same.
        this.push(ln.slice(0, nn) + run + minimal(ln.slice(nn + run.length), undefined), "info");
        break;
      }
      case "setext": {
        // The paragraph above becomes one ATX heading, three levels down.
        const para = (this.leaf as { lines: ParaLine[] }).lines;
        const level = ln[nn] === "=" ? 4 : 5;
        const words = para.map((p) => p.content.trim()).join(" ");
        this.out[para[0]!.at] = { text: para[0]!.prefix + "#".repeat(level) + " " + words };
        for (const p of para.slice(1)) this.out[p.at] = undefined;
        this.leaf = undefined;
        break;
      }
      case "hr":
        closeUnmatched();
        this.leaf = undefined;
        this.push(ln);
        break;
      case "icode":
        closeUnmatched();
        this.leaf = { kind: "icode" };
        this.push(ln.slice(0, off) + minimal(content, next), "indented");
        break;
      case "delimiter":
        this.leaf = { kind: "table" };
        this.push(prefix + content);
        break;
      default: {
        if (nonspace(ln, off) === ln.length) {
          closeUnmatched();
          this.push(ln);
          break;
        }
        const lazy = !leafMatched && this.leaf?.kind === "para";
        if (!lazy) closeUnmatched();
        let body = content;
        // Not a footnote definition (a container GitHub reads): its `[` escaped.
        const lead = nonspace(body, 0);
        if (FOOTNOTE_DEF.test(body.slice(lead))) body = body.slice(0, lead) + "\\" + body.slice(lead);
        let shown = inline(body, next);
        // A code span written as <code> takes its backticks out of the line: a line that was not a
        // fence only because its info string held one must not become one.
        const at = nonspace(shown, 0);
        if (at < 4 && FENCE.test(shown.slice(at))) shown = shown.slice(0, at) + "\\" + shown.slice(at);
        this.push(prefix + shown);
        if (this.leaf?.kind === "para") this.leaf.lines.push({ at: this.out.length - 1, prefix, content: shown });
        else if (this.leaf?.kind !== "table") this.leaf = { kind: "para", lines: [{ at: this.out.length - 1, prefix, content: shown }] };
      }
    }
    markFilled();
  }
}

function nonspace(s: string, from: number): number {
  let i = from;
  while (s.charCodeAt(i) === 0x20) i++;
  return i;
}

function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const ch of line) out += ch === "\t" ? " ".repeat(4 - (out.length % 4)) : ch;
  return out;
}

/**
 * A list item's marker at `at` (cmark's parse_list_marker): its padding (the columns from the
 * marker's start to the item's content), where its content starts, and whether the rest is blank.
 * Interrupting a paragraph, an item must have content and an ordered one must start at 1.
 */
function listMarker(ln: string, at: number, interruptsPara: boolean): { padding: number; content: number; blank: boolean } | undefined {
  const m = /^(?:[*+-]|(\d{1,9})[.)])(?= |$)/.exec(ln.slice(at));
  if (m === null) return undefined;
  const after = at + m[0].length;
  const spacesEnd = nonspace(ln, after);
  const blank = spacesEnd === ln.length;
  if (interruptsPara && (blank || (m[1] !== undefined && Number(m[1]) !== 1))) return undefined;
  const spaces = spacesEnd - after;
  if (spaces >= 5 || spaces < 1 || blank) return { padding: m[0].length + 1, content: after + (spaces > 0 ? 1 : 0), blank };
  return { padding: m[0].length + spaces, content: spacesEnd, blank };
}

/**
 * The cells of a GFM table row as cmark-gfm's table extension counts them (row_from_string): an
 * optional leading pipe, cells split at pipes not preceded by `\`; 0 when it is not a row.
 */
function rowCells(s: string): number {
  const line = s + "\n";
  const cellEnd = (at: number): number => {
    if (line[at] !== "|") return 0;
    let i = at + 1;
    while (line[i] === " " || line[i] === "\t") i++;
    return i - at;
  };
  const cell = (at: number): number => {
    let i = at;
    for (;;) {
      if (line[i] === "\\" && line[i + 1] === "|") i += 2;
      else if (line[i] !== "|" && line[i] !== "\n" && i < line.length) i++;
      else break;
    }
    return i - at;
  };
  let offset = cellEnd(0);
  let n = 0;
  let more = true;
  while (offset < line.length && more) {
    const c = cell(offset);
    const p = cellEnd(offset + c);
    if (c > 0 || p > 0) n++;
    offset += c + p;
    if (p === 0) {
      let e = offset;
      while (line[e] === " " || line[e] === "\t") e++;
      if (line[e] === "\n") offset = e + 1;
      more = false;
    }
  }
  return offset === line.length ? n : 0;
}

const PUNCT = /[!-/:-@[-`{-~]/;
const ENTITY = /&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)/y;
const ENTITY_ANY = /&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)/;
const SAFE_SCHEMES = new Set(["http", "https", "mailto"]);

/**
 * Whether the `]` at `i` ends a link text or a reference label whose destination (after `(` or
 * `:` and spaces, on this line or the next) has a scheme other than http, https or mailto, as a
 * browser would read it once Markdown's backslash escapes are undone.
 */
function badLinkAt(s: string, i: number, next: string | undefined): boolean {
  const after = s[i + 1];
  if (after !== "(" && after !== ":") return false;
  const at = nonspace(s, i + 2);
  let dest = s.slice(at, at + 64);
  if (dest === "" && next !== undefined) dest = next.slice(0, 256).replace(/^[ >]+/, "");
  const unescaped = dest.slice(0, 64).replace(/\\([!-/:-@[-`{-~])/g, "$1");
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(unescaped);
  return scheme !== null && !SAFE_SCHEMES.has(scheme[1]!.toLowerCase());
}

/** The maximal backtick runs of a line by length, for finding a code span's closer in one pass. */
class BacktickRuns {
  private readonly byLength = new Map<number, number[]>();
  private readonly next = new Map<number, number>();

  constructor(s: string) {
    for (let i = 0; i < s.length; ) {
      if (s[i] !== "`") {
        i++;
        continue;
      }
      let n = 1;
      while (s[i + n] === "`") n++;
      let list = this.byLength.get(n);
      if (list === undefined) this.byLength.set(n, (list = []));
      list.push(i);
      i += n;
    }
  }

  /** Where the first run of exactly `n` backticks at or after `from` starts; -1 if none. `from` never decreases. */
  closer(n: number, from: number): number {
    const list = this.byLength.get(n);
    if (list === undefined) return -1;
    let k = this.next.get(n) ?? 0;
    while (k < list.length && list[k]! < from) k++;
    this.next.set(n, k);
    return k < list.length ? list[k]! : -1;
  }
}

/**
 * One line of paragraph text (or a heading, a table row): Markdown left as it is, but `<` and an
 * entity's `&` escaped, a link with an unsafe scheme broken, an image made a link, a mention
 * made text. A code span is left whole when nothing in it would matter were it read as text
 * (a reader pairs backticks across lines, and inside a link destination, where this per-line
 * view cannot follow); otherwise it is written as `<code>` with its text escaped.
 */
function inline(s: string, next: string | undefined): string {
  if (!/[\\`<&@!\]]/.test(s)) return s;
  const runs = new BacktickRuns(s);
  let out = "";
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length && PUNCT.test(s[i + 1]!)) {
      out += s.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "`") {
      let n = 1;
      while (s[i + n] === "`") n++;
      const j = runs.closer(n, i + n);
      if (j >= 0) {
        const code = s.slice(i + n, j);
        out += plainCode(code) ? s.slice(i, j + n) : codeHtml(code);
        i = j + n;
      } else {
        out += s.slice(i, i + n);
        i += n;
      }
      continue;
    }
    ENTITY.lastIndex = i;
    if (c === "<" || (c === "&" && ENTITY.test(s))) out += "\\" + c;
    else if (c === "@" && /[A-Za-z0-9]/.test(s[i + 1] ?? "")) out += "\\@";
    else if (c === "!" && s[i + 1] === "[") out += "\\!";
    else if (c === "]" && badLinkAt(s, i, next)) out += "\\]";
    else out += c;
    i++;
  }
  return out;
}

/** Code span text that would do no harm read as text: no `<`, entity, image, mention or unsafe link. */
function plainCode(code: string): boolean {
  if (/[<]|@[A-Za-z0-9]|!\[/.test(code) || ENTITY_ANY.test(code)) return false;
  for (let k = code.indexOf("]"); k >= 0; k = code.indexOf("]", k + 1)) if (badLinkAt(code, k, undefined)) return false;
  return true;
}

/** A code span as `<code>`, its text escaped for Markdown and HTML alike (one space each side stripped, as CommonMark does). */
function codeHtml(code: string): string {
  const t = code.length > 1 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "" ? code.slice(1, -1) : code;
  return `<code>${markdownText(t)}</code>`;
}

/** Text a reader may take for code or for text: only what would be harmful as text is escaped (`<`, an entity's `&`, an unsafe link). */
function minimal(s: string, next: string | undefined): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    ENTITY.lastIndex = i;
    if (c === "<" || (c === "&" && ENTITY.test(s))) out += "\\" + c;
    else if (c === "]" && badLinkAt(s, i, next)) out += "\\]";
    else out += c;
  }
  return out;
}

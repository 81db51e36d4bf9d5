import { createHash } from "node:crypto";
import type { CallView, Mark } from "../call-view.js";
import { cutText, type Shown } from "./content.js";
import { Anchors, html, htmlLines, slug } from "./escape.js";
import { agentHtml } from "./markdown.js";
import { HTML_STYLE } from "./style.js";
import { MARKS, type Renderer, type SessionFoot, type SessionHead } from "../render.js";
import { callCounts, saidFact } from "../text.js";
import { clipPath } from "../wrap.js";

/** Most characters of one text block the page shows (a prompt, a message, thinking); the rest is counted, not shown. */
const TEXT_MAX = 256 * 1024;
/** Most characters of a call's target, of one line of its stderr tail or of a line of its own (an event). */
const LINE_MAX = 4096;
/** Most lines of an edit's diff shown, and characters in all. */
const DIFF_LINES_MAX = 2000;
const DIFF_MAX = 64 * 1024;

/** How the page names each agent (model/run.ts AgentId); another id is shown as written. */
const AGENT_NAMES: Record<string, string> = { cursor: "cursor-agent", claude: "Claude Code", codex: "Codex", gemini: "Gemini CLI" };

/**
 * Opens every folded block for printing (and closes again those it opened). The page's one
 * script: nothing in it comes from the log; the CSP allows it by its hash.
 */
const PRINT_SCRIPT =
  'addEventListener("beforeprint",function(){document.querySelectorAll("details:not([open])").forEach(function(d){d.open=true;d.setAttribute("data-print","")})});' +
  'addEventListener("afterprint",function(){document.querySelectorAll("details[data-print]").forEach(function(d){d.open=false;d.removeAttribute("data-print")})});';

/** `'sha256-…'`: a CSP source that allows the one inline script or style with exactly this text. */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * No network at all (no image, font, frame or connection), and no inline code but the page's own
 * style and script, allowed by their hashes: a tag, a handler or a style attribute from a log
 * would not run even if it got past the escaping.
 */
const CSP = `default-src 'none'; style-src ${hashSource(HTML_STYLE)}; script-src ${hashSource(PRINT_SCRIPT)}; base-uri 'none'; form-action 'none'`;

/** The page's head and the opening of its body, `title` already escaped. */
export function pageHead(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cursorlog show --format html">
<title>${title}</title>
<style>${HTML_STYLE}</style>
<script>${PRINT_SCRIPT}</script>
</head>
<body>
`;
}

export const PAGE_TAIL = `<footer>Written by cursorlog show --format html. Every value from the log is shown as text; folded blocks open when printed.</footer>
</body>
</html>
`;

/** `… 1,234 more characters not shown`. */
function cutNote(cut: number, what = "characters"): string {
  return cut > 0 ? `<p class="cut">… ${cut.toLocaleString("en-US")} more ${what} not shown (the log holds them)</p>\n` : "";
}

/** A block of text from the log, cut to `max`, for a <pre> or a pre-wrap element, and the note of what was cut. */
function cutLines(text: string, max: number): { body: string; note: string } {
  const s = cutText(text, max);
  return { body: htmlLines(s.text), note: cutNote(s.cut) };
}

function oneLine(s: string, max = 300): string {
  const one = s.replace(/\s*\r?\n\s*/g, " ⏎ ").trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}

/**
 * `show --format html`: the transcript as one self-contained HTML page (style.ts; no
 * network, one script of its own), a section per run. Each call is a block with an anchor (its
 * run's index and its id, slugged: escape.ts), its line (mark, label, target, facts), the
 * last lines of what a call that did not succeed said (open), its arguments and output folded,
 * an edit's diff folded and coloured; a subagent's blocks are nested (indented, a bar per level).
 * The agent's Markdown is rendered by markdown-it with raw HTML off (markdown.ts); every
 * other value from the log is text, escaped, its control and invisible characters made visible.
 * Each block is written when show gives it (streamed), each bounded (TEXT_MAX, LINE_MAX, the
 * content budget).
 */
export function htmlRenderer(): Renderer {
  const anchors = new Anchors();
  let started = false;
  let inRun = false;
  let runIndex = 0;

  function facts(v: CallView, extra: string[]): string {
    const parts: string[] = [];
    if (v.note) parts.push(html(v.note));
    if (v.lines) parts.push(html(v.lines));
    if (v.reason) parts.push(html(oneLine(v.reason)));
    if (v.duration) parts.push(html(v.duration));
    if (v.exitStatus !== undefined && !(v.reason ?? "").includes(`exit ${v.exitStatus}`)) parts.push(`exit ${v.exitStatus}`);
    parts.push(...extra.map(html));
    return parts.length > 0 ? ` <span class="more">· ${parts.join(" · ")}</span>` : "";
  }

  function folded(summary: string, shown: Shown, open = false): string {
    if (shown.text === "" && shown.cut === 0) return "";
    return `<details${open ? " open" : ""}><summary>${summary}</summary><pre>${htmlLines(shown.text)}</pre>${cutNote(shown.cut)}</details>\n`;
  }

  function diffBlock(lines: string[], summary: string): string {
    if (lines.length === 0) return `<p class="more">The log holds no diff of this edit.</p>\n`;
    let body = "";
    let size = 0;
    let shown = 0;
    for (const l of lines) {
      if (shown >= DIFF_LINES_MAX || size >= DIFF_MAX) break;
      const line = l.length > LINE_MAX ? l.slice(0, LINE_MAX) + "…" : l;
      const cls = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : "";
      body += cls === "" ? `${htmlLines(line)}\n` : `<span class="${cls}">${htmlLines(line)}</span>\n`;
      size += line.length;
      shown++;
    }
    const rest = lines.length - shown;
    return `<details><summary>${summary}</summary><pre class="diff">${body}</pre>${cutNote(rest, rest === 1 ? "line" : "lines")}</details>\n`;
  }

  function callBlock(v: CallView, extra: string[] = []): string {
    const id = anchors.take(`r${runIndex}-${v.id !== undefined ? "c" + slug(v.id) : "call"}`);
    // On its line: a path whole up to 300 characters (cut in its middle), anything else on one line, up to 200; the whole is in its arguments.
    const shown = v.path && !/[\r\n]/.test(v.target) ? clipPath(v.target, 300) : oneLine(v.target, 200);
    const target = v.target !== "" ? ` <code class="target">${html(shown)}</code>` : "";
    let out = `<div class="call ${v.mark}" id="${id}">\n<div class="line"><a class="mark" href="#${id}" title="link to this call">${MARKS[v.mark]}</a> <b>${html(v.label)}</b>${target}${facts(v, extra)}</div>\n`;
    if (v.tail.length > 0) {
      const tail = v.tail.map((l) => (l.length > LINE_MAX ? l.slice(0, LINE_MAX) + "…" : l)).join("\n");
      out += `<details open class="tail"><summary>What it said (last lines)</summary><pre>${htmlLines(tail)}</pre></details>\n`;
    }
    if (v.args !== undefined) out += folded("Arguments", v.args);
    if (v.output !== undefined) out += folded("Output", v.output);
    if (v.diff !== undefined) out += diffBlock(v.diff, v.lines !== undefined ? `Diff ${html(v.lines)}` : "Diff");
    return out + "</div>\n";
  }

  function event(mark: Mark, text: string, tail: string[] = []): string {
    // A line of the agent CLI's own text in a file where no run was shown: the page begins with it.
    let out = started ? "" : ((started = true), pageHead("cursorlog show"));
    out += `<p class="event ${mark}"><span class="mark">${MARKS[mark]}</span> ${html(oneLine(text, LINE_MAX))}</p>\n`;
    if (tail.length > 0) out += `<pre>${htmlLines(tail.map((l) => (l.length > LINE_MAX ? l.slice(0, LINE_MAX) + "…" : l)).join("\n"))}</pre>\n`;
    return out;
  }

  function head(h: SessionHead): string {
    let out = "";
    if (!started) {
      started = true;
      out += pageHead(`cursorlog show: ${html(h.file.replace(/^.*[\\/]/, ""))}`);
    }
    if (inRun) out += "</section>\n";
    inRun = true;
    runIndex = h.index;
    const id = anchors.take(`r${h.index}`);
    const dl: string[] = [];
    const fact = (name: string, value: string, code = false): void => {
      dl.push(`<dt>${name}</dt><dd>${code ? `<code>${value}</code>` : value}</dd>`);
    };
    if (h.agent !== undefined) fact("Agent", html(AGENT_NAMES[h.agent] ?? h.agent));
    if (h.model !== undefined) fact("Model", html(h.model));
    if (h.sessionId !== undefined) fact("Session", html(h.sessionId), true);
    if (h.cwd !== undefined) fact("cwd", html(h.cwd), true);
    fact("Started", h.started !== undefined ? html(h.started) : "not in the log");
    fact("Log", `${html(h.file)}:${h.line}`, true);
    const sid = h.sessionId !== undefined ? ` <span class="sid">${html(oneLine(h.sessionId, 100))}</span>` : "";
    return `${out}<section class="run" id="${id}">\n<h2><a href="#${id}">Session ${h.index}</a>${sid}</h2>\n<dl class="facts">${dl.join("")}</dl>\n`;
  }

  function foot(f: SessionFoot): string {
    let out = "";
    for (const v of f.open) out += callBlock({ ...v, mark: "running" }, ["no result: still running when the log ended"]);
    for (const s of f.stillBackground) out += event("background", `${s} · still running when the log ended`);
    const parts: string[] = [];
    if (f.duration) parts.push(html(f.duration));
    if (f.outcome === "unfinished") parts.push(`the log ends at ${html(f.file)}:${f.lastLine}`);
    if (f.said) parts.push(html(saidFact(f)));
    parts.push(f.tokens !== undefined ? `tokens ${html(f.tokens)}` : "tokens not in log");
    parts.push(html(callCounts(f)));
    if (f.failure !== undefined) parts.splice(f.duration ? 1 : 0, 0, `error: ${html(oneLine(f.failure, LINE_MAX))}`);
    let verdict = f.outcome === "finished" ? "✓ finished" : f.outcome === "error" ? `✗ ended in error (${html(f.failedAs)})` : "✗ the run did not finish: no result";
    if (f.terminalReason !== undefined) verdict += ` · terminal_reason ${html(f.terminalReason)}`;
    inRun = false;
    return `${out}<p class="outcome ${f.outcome}"><b>${verdict}</b> · ${parts.join(" · ")}</p>\n</section>\n`;
  }

  const top: Renderer = {
    head,
    foot,
    prompt(text) {
      if (text.trim() === "") return "";
      const { body, note } = cutLines(text.replace(/^\n+|\s+$/g, ""), TEXT_MAX);
      return `<div class="prompt">${body}</div>\n${note}`;
    },
    message(text, final) {
      const s = cutText(text, TEXT_MAX);
      const body = agentHtml(s.text);
      if (body.trim() === "") return "";
      return `<div class="msg${final ? " final" : ""}">\n${body}</div>\n${cutNote(s.cut)}`;
    },
    thinking(text) {
      const s = cutText(text, TEXT_MAX);
      const body = agentHtml(s.text);
      if (body.trim() === "") return "";
      return `<details class="thinking"><summary>Thinking</summary><div class="msg">\n${body}</div>${cutNote(s.cut)}</details>\n`;
    },
    call: (v) => callBlock(v),
    event,
    nested: (depth) => level(depth),
    end() {
      if (!started) return "";
      const out = (inRun ? "</section>\n" : "") + PAGE_TAIL;
      inRun = false;
      return out;
    },
  };

  const levels: Renderer[] = [top];
  /** A subagent's blocks, `depth` levels down: each in a bar, indented per level. */
  function level(depth: number): Renderer {
    if (depth === 0) return top;
    const wrap = (s: string): string => (s === "" ? "" : `<div class="sub d${Math.min(depth, 4)}">\n${s}</div>\n`);
    return (levels[depth] ??= {
      head,
      foot,
      prompt: (text) => wrap(top.prompt(text)),
      message: (text, final) => wrap(top.message(text, final)),
      thinking: (text) => wrap(top.thinking(text)),
      call: (v) => wrap(callBlock(v)),
      event: (mark, text, tail) => wrap(event(mark, text, tail)),
      nested: level,
    });
  }
  return top;
}

import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import { markdownText } from "../shared/markdown-escape.js";
import type { CallView } from "./call-view.js";
import { MARKS, MAX_DRAWN_LEVELS, type Renderer } from "./render.js";
import { agentMarkdown } from "./agent-markdown.js";
import { callCounts, saidFact } from "./text.js";
import { clipPath } from "./wrap.js";

/**
 * Text from the log as Markdown paragraphs that render literally: each line escaped inline
 * (markdownText), block markers at a line's start (`#`, `-`, `+`, `=`, `1.`, indentation) made
 * inert, lines kept apart with a hard break. Nothing in it can open HTML, a link or a code block.
 */
function literalParagraphs(text: string): string {
  const t = text.replace(/\r\n/g, "\n").replace(/^\n+|\s+$/g, "");
  if (t === "") return "";
  const blocks = t.split(/\n[ \t]*\n+/);
  return blocks
    .map((block) =>
      block
        .split("\n")
        .map((line) => {
          let lead = "";
          const m = /^[ \t]+/.exec(line);
          if (m) {
            lead = "&nbsp;".repeat(m[0].replace(/\t/g, "    ").length);
            line = line.slice(m[0].length);
          }
          let esc = markdownText(line);
          // Block syntax at the start of a line: headings, lists, rules, setext underlines, quotes.
          esc = esc.replace(/^([#+=-])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");
          return lead + esc;
        })
        .join("<br>\n"),
    )
    .join("\n\n");
}

/** Text for HTML: `<summary>` content, where Markdown is not read. */
function html(s: string): string {
  return escapeControls(s).replace(/[&<>"'@`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A fenced code block that no backtick run in `lines` can close, controls escaped. */
function fenced(lines: string[], info = ""): string {
  const body = lines.map((l) => escapeControlsKeepLines(l).replace(/\t/g, "    "));
  let longest = 0;
  for (const l of body) for (const m of l.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body.join("\n")}\n${fence}\n`;
}

/**
 * The transcript as GitHub-flavoured Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY:
 * a heading per session, the prompt quoted literally, the agent's messages and thinking as the
 * Markdown it wrote (agentMarkdown: no raw HTML, no unsafe link, headings below the session's),
 * each tool call a `<details>` whose summary is its line and whose body holds the full target,
 * the output's last lines and the diff (a call with nothing more to show than its summary, a path
 * among them, is that line alone). Other log text is escaped for Markdown and HTML alike.
 */
export function markdownRenderer(): Renderer {
  function summary(v: CallView, extra: string[] = []): string {
    const parts: string[] = [];
    if (v.note) parts.push(html(v.note));
    if (v.lines) parts.push(html(v.lines));
    if (v.reason) parts.push(html(oneLine(v.reason)));
    if (v.duration) parts.push(v.duration);
    if (v.exitStatus !== undefined && !(v.reason ?? "").includes(`exit ${v.exitStatus}`)) parts.push(`exit ${v.exitStatus}`);
    parts.push(...extra.map(html));
    const target = v.target !== "" ? `: <code>${html(shownTarget(v))}</code>` : "";
    return `${MARKS[v.mark]} <b>${html(v.label)}</b>${target}${parts.length > 0 ? " · " + parts.join(" · ") : ""}`;
  }

  function details(v: CallView, extra: string[] = []): string {
    // Nothing to unfold (the whole target is in the summary, no output, no diff): the line alone,
    // in a <p> so that it is an HTML block, where Markdown is not read (as in <summary>).
    // A path needs no more room than the line gives it.
    if (v.tail.length === 0 && v.diff === undefined && shownTarget(v) === v.target) return `\n<p>${summary(v, extra)}</p>\n`;
    let body = "";
    if (v.target !== "") body += fenced((v.label === "Ran terminal command" ? "$ " + v.target : v.target).split(/\r?\n/));
    if (v.tail.length > 0) body += "\n" + fenced(v.tail);
    if (v.diff !== undefined) body += "\n" + (v.diff.length > 0 ? fenced(v.diff, "diff") : "The log holds no diff of this edit.\n");
    if (body === "") body = "Nothing more in the log.\n";
    return `\n<details><summary>${summary(v, extra)}</summary>\n\n${body}\n</details>\n`;
  }

  /** Each line of `out` after `depth` block-quote markers (a subagent's lines: nested quotes; MAX_DRAWN_LEVELS at most); a blank one gets the markers alone. */
  function quoted(out: string, depth: number): string {
    if (depth === 0 || out === "") return out;
    const q = "> ".repeat(Math.min(depth, MAX_DRAWN_LEVELS));
    const lines = out.split("\n");
    const last = lines.pop();
    return lines.map((l) => (l === "" ? q.trimEnd() : q + l)).join("\n") + "\n" + (last ?? "");
  }

  const levels: Renderer[] = [];
  const level = (depth: number): Renderer => {
    const top = levels[0]!;
    return (levels[depth] ??= {
      head: top.head,
      foot: top.foot,
      prompt: (text) => quoted(top.prompt(text), depth),
      message: (text, final) => quoted(top.message(text, final), depth),
      thinking: (text) => quoted(top.thinking(text), depth),
      call: (v) => quoted(top.call(v), depth),
      event: (mark, text, tail) => quoted(top.event(mark, text, tail), depth),
      nested: level,
    });
  };

  levels[0] = {
    head(h, first) {
      const facts: string[] = [];
      if (h.model !== undefined) facts.push(`**Model:** ${markdownText(h.model)}`);
      if (h.cwd !== undefined) facts.push(`**cwd:** ${markdownText(h.cwd)}`);
      if (h.started !== undefined) facts.push(`**Started:** ${h.started}`);
      facts.push(`**Log:** ${markdownText(h.file)}:${h.line}`);
      const id = h.sessionId !== undefined ? ` · ${markdownText(h.sessionId)}` : "";
      return `${first ? "" : "\n---\n\n"}### Session ${h.index}${id}\n\n${facts.join(" · ")}\n`;
    },
    prompt(text) {
      const p = literalParagraphs(text);
      return p === "" ? "" : "\n" + p.split("\n").map((l) => (l === "" ? ">" : "> " + l)).join("\n") + "\n";
    },
    // The agent writes Markdown: it is rendered as such, kept from reaching out of its place (agentMarkdown).
    message(text, final) {
      const p = agentMarkdown(text);
      return p === "" ? "" : "\n" + (final ? "**Final answer:**\n\n" : "") + p + "\n";
    },
    thinking(text) {
      const p = agentMarkdown(text);
      return p === "" ? "" : `\n<details><summary>Thinking</summary>\n\n${p}\n\n</details>\n`;
    },
    call(v) {
      return details(v);
    },
    event(mark, text, tail = []) {
      return `\n${MARKS[mark]} ${markdownText(text)}\n` + (tail.length > 0 ? "\n" + fenced(tail) : "");
    },
    foot(f) {
      let out = "";
      for (const v of f.open) out += details({ ...v, mark: "running" }, ["no result: still running when the log ended"]);
      for (const s of f.stillBackground) out += `\n${MARKS.background} ${markdownText(s)} · still running when the log ended\n`;
      const facts: string[] = [];
      if (f.duration) facts.push(f.duration);
      if (f.outcome === "unfinished") facts.push(`the log ends at ${markdownText(f.file)}:${f.lastLine}`);
      if (f.said) facts.push(saidFact(f));
      facts.push(f.tokens !== undefined ? `tokens ${f.tokens}` : "tokens not in log");
      facts.push(callCounts(f));
      if (f.failure !== undefined) facts.splice(f.duration ? 1 : 0, 0, `error: ${markdownText(f.failure.replace(/\s*\r?\n\s*/g, " ⏎ ").trim())}`);
      let verdict = f.outcome === "finished" ? "✓ finished" : f.outcome === "error" ? `✗ ended in error (${f.failedAs})` : "✗ the run did not finish: no result";
      if (f.terminalReason !== undefined) verdict += ` · terminal_reason ${markdownText(f.terminalReason)}`; // as written: the result's field
      return `${out}\n**${verdict}** · ${facts.join(" · ")}\n`;
    },
    nested: (depth) => level(depth),
  };
  return levels[0];
}

/** Columns a path may take in a call's line before it is cut in its middle. */
const PATH_MAX = 300;

/** A call's target as its line shows it: a path whole up to PATH_MAX columns (then cut in its middle), anything else up to 100. */
function shownTarget(v: CallView): string {
  return v.path && !/[\r\n]/.test(v.target) ? clipPath(v.target, PATH_MAX) : oneLine(v.target, 100);
}

function oneLine(s: string, max = 200): string {
  const one = s.replace(/\s*\r?\n\s*/g, " ⏎ ").trim();
  return [...one].length > max ? [...one].slice(0, max - 1).join("") + "…" : one;
}

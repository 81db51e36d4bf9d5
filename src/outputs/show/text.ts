import type { Colors } from "picocolors/types.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import type { CallView, Mark } from "./call-view.js";
import { MARKS, MAX_DRAWN_LEVELS, type Renderer, type SessionFoot, type SessionHead } from "./render.js";
import { clip, clipPath, columns, wrap, wrapFacts } from "./wrap.js";

/**
 * The transcript as text for a terminal or a CI log: a rule and header per session, the prompt
 * quoted, messages as wrapped paragraphs, a line per tool call, the footer. Every string from the
 * log is escaped (sanitize.ts); colour only when `c` has it. A subagent's lines (nested) are the
 * same blocks, each line after a bar (`  │ `, one per level, MAX_DRAWN_LEVELS at most), wrapped to
 * the columns left.
 */
export function textRenderer(c: Colors, width: number, terminalColumns = 0): Renderer {
  const liveWidth = width > 0 ? width : terminalColumns;
  const tone = (m: Mark): ((s: string) => string) =>
    m === "ok" ? c.green : m === "failed" ? c.red : m === "refused" ? c.yellow : m === "running" ? c.dim : c.blue;

  // Tool call lines follow each other without a blank line; any other block has one before it.
  let lastWasLine = false;
  // The live line (a terminal): drawn (its redraws write no gap), and whether its first drawing
  // wrote a blank line before it for good. What replaces it then needs no blank line of its own.
  let liveDrawn = false;
  let liveBlank = false;
  /** The level of the last block written: coming back out of a subagent's lines, a blank line. */
  let lastDepth = 0;
  const gap = (line: boolean, depth = 0): string => {
    const out = depth < lastDepth;
    const g = !out && (liveBlank || (line && lastWasLine)) ? "" : "\n";
    liveDrawn = liveBlank = false;
    lastWasLine = line;
    lastDepth = depth;
    return g;
  };

  const levels: Renderer[] = [];
  const level = (depth: number): Renderer => (levels[depth] ??= makeLevel(depth));

  function makeLevel(depth: number): Renderer {
    /** Bars drawn: one per level, MAX_DRAWN_LEVELS at most (see there). */
    const drawn = Math.min(depth, MAX_DRAWN_LEVELS);
    /** Columns for this level's text: the bars take 4 each (never fewer than 20 left). */
    const cols = width > 0 ? Math.max(20, width - 4 * drawn) : 0;
    const bar = "  │ ".repeat(drawn);
    /** Each line of `out` (whole lines) after this level's bars; a blank one gets the bars alone. */
    const nest = (out: string): string => {
      if (depth === 0 || out === "") return out;
      const lines = out.split("\n");
      const last = lines.pop();
      return lines.map((l) => c.dim(l === "" ? bar.trimEnd() : bar) + l).join("\n") + "\n" + (last ?? "");
    };
    const gapHere = (line: boolean) => gap(line, depth);

    function callLine(v: CallView, extra: string[] = [], markAs: Mark = v.mark): string {
      const parts: string[] = [];
      if (v.note) parts.push(escapeControls(v.note));
      if (v.lines) parts.push(v.lines);
      if (v.reason) parts.push(escapeControls(firstLine(v.reason)));
      if (v.duration) parts.push(v.duration);
      if (v.exitStatus !== undefined && !(v.reason ?? "").includes(`exit ${v.exitStatus}`)) parts.push(`exit ${v.exitStatus}`);
      parts.push(...extra);
      const tail = parts.length > 0 ? " · " + parts.join(" · ") : "";
      const label = escapeControls(v.label);
      const head = `${MARKS[markAs]} ${label}`;
      let target = escapeControls(v.target);
      if (cols > 0 && target !== "") {
        // The target gives way so the line fits; it keeps at least 20 columns. A path is cut in its
        // middle, so that its file name stays.
        const room = Math.max(20, cols - columns(head) - 2 - columns(tail));
        target = v.path ? clipPath(target, room) : clip(target, room);
      }
      const body = c.bold(label) + (target !== "" ? ": " + c.cyan(target) : "");
      return `${tone(markAs)(MARKS[markAs])} ${body}${tail === "" ? "" : (v.mark === "ok" ? c.dim : tone(markAs))(tail)}`;
    }

    function paragraphs(text: string, indent = ""): string[] {
      const t = escapeControlsKeepLines(text.replace(/\r\n/g, "\n")).replace(/^\n+|\s+$/g, "");
      return t === "" ? [] : wrap(t, cols, indent);
    }

    return {
      head(h: SessionHead, first: boolean) {
        const title = `━━ Session ${h.index}${h.sessionId !== undefined ? " · " + escapeControls(h.sessionId) : ""} `;
        const rule = width > 0 ? "━".repeat(Math.max(3, width - columns(title))) : "━━━";
        // Each fact a label and its value, never wrapped apart (GLUE holds them together).
        const about: string[] = [];
        if (h.model !== undefined) about.push(`model${GLUE}${escapeControls(h.model)}`);
        if (h.cwd !== undefined) about.push(`cwd${GLUE}${escapeControls(h.cwd)}`);
        const when: string[] = [];
        if (h.started !== undefined) when.push(`started${GLUE}${h.started}`);
        when.push(`log${GLUE}${escapeControls(h.file)}:${h.line}`);
        lastWasLine = false;
        lastDepth = 0;
        const facts = [about, when].filter((f) => f.length > 0).flatMap((f) => wrapFacts(f, width).map((l) => l.replaceAll(GLUE, " ")));
        return (first ? "" : "\n") + c.bold(title + rule) + "\n" + facts.map((l) => c.dim(l)).join("\n") + "\n";
      },
      prompt(text) {
        const lines = paragraphs(text, "> ");
        return lines.length === 0 ? "" : nest(gapHere(false) + lines.map((l) => c.bold(l)).join("\n") + "\n");
      },
      message(text, final) {
        const lines = paragraphs(text);
        if (lines.length === 0) return "";
        return nest(gapHere(false) + (final ? c.bold(c.green("Final answer:")) + "\n" : "") + lines.join("\n") + "\n");
      },
      thinking(text) {
        const lines = paragraphs(text, "  ");
        if (lines.length === 0) return "";
        return nest(gapHere(false) + c.dim(c.italic("thinking:")) + "\n" + lines.map((l) => c.dim(l)).join("\n") + "\n");
      },
      call(v) {
        let out = gapHere(v.tail.length === 0 && v.diff === undefined) + callLine(v) + "\n";
        for (const l of v.tail) out += c.dim("    │ ") + escapeControls(l) + "\n";
        if (v.diff !== undefined) {
          if (v.diff.length === 0) out += c.dim("    (the log holds no diff of this edit)") + "\n";
          for (const l of v.diff) {
            const shown = escapeControls(l);
            const colour = l.startsWith("@@") ? c.cyan : l.startsWith("+") ? c.green : l.startsWith("-") ? c.red : (s: string) => s;
            out += "    " + colour(shown) + "\n";
          }
        }
        return nest(out);
      },
      event(mark, text, tail = []) {
        let out = gapHere(tail.length === 0) + `${tone(mark)(MARKS[mark])} ${escapeControls(text)}` + "\n";
        for (const l of tail) out += c.dim("    │ ") + escapeControls(l) + "\n";
        return nest(out);
      },
      foot(f: SessionFoot) {
        let out = "";
        for (const v of f.open) out += gapHere(true) + callLine(v, ["no result: still running when the log ended"], "running") + "\n";
        for (const s of f.stillBackground) out += gapHere(true) + `${tone("background")(MARKS.background)} ${escapeControls(s)} · ${c.dim("still running when the log ended")}` + "\n";
        const facts: string[] = [];
        if (f.failure !== undefined) facts.push(`error: ${escapeControls(oneLine(f.failure))}`);
        if (f.outcome === "unfinished") facts.push(`the log ends at ${escapeControls(f.file)}:${f.lastLine}`);
        if (f.said) facts.push(saidFact(f));
        facts.push(f.tokens !== undefined ? `tokens ${f.tokens}` : "tokens not in log");
        facts.push(callCounts(f));
        let verdict = f.outcome === "finished" ? "── ✓ finished" : f.outcome === "error" ? `── ✗ ended in error (${f.failedAs})` : "── ✗ the run did not finish: no result";
        if (f.terminalReason !== undefined) verdict += ` · terminal_reason ${escapeControls(f.terminalReason)}`; // as written: the result's field
        const parts = [verdict];
        if (f.duration) parts.push(f.duration);
        const verdictTone = f.outcome === "finished" ? c.green : c.red;
        lastWasLine = false;
        lastDepth = 0;
        const lines = wrapFacts(parts, width).map((l, i) => c.bold(verdictTone(i === 0 ? l : "   " + l)));
        lines.push(...wrapFacts(facts, width, "   ").map((l) => c.dim(l)));
        return out + "\n" + lines.join("\n") + "\n";
      },
      nested(d: number) {
        return level(d);
      },
      live(v, elapsed, more) {
        const extra = [`running ${elapsed}`];
        if (more > 0) extra.push(`+${more} more`);
        let line = callLine({ ...v, mark: "running" }, extra, "running");
        // One terminal row, whatever the width: a line that wrapped could not be erased in place.
        if (liveWidth > 0 && columns(line.replace(SGR, "")) >= liveWidth) line = c.dim(clip(line.replace(SGR, ""), liveWidth - 1));
        if (liveDrawn) return line;
        // The blank line before it, if one is due, is written for good: the line that replaces it
        // then takes exactly its place.
        const g = gap(true);
        liveDrawn = true;
        liveBlank = g !== "";
        return g + line;
      },
    };
  }

  return level(0);
}

/** Where the agent CLI's own text is: `the agent CLI's message at line 9` (`and 2 more`). */
export function saidFact(f: SessionFoot): string {
  const s = f.said!;
  return `the agent CLI's message at line ${s.line}${s.count > 1 ? ` and ${s.count - 1} more` : ""}`;
}

/**
 * Joins a label to its value for wrapping: wrap breaks only at spaces, and text from the log has
 * its control characters escaped before it gets here, so this one is never the log's own.
 */
const GLUE = "\u0001";

/** Our colour sequences (picocolors: ESC [ n m). */
const SGR = /\u001b\[\d+m/g;

/** `calls: 5 ok, 1 failed, 1 refused` (the bins that occurred; `without result`: still open), or `no tool calls`. */
export function callCounts(f: SessionFoot): string {
  const parts: string[] = [];
  const { ok, failed, refused, noResult, background } = f.calls;
  if (ok > 0) parts.push(`${ok} ok`);
  if (background > 0) parts.push(`${background} in background`);
  if (failed > 0) parts.push(`${failed} failed`);
  if (refused > 0) parts.push(`${refused} refused`);
  if (noResult > 0) parts.push(`${noResult} completed without result`);
  if (f.open.length > 0) parts.push(`${f.open.length} without result`);
  return parts.length === 0 ? "no tool calls" : "calls: " + parts.join(", ");
}

/** A text on one line: its line breaks as ` ⏎ `. */
function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, " ⏎ ").trim();
}

/** The first line of a text, with `…` when more follow. */
function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i === -1 ? s : s.slice(0, i).replace(/\r$/, "") + " …";
}

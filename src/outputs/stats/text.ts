import type { Colors } from "picocolors/types.js";
import { escapeControls } from "../../sanitize.js";
import { callSummary, formatCount, formatDuration, formatUsage, modelCost, outcomeText, pathCount, sessionCost, sessionDuration, totalCost, totalDuration, totalUsage } from "./format.js";
import { textTable } from "./text-table.js";
import type { CallCounts, FileOps, PathList, SessionCost, SessionStats, StatsCall, StatsRenderer, StatsTotal } from "./types.js";

const e = escapeControls;
const NOT_IN_LOG = "not in log";

/**
 * `cursorlog stats` as aligned plain text: a block per session, then (for any number of sessions
 * but one) the total. Every string from the log goes through escapeControls, so a log cannot
 * move the cursor, retitle the terminal or reorder text; colour only when `colors` enables it.
 */
export function toStatsText(c: Colors): StatsRenderer {
  let blocks = 0;
  const sep = () => (blocks++ === 0 ? "" : "\n");

  return {
    session(s) {
      let out = sep() + c.bold(`Session ${s.index}: ${e(s.file)}, lines ${s.firstLine}-${s.lastLine}`) + "\n";
      const tone = s.outcome === "finished" ? c.green : s.outcome === "error" ? c.red : c.yellow;
      const fields: Array<[string, string]> = [
        ["session id", e(s.sessionId ?? NOT_IN_LOG)],
        ["model", e(s.model ?? NOT_IN_LOG)],
        ["prompt", e(s.prompt ?? NOT_IN_LOG)],
        ["outcome", tone(e(outcomeText(s)))],
        ["duration", sessionDuration(s)],
        ["tokens", s.usage === undefined ? NOT_IN_LOG : formatUsage(s.usage)],
        // A cost only where the log states one (Claude Code's result): cursor-agent's never does.
        ...(s.cost === undefined ? [] : costFields(s.cost)),
        ...callFields(s.calls, s.subagentCalls),
      ];
      out += fieldLines(fields);
      out += kindTable(s.calls);
      out += warningList(c, s);
      out += callList(c, "failed calls", s.failed.count, s.failed.items);
      out += callList(c, "rejected calls", s.rejected.count, s.rejected.items);
      out += slowestList(c, s.slowest);
      out += shellList(c, s);
      out += fileLists(c, s.files);
      out += callList(c, "calls still open at the end", s.open.count, s.open.items);
      out += backgroundList(c, s);
      return out;
    },
    total(t) {
      if (t.sessions === 1) return "";
      let out = sep() + c.bold(`Total: ${t.sessions} session${t.sessions === 1 ? "" : "s"}`) + "\n";
      if (t.sessions === 0) return out + "  no events in the input\n";
      const outcomes = [`${t.finished} finished`];
      if (t.errors > 0) outcomes.push(`${t.errors} error`);
      if (t.cutOff > 0) outcomes.push(`${t.cutOff} cut off`);
      out += fieldLines([
        ["outcomes", outcomes.join(", ")],
        ["duration", totalDuration(t)],
        ["tokens", totalUsage(t)],
        ...(t.cost === undefined ? [] : [["cost", totalCost(t)] as [string, string]]),
        ...callFields(t.calls, t.subagentCalls),
        ["failed", `${formatCount(t.failed)} call${t.failed === 1 ? "" : "s"}`],
        ["rejected", `${formatCount(t.rejected)} call${t.rejected === 1 ? "" : "s"}`],
        ["shell exits", shellExitsCell(t)],
        ...(t.background > 0 ? [["background", backgroundCount(t.background, t.backgroundEnded)] as [string, string]] : []),
        ["files", `${fileCounts(t.files)} (summed over sessions)`],
      ]);
      return out + kindTable(t.calls);
    },
  };
}

/** `cost  $0.0558 (…)`, then a line per model of its breakdown (`by model`), escaped. */
function costFields(cost: SessionCost): Array<[string, string]> {
  const fields: Array<[string, string]> = [["cost", sessionCost(cost)]];
  cost.models.forEach((m, i) => fields.push([i === 0 ? "by model" : "", e(modelCost(m))]));
  return fields;
}

/** `tool calls  3: 3 ok; 2 by subagents`, and the statuses. */
function callFields(k: CallCounts, bySubagents: number): Array<[string, string]> {
  const summary = callSummary(k);
  const sub = bySubagents > 0 ? `; ${formatCount(bySubagents)} by subagents` : "";
  const fields: Array<[string, string]> = [["tool calls", formatCount(k.calls) + (summary === "" ? "" : `: ${summary}`) + sub]];
  if (k.byStatus.length > 0) fields.push(["statuses", k.byStatus.map(([st, n]) => `${e(st)} ${formatCount(n)}`).join(", ")]);
  return fields;
}

function fieldLines(fields: Array<[string, string]>): string {
  const w = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `  ${k.padEnd(w)}  ${v}\n`).join("");
}

function kindTable(k: CallCounts): string {
  if (k.byKind.length === 0) return "";
  const rows = [["kind", "calls", "ok", "failed", "refused", "no result", "open"]];
  for (const [kind, n] of k.byKind) rows.push([e(kind), ...[n.calls, n.ok, n.failed, n.refused, n.noResult, n.open].map(formatCount)]);
  return "\n" + textTable(rows, [false, true, true, true, true, true, true], "  ");
}

function heading(c: Colors, title: string, count: number, shown: number): string {
  return `\n  ${c.bold(title)} (${formatCount(count)}${count > shown ? `, first ${shown} shown` : ""})\n`;
}

function callList(c: Colors, title: string, count: number, items: StatsCall[]): string {
  if (count === 0) return "";
  const rows = items.map((it) => [`line ${it.line}`, describe(c, it)]);
  return heading(c, title, count, items.length) + textTable(rows, [false, false], "    ");
}

/** The agent CLI's warnings, each at its line, in show's words. */
function warningList(c: Colors, s: SessionStats): string {
  const w = s.warnings;
  if (w.count === 0) return "";
  const rows = w.items.map((it) => [`line ${it.line}`, e(`${it.severity !== undefined ? `(${it.severity}) ` : ""}${it.text}`)]);
  return heading(c, "the agent CLI warned", w.count, w.items.length) + textTable(rows, [false, false], "    ");
}

function slowestList(c: Colors, items: StatsCall[]): string {
  if (items.length === 0) return "";
  const rows = items.map((it) => [durationCell(it), `line ${it.line}`, describe(c, it)]);
  return `\n  ${c.bold("slowest calls")}\n` + textTable(rows, [true, false, false], "    ");
}

function shellList(c: Colors, s: SessionStats): string {
  const x = s.shellExits;
  if (x.count === 0) return "";
  const rows = x.items.map((it) => [
    it.exitStatus !== undefined ? `exit ${it.exitStatus}` : it.signal !== undefined ? `signal ${e(it.signal)}` : "failed",
    `line ${it.line}`,
    e(it.command),
  ]);
  return heading(c, "shell commands with a non-zero exit", x.count, x.items.length) + textTable(rows, [false, false, false], "    ", (_r, col, p) => (col === 0 ? c.red(p) : p));
}

function backgroundList(c: Colors, s: SessionStats): string {
  const b = s.background;
  if (b.count === 0) return "";
  const rows = b.items.map((it) => [
    it.status === undefined ? "running at the end" : e(it.status),
    it.durationMs === undefined ? "?" : formatDuration(it.durationMs),
    `line ${it.line}`,
    `task ${e(it.taskId)}`,
    e(it.command),
  ]);
  const head = `\n  ${c.bold("background tasks")} (${backgroundCount(b.count, b.ended)}${b.count > b.items.length ? `, first ${b.items.length} shown` : ""})\n`;
  // The agent's word for how the task ended, as written; yellow unless the model says it ended as it should.
  return head + textTable(rows, [false, true, false, false, false], "    ", (_r, col, p) => (col === 0 && b.items[_r]?.ok !== true ? c.yellow(p) : p));
}

/** `2 tasks, 1 ended`. */
function backgroundCount(count: number, ended: number): string {
  return `${formatCount(count)} task${count === 1 ? "" : "s"}, ${formatCount(ended)} ended`;
}

function fileLists(c: Colors, files: FileOps<PathList>): string {
  let out = "";
  for (const op of ["read", "created", "edited", "deleted"] as const) {
    const p = files[op];
    if (pathCount(p) === 0) continue;
    out += `\n  ${c.bold(`files ${op}`)} (${formatCount(p.paths.length)}${p.more > 0 ? ` listed, +${formatCount(p.more)} more` : ""})\n`;
    out += p.paths.map((path) => `    ${e(path)}\n`).join("");
  }
  return out;
}

function fileCounts(f: FileOps<number>): string {
  return `read ${formatCount(f.read)}, created ${formatCount(f.created)}, edited ${formatCount(f.edited)}, deleted ${formatCount(f.deleted)}`;
}

function durationCell(it: StatsCall): string {
  return it.durationMs === undefined ? "?" : formatDuration(it.durationMs);
}

/** `Ran terminal command: npm test (failed, exit 1)`, escaped, the note coloured by tone. */
function describe(c: Colors, it: StatsCall): string {
  let s = e(it.action) + (it.target === "" ? "" : `: ${e(it.target)}`);
  if (it.note !== "") s += " " + (it.bin === "refused" ? c.yellow : c.red)(`(${e(it.note)})`);
  return s;
}

/** `2 non-zero`; `not in log` when shell commands ran and the log gives none of their exits (Gemini CLI's never does). */
export function shellExitsCell(t: StatsTotal): string {
  return t.shellCalls > 0 && t.shellExitsKnown === 0 ? "not in log" : `${formatCount(t.shellExits)} non-zero`;
}

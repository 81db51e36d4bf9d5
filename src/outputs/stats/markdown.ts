import { callSummary, formatCount, formatDuration, formatUsage, modelCost, outcomeText, pathCount, sessionCost, sessionDuration, totalCost, totalDuration, totalUsage } from "./format.js";
import { markdownText as md } from "../shared/markdown-escape.js";
import type { CallCounts, FileOps, PathList, SessionStats, StatsCall, StatsRenderer, StatsTotal } from "./types.js";

const NOT_IN_LOG = "not in log";
const ICON = { finished: "✅", error: "❌", cut_off: "⚠️" } as const;

/**
 * `cursorlog stats --format markdown`: GitHub-flavoured Markdown ready to append to
 * $GITHUB_STEP_SUMMARY — a `###` heading per session, a bullet list, tables — then a `###
 * Total` for any number of sessions but one. Every string from the log goes through
 * markdownText: no raw HTML, no cell-splitting `|`, no code spans. Each block ends with a blank line.
 */
export function toStatsMarkdown(): StatsRenderer {
  return {
    session(s) {
      let out = `### ${ICON[s.outcome]} Session ${s.index}: ${md(s.file)}, lines ${s.firstLine}–${s.lastLine}\n\n`;
      out += bullets([
        ["Outcome", md(outcomeText(s))],
        ["Model", md(s.model ?? NOT_IN_LOG)],
        ["Prompt", md(s.prompt ?? NOT_IN_LOG)],
        ["Duration", md(sessionDuration(s))],
        ["Tokens", s.usage === undefined ? NOT_IN_LOG : formatUsage(s.usage, " · ")],
        // A cost only where the log states one (Claude Code's result): cursor-agent's never does.
        ...(s.cost === undefined ? [] : [["Cost", md(sessionCost(s.cost))] as [string, string]]),
        ...(s.cost === undefined || s.cost.models.length === 0 ? [] : [["By model", s.cost.models.map((m) => md(modelCost(m, " · "))).join("; ")] as [string, string]]),
        ["Tool calls", callsText(s.calls, s.subagentCalls)],
        ["Session id", md(s.sessionId ?? NOT_IN_LOG)],
      ]);
      out += kindTable(s.calls);
      out += warningTable(s);
      out += callTable("Failed calls", s.failed.count, s.failed.items);
      out += callTable("Rejected calls", s.rejected.count, s.rejected.items);
      out += slowestTable(s.slowest);
      out += shellTable(s);
      out += filesTable(s.files);
      out += callTable("Calls still open at the end", s.open.count, s.open.items);
      out += backgroundTable(s);
      return out;
    },
    total(t) {
      if (t.sessions === 1) return "";
      let out = `### Total: ${t.sessions} session${t.sessions === 1 ? "" : "s"}\n\n`;
      if (t.sessions === 0) return out + "No events in the input.\n\n";
      out += bullets([
        ["Outcomes", outcomes(t)],
        ["Duration", md(totalDuration(t))],
        ["Tokens", md(totalUsage(t, " · "))],
        ...(t.cost === undefined ? [] : [["Cost", md(totalCost(t))] as [string, string]]),
        ["Tool calls", callsText(t.calls, t.subagentCalls)],
        ["Failed / rejected calls", `${formatCount(t.failed)} / ${formatCount(t.rejected)}`],
        ["Shell commands with a non-zero exit", t.shellCalls > 0 && t.shellExitsKnown === 0 ? "not in log" : formatCount(t.shellExits)],
        ...(t.background > 0 ? [["Background tasks", `${formatCount(t.background)}, ${formatCount(t.backgroundEnded)} ended`] as [string, string]] : []),
        ["Files", `${fileCounts(t.files)} (summed over sessions)`],
      ]);
      return out + kindTable(t.calls);
    },
  };
}

function bullets(items: Array<[string, string]>): string {
  return items.map(([k, v]) => `- **${k}:** ${v}\n`).join("") + "\n";
}

function callsText(k: CallCounts, bySubagents: number): string {
  const summary = callSummary(k);
  let s = formatCount(k.calls) + (summary === "" ? "" : ` (${summary})`);
  if (bySubagents > 0) s += `, ${formatCount(bySubagents)} by subagents`;
  if (k.byStatus.length > 0) s += "; by status: " + k.byStatus.map(([st, n]) => `${md(st)} ${formatCount(n)}`).join(", ");
  return s;
}

function outcomes(t: StatsTotal): string {
  const parts = [`${ICON.finished} ${t.finished} finished`];
  if (t.errors > 0) parts.push(`${ICON.error} ${t.errors} error`);
  if (t.cutOff > 0) parts.push(`${ICON.cut_off} ${t.cutOff} cut off`);
  return parts.join(", ");
}

function table(head: string[], right: boolean[], rows: string[][]): string {
  let out = `| ${head.join(" | ")} |\n|${right.map((r) => (r ? " ---: " : " --- ")).join("|")}|\n`;
  for (const row of rows) out += `| ${row.join(" | ")} |\n`;
  return out + "\n";
}

function kindTable(k: CallCounts): string {
  if (k.byKind.length === 0) return "";
  const rows = k.byKind.map(([kind, n]) => [md(kind), ...[n.calls, n.ok, n.failed, n.refused, n.noResult, n.open].map(formatCount)]);
  return table(["Kind", "Calls", "OK", "Failed", "Refused", "No result", "Open"], [false, true, true, true, true, true, true], rows);
}

function title(name: string, count: number, shown: number): string {
  return `**${name} (${formatCount(count)}${count > shown ? `, first ${shown} shown` : ""})**\n\n`;
}

function callTable(name: string, count: number, items: StatsCall[]): string {
  if (count === 0) return "";
  const rows = items.map((it) => [String(it.line), md(it.action), md(it.target), md(it.note || it.status)]);
  return title(name, count, items.length) + table(["Line", "Action", "Target", "Status"], [true, false, false, false], rows);
}

/** The agent CLI's warnings, each at its line. */
function warningTable(s: SessionStats): string {
  const w = s.warnings;
  if (w.count === 0) return "";
  const rows = w.items.map((it) => [String(it.line), md(it.severity ?? ""), md(it.text)]);
  return title("The agent CLI warned", w.count, w.items.length) + table(["Line", "Severity", "Warning"], [true, false, false], rows);
}

function slowestTable(items: StatsCall[]): string {
  if (items.length === 0) return "";
  const rows = items.map((it) => [it.durationMs === undefined ? "?" : formatDuration(it.durationMs), String(it.line), md(it.action), md(it.target), md(it.note || it.status)]);
  return "**Slowest calls**\n\n" + table(["Duration", "Line", "Action", "Target", "Status"], [true, true, false, false, false], rows);
}

function shellTable(s: SessionStats): string {
  const x = s.shellExits;
  if (x.count === 0) return "";
  const rows = x.items.map((it) => [String(it.line), it.exitStatus !== undefined ? String(it.exitStatus) : "", md(it.signal ?? ""), md(it.command)]);
  return title("Shell commands with a non-zero exit", x.count, x.items.length) + table(["Line", "Exit", "Signal", "Command"], [true, true, false, false], rows);
}

function backgroundTable(s: SessionStats): string {
  const b = s.background;
  if (b.count === 0) return "";
  const rows = b.items.map((it) => [
    String(it.line),
    md(it.taskId),
    it.status === undefined ? "running at the end" : md(it.status),
    it.durationMs === undefined ? "?" : formatDuration(it.durationMs),
    md(it.command),
  ]);
  const shown = b.count > b.items.length ? `, first ${b.items.length} shown` : "";
  return `**Background tasks (${formatCount(b.count)}, ${formatCount(b.ended)} ended${shown})**\n\n` + table(["Line", "Task", "Status", "Duration", "Command"], [true, false, false, true, false], rows);
}

function filesTable(files: FileOps<PathList>): string {
  const rows: string[][] = [];
  for (const op of ["read", "created", "edited", "deleted"] as const) {
    const p = files[op];
    for (const path of p.paths) rows.push([op, md(path)]);
    if (p.more > 0) rows.push([op, `… and ${formatCount(p.more)} more`]);
  }
  if (rows.length === 0) return "";
  const n = (op: keyof FileOps<PathList>) => `${op} ${formatCount(pathCount(files[op]))}`;
  return `**Files** (${n("read")}, ${n("created")}, ${n("edited")}, ${n("deleted")})\n\n` + table(["Operation", "Path"], [false, false], rows);
}

function fileCounts(f: FileOps<number>): string {
  return `read ${formatCount(f.read)}, created ${formatCount(f.created)}, edited ${formatCount(f.edited)}, deleted ${formatCount(f.deleted)}`;
}

import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";
import { escapeControls } from "../../sanitize.js";
import type { IsoTime } from "../shared/iso-time.js";
import { callRecordOf, type CallRecord } from "./call.js";
import { capText } from "./cap.js";
import { layoutCalls } from "./layout.js";
import type { HtmlCall, HtmlSession, HtmlStatusClass } from "./types.js";

/** The prompt's first line is kept up to this many characters. */
export const PROMPT_MAX = 200;
/** The run's folder is shown up to this many characters. */
export const CWD_MAX = 500;
/** The agent CLI's message (why a failed run ended) is kept up to this many characters. */
export const AGENT_MESSAGE_MAX = 2000;

/**
 * What the page keeps of a run while it is read: the run (the model: its summary facts) and one
 * small record per call, in seq order (a call still running holds its "incomplete" record until
 * it completes). The run's own calls are numbered without gaps (completions without a start
 * included: the reader's numberUnstarted), so a call's record is at its seq - 1.
 */
export interface HtmlSessionAcc {
  run: Run;
  calls: CallRecord[];
}

export function startHtmlSession(run: Run): HtmlSessionAcc {
  return { run, calls: [] };
}

/** A call started, or completed (with or without a start): its record takes its place. */
export function callHtml(acc: HtmlSessionAcc, call: Call): void {
  const at = call.seq - 1;
  const record = callRecordOf(call, acc.run.cwd);
  if (at >= 0 && at < acc.calls.length) acc.calls[at] = record;
  else acc.calls.push(record);
}

/** A background task ended: its call's bar goes on to here, drawn apart. */
export function backgroundEndHtml(acc: HtmlSessionAcc, end: BackgroundEnd): void {
  // end.call is a call of this run (the model links a task's end to its call within the run).
  const record = end.call === undefined ? undefined : acc.calls[end.call.seq - 1];
  if (record === undefined) return;
  if (end.at !== undefined) record.backgroundEndMs = end.at.ms;
  if (end.durationMs !== undefined) record.backgroundMs = end.durationMs;
}

/**
 * The session is over: its summary and its calls placed on an axis. A generator that pauses
 * (yields "") during the layout of many calls (layoutCalls).
 */
export function* finishHtmlSession(acc: HtmlSessionAcc, iso: IsoTime): Generator<"", HtmlSession> {
  const run = acc.run;
  const layout = yield* layoutCalls(acc.calls, run.start?.ms, run.end?.ms);
  linkSubagentCalls(acc.calls, layout.calls);
  let durationMs: number | null = null;
  let durationSource: HtmlSession["durationSource"] = null;
  if (run.statedDurationMs !== undefined) {
    durationMs = run.statedDurationMs;
    durationSource = "result";
  } else if (layout.axis === "time" && layout.span > 1) {
    durationMs = layout.span;
    durationSource = "timestamps";
  }
  const counts = new Map<string, number>();
  /** Each status's colour, for the legend order (the first call's of that status). */
  const classes = new Map<string, HtmlStatusClass>();
  for (const c of layout.calls) {
    counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    if (!classes.has(c.status)) classes.set(c.status, c.cls);
  }
  const rank = (status: string): number => RANKS.indexOf(classes.get(status)!);
  const subtype = run.stated?.subtype;
  return {
    index: run.index,
    file: escapeControls(run.file),
    firstLine: run.startLine,
    lastLine: run.lastLine,
    sessionId: run.sessionId === undefined ? null : escapeControls(capText(run.sessionId, 100)),
    model: run.model === undefined ? null : escapeControls(capText(run.model, 100)),
    cwd: run.cwd === undefined ? null : escapeControls(capText(run.cwd, CWD_MAX)),
    prompt: (run.prompt === undefined ? undefined : firstLine(run.prompt)) ?? null,
    // The run's start (Run.start), whether or not a call has a time: the axis starts there too when one has.
    startedAt: iso(run.start?.ms) ?? null,
    durationMs,
    durationSource,
    outcome: run.outcome === "finished" ? "finished" : run.outcome === "failed" ? "error" : "cut_off",
    words: { failed: run.words.failed, duration: run.words.duration ?? null, taskEnd: run.words.taskEnd ?? null },
    resultSubtype: typeof subtype === "string" && subtype !== "" ? escapeControls(capText(subtype, 100)) : null,
    agentMessage: run.said === undefined ? null : escapeControls(capText(`line ${run.said.line}: ${run.said.text}`, AGENT_MESSAGE_MAX)),
    axis: layout.axis,
    span: layout.span,
    lanes: layout.lanes,
    byStatus: [...counts].sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    calls: layout.calls,
  };
}

/**
 * A subagent's calls name the task call that started the subagent (CallRecord.parentId): each gets
 * that call's seq in the session (HtmlCall.parent). The parents are few: one pass finds them all.
 */
function linkSubagentCalls(records: readonly CallRecord[], calls: HtmlCall[]): void {
  let parents: Map<string, number> | undefined;
  for (const r of records) if (r.parentId !== undefined) (parents ??= new Map()).set(r.parentId, 0);
  if (parents === undefined) return;
  for (const r of records) if (parents.has(r.id)) parents.set(r.id, r.seq);
  for (let i = 0; i < records.length; i++) {
    const id = records[i]!.parentId;
    const seq = id === undefined ? 0 : parents.get(id)!;
    if (seq > 0) calls[i]!.parent = seq;
  }
}

/** Statuses are listed as the legend lists their colours; within a colour, most frequent first. */
const RANKS: readonly HtmlStatusClass[] = ["success", "failure", "refused", "error", "none", "incomplete"];

/** The first line with something on it, trimmed, escaped and capped (one scan, however long the text). */
function firstLine(text: string): string | undefined {
  const at = text.search(/\S/);
  if (at < 0) return undefined;
  const head = text.slice(at, at + PROMPT_MAX + 1);
  const end = head.search(/[\r\n]/);
  const line = end >= 0 ? head.slice(0, end) : head;
  return escapeControls(capText(line.trimEnd(), PROMPT_MAX));
}

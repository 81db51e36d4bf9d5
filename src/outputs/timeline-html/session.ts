import { BackgroundTasks, isTaskNotification } from "../../dialects/cursor/background.js";
import type { OpenCall, Session, Step } from "../../dialects/cursor/sessions.js";
import { isInit, messageText, type UserEvent } from "../../dialects/cursor/types.js";
import type { JsonRecord } from "../../input/record.js";
import { escapeControls } from "../../sanitize.js";
import type { IsoTime } from "../shared/iso-time.js";
import { callRecordOf, type CallRecord } from "./call.js";
import { capText } from "./cap.js";
import { layoutCalls } from "./layout.js";
import { statusClass } from "./status.js";
import type { HtmlSession, HtmlStatusClass } from "./types.js";

/** The prompt's first line is kept up to this many characters. */
export const PROMPT_MAX = 200;
/** The run's folder is shown up to this many characters. */
export const CWD_MAX = 500;
/** The agent CLI's message (why a failed run ended) is kept up to this many characters. */
export const AGENT_MESSAGE_MAX = 2000;

/** What the page keeps of a session while it runs: its summary fields and one record per call. */
export interface HtmlSessionAcc {
  session: Session;
  model: string | undefined;
  /** The run's folder (init's cwd): targets are shown relative to it. */
  cwd: string | undefined;
  prompt: string | undefined;
  firstTs: number | undefined;
  lastTs: number | undefined;
  /** In seq order; a call still running holds its "incomplete" record until it completes. */
  calls: CallRecord[];
  running: Map<OpenCall, number>;
  /** Background shells still running, and the index of each one's record. */
  background: BackgroundTasks;
  backgroundAt: Map<string, number>;
}

export function startHtmlSession(session: Session): HtmlSessionAcc {
  return { session, model: undefined, cwd: undefined, prompt: undefined, firstTs: undefined, lastTs: undefined, calls: [], running: new Map(), background: new BackgroundTasks(), backgroundAt: new Map() };
}

/** One event of the session (with what SessionTracker made of it) into the accumulator. */
export function observeHtml(acc: HtmlSessionAcc, step: Step, rec: JsonRecord): void {
  const ev = rec.value;
  const ts = ev.timestamp_ms;
  if (typeof ts === "number" && Number.isFinite(ts)) {
    if (acc.firstTs === undefined || ts < acc.firstTs) acc.firstTs = ts;
    if (acc.lastTs === undefined || ts > acc.lastTs) acc.lastTs = ts;
  }
  if (acc.model === undefined && isInit(ev) && typeof ev.model === "string" && ev.model !== "") {
    acc.model = escapeControls(capText(ev.model, 100));
  }
  if (acc.cwd === undefined && isInit(ev) && typeof ev.cwd === "string" && ev.cwd !== "") acc.cwd = ev.cwd;
  if (acc.prompt === undefined && ev.type === "user") acc.prompt = firstLine(messageText(ev as UserEvent));
  const open = step.started;
  if (open !== undefined) {
    const seq = acc.calls.length + 1;
    acc.running.set(open, acc.calls.length);
    acc.calls.push(callRecordOf(seq, open.callId, open, open, undefined, acc.cwd));
    return;
  }
  if (isTaskNotification(ev)) {
    // A background shell's command ended: its bar goes on to here, drawn apart.
    const end = acc.background.notified(rec);
    const at = end?.task === undefined ? undefined : acc.backgroundAt.get(end.taskId);
    const record = at === undefined ? undefined : acc.calls[at];
    if (end !== undefined && record !== undefined) {
      acc.backgroundAt.delete(end.taskId);
      if (end.endMs !== undefined) record.backgroundEndMs = end.endMs;
      if (end.durationMs !== undefined) record.backgroundMs = end.durationMs;
    }
    return;
  }
  const done = step.completed;
  if (done === undefined) return;
  let at = done.started === undefined ? undefined : acc.running.get(done.started);
  if (at === undefined) {
    at = acc.calls.length;
    acc.calls.push(callRecordOf(acc.calls.length + 1, done.callId, done.call, undefined, done.rec, acc.cwd));
  } else {
    acc.running.delete(done.started!);
    acc.calls[at] = callRecordOf(at + 1, done.callId, done.call, done.started, done.rec, acc.cwd);
  }
  const task = acc.background.completed(done);
  if (task !== undefined) acc.backgroundAt.set(task.taskId, at);
}

/**
 * The session is over: its summary and its calls placed on an axis. A generator that pauses
 * (yields "") during the layout of many calls (layoutCalls).
 */
export function* finishHtmlSession(acc: HtmlSessionAcc, iso: IsoTime): Generator<"", HtmlSession> {
  const s = acc.session;
  const layout = yield* layoutCalls(acc.calls, acc.firstTs, acc.lastTs);
  const result = s.result?.value;
  let durationMs: number | null = null;
  let durationSource: HtmlSession["durationSource"] = null;
  if (result !== undefined && typeof result.duration_ms === "number" && Number.isFinite(result.duration_ms)) {
    durationMs = result.duration_ms;
    durationSource = "result";
  } else if (layout.axis === "time" && layout.span > 1) {
    durationMs = layout.span;
    durationSource = "timestamps";
  }
  const counts = new Map<string, number>();
  for (const c of layout.calls) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const subtype = result?.subtype;
  return {
    index: s.index,
    file: escapeControls(s.file),
    firstLine: s.startLine,
    lastLine: s.lastLine,
    sessionId: s.sessionId === undefined ? null : escapeControls(capText(s.sessionId, 100)),
    model: acc.model ?? null,
    cwd: acc.cwd === undefined ? null : escapeControls(capText(acc.cwd, CWD_MAX)),
    prompt: acc.prompt ?? null,
    startedAt: iso(layout.origin) ?? null,
    durationMs,
    durationSource,
    outcome: result === undefined ? "cut_off" : result.is_error === true ? "error" : "finished",
    resultSubtype: typeof subtype === "string" && subtype !== "" ? escapeControls(capText(subtype, 100)) : null,
    agentMessage: s.said === undefined ? null : escapeControls(capText(`line ${s.said.line}: ${s.said.text}`, AGENT_MESSAGE_MAX)),
    axis: layout.axis,
    span: layout.span,
    lanes: layout.lanes,
    byStatus: [...counts].sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    calls: layout.calls,
  };
}

/** Statuses are listed as the legend lists their colours; within a colour, most frequent first. */
const RANKS: readonly HtmlStatusClass[] = ["success", "failure", "refused", "error", "none", "incomplete"];

function rank(status: string): number {
  return RANKS.indexOf(statusClass(status));
}

/** The first line with something on it, trimmed, escaped and capped (one scan, however long the text). */
function firstLine(text: string): string | undefined {
  const at = text.search(/\S/);
  if (at < 0) return undefined;
  const head = text.slice(at, at + PROMPT_MAX + 1);
  const end = head.search(/[\r\n]/);
  const line = end >= 0 ? head.slice(0, end) : head;
  return escapeControls(capText(line.trimEnd(), PROMPT_MAX));
}

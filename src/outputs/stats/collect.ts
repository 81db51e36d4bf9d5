import { BackgroundTasks, isTaskNotification } from "../../dialects/cursor/background.js";
import type { Session, Step } from "../../dialects/cursor/sessions.js";
import { isInit, isPlainObject, messageText, type UserEvent } from "../../dialects/cursor/types.js";
import type { JsonRecord } from "../../input/record.js";
import { CappedList } from "./capped-list.js";
import { categoryOf, completedEntry, durationOf, fileOpOf, openEntry, pathOf, shellExitOf, shorten, TARGET_MAX } from "./call.js";
import { PathSet } from "./path-set.js";
import { SlowestCalls } from "./slowest.js";
import { CallTally } from "./tally.js";
import type { BackgroundItem, FileOps, SessionStats, ShellExit, StatsCall, TokenUsage } from "./types.js";

export { DEFAULT_LIMITS, type StatsLimits } from "./limits.js";
import type { StatsLimits } from "./limits.js";

/** The prompt is kept to its first line, at most this many characters. */
export const PROMPT_MAX = 100;

/** The running state of one session: counters and capped lists, nothing that grows with the log. */
export interface StatsAcc {
  limits: StatsLimits;
  /** Strings are kept whole (json: a machine format carries whole values), else cut to TARGET_MAX / PROMPT_MAX for a report. */
  whole: boolean;
  model: string | undefined;
  prompt: string | undefined;
  firstTs: number | undefined;
  lastTs: number | undefined;
  tally: CallTally;
  failed: CappedList<StatsCall>;
  rejected: CappedList<StatsCall>;
  slowest: SlowestCalls;
  files: FileOps<PathSet>;
  shellExits: CappedList<ShellExit>;
  /** Background shells still running (linked to their end by task_notification), and those ended. */
  background: BackgroundTasks;
  backgroundEnded: CappedList<BackgroundItem>;
}

/** A fresh accumulator for a session that just began. */
export function startStats(limits: StatsLimits, whole = false): StatsAcc {
  return {
    limits,
    whole,
    model: undefined,
    prompt: undefined,
    firstTs: undefined,
    lastTs: undefined,
    tally: new CallTally(),
    failed: new CappedList(limits.list),
    rejected: new CappedList(limits.list),
    slowest: new SlowestCalls(limits.slowest),
    files: { read: new PathSet(limits.files), created: new PathSet(limits.files), edited: new PathSet(limits.files), deleted: new PathSet(limits.files) },
    shellExits: new CappedList(limits.list),
    background: new BackgroundTasks(),
    backgroundEnded: new CappedList(limits.list),
  };
}

/** The reducer: one event of the session (with what SessionTracker made of it) into the accumulator. */
export function collectStats(acc: StatsAcc, step: Step, rec: JsonRecord): StatsAcc {
  const ev = rec.value;
  const ts = ev.timestamp_ms;
  if (typeof ts === "number" && Number.isFinite(ts)) {
    acc.firstTs ??= ts;
    acc.lastTs = ts;
  }
  if (acc.model === undefined && isInit(ev) && typeof ev.model === "string" && ev.model !== "") acc.model = ev.model;
  if (acc.prompt === undefined && ev.type === "user") acc.prompt = acc.whole ? wholeText(messageText(ev as UserEvent)) : firstLine(messageText(ev as UserEvent));
  const max = acc.whole ? Infinity : TARGET_MAX;
  if (isTaskNotification(ev)) {
    const end = acc.background.notified(rec);
    const task = end?.task;
    if (end !== undefined && task !== undefined) {
      acc.backgroundEnded.add(() => ({ line: task.line, taskId: task.taskId, command: shorten(task.command, max), status: end.status, endLine: end.line, durationMs: end.durationMs }));
    }
  }
  const done = step.completed;
  if (done === undefined) return acc;
  acc.background.completed(done);
  const call = done.call;
  const category = categoryOf(call);
  acc.tally.count(call.kind, call.status ?? "no_result", category);
  const duration = durationOf(done);
  const entry = () => completedEntry(done, duration, max);
  if (category === "failed") acc.failed.add(entry);
  else if (category === "refused") acc.rejected.add(entry);
  if (duration !== undefined) acc.slowest.offer(duration, entry);
  const op = fileOpOf(call);
  const path = op === undefined ? "" : pathOf(call);
  if (op !== undefined && path !== "") acc.files[op].add(path);
  const exit = shellExitOf(done, max);
  if (exit !== undefined) acc.shellExits.add(() => exit);
  return acc;
}

/** The session is over (its result, the next session, the end of its file): its report. */
export function finishStats(acc: StatsAcc, s: Session): SessionStats {
  const open = new CappedList<StatsCall>(acc.limits.list);
  for (const c of s.open.values()) {
    acc.tally.count(c.kind, "incomplete", "open");
    open.add(() => openEntry(c, acc.whole ? Infinity : TARGET_MAX));
  }
  // Ended background tasks first (as they ended), then those still running when the session ended.
  const ended = acc.backgroundEnded.report();
  const count = acc.background.count;
  const background = { count, ended: acc.background.finished, items: ended.items };
  for (const t of acc.background.endSession()) {
    if (background.items.length >= acc.limits.list) break;
    background.items.push({ line: t.line, taskId: t.taskId, command: shorten(t.command, acc.whole ? Infinity : TARGET_MAX), status: undefined, endLine: undefined, durationMs: undefined });
  }
  const result = s.result?.value;
  const outcome = result === undefined ? "cut_off" : result.is_error === true ? "error" : "finished";
  let durationMs: number | undefined;
  let durationSource: SessionStats["durationSource"];
  if (result !== undefined && typeof result.duration_ms === "number" && Number.isFinite(result.duration_ms)) {
    durationMs = result.duration_ms;
    durationSource = "result";
  } else if (acc.firstTs !== undefined && acc.lastTs !== undefined && acc.lastTs !== acc.firstTs) {
    durationMs = acc.lastTs - acc.firstTs;
    durationSource = "timestamps";
  }
  return {
    index: s.index,
    file: s.file,
    firstLine: s.startLine,
    lastLine: s.lastLine,
    sessionId: s.sessionId,
    requestId: nonEmpty(result?.request_id),
    model: acc.model,
    prompt: acc.prompt,
    outcome,
    resultSubtype: nonEmpty(result?.subtype),
    agentMessage: s.said === undefined ? undefined : { ...s.said },
    durationMs,
    durationSource,
    usage: usageOf(result?.usage),
    calls: acc.tally.report(),
    failed: acc.failed.report(),
    rejected: acc.rejected.report(),
    slowest: acc.slowest.report(),
    files: { read: acc.files.read.report(), created: acc.files.created.report(), edited: acc.files.edited.report(), deleted: acc.files.deleted.report() },
    shellExits: acc.shellExits.report(),
    open: open.report(),
    background,
  };
}

/** `result.usage` with its four counters; undefined when absent or when none of them is a number. */
export function usageOf(v: unknown): TokenUsage | undefined {
  if (!isPlainObject(v)) return undefined;
  const u: TokenUsage = {
    inputTokens: count(v.inputTokens),
    outputTokens: count(v.outputTokens),
    cacheReadTokens: count(v.cacheReadTokens),
    cacheWriteTokens: count(v.cacheWriteTokens),
  };
  return Object.values(u).some((n) => n !== undefined) ? u : undefined;
}

function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The whole text, as logged; undefined when it has nothing on it. */
function wholeText(text: string): string | undefined {
  return /\S/.test(text) ? text : undefined;
}

/** The first line with something on it, trimmed and shortened (found by one scan, however long the text). */
function firstLine(text: string): string | undefined {
  const at = text.search(/\S/);
  if (at < 0) return undefined;
  const head = text.slice(at, at + PROMPT_MAX + 1);
  const end = head.search(/[\r\n]/);
  if (end >= 0) return head.slice(0, end).trimEnd();
  // No line end among the first PROMPT_MAX + 1 characters: the line is longer than we keep.
  return head.length > PROMPT_MAX ? shorten(head, PROMPT_MAX).replace(/\s+…$/, "…") : head.trimEnd();
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

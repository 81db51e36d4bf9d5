import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Cost, Run, Usage } from "../../model/run.js";
import type { CallStatus } from "../../model/status.js";
import { CappedList } from "./capped-list.js";
import { categoryOf, completedEntry, fileOpOf, openEntry, shellExitOf, shorten, TARGET_MAX } from "./call.js";
import { PathSet } from "./path-set.js";
import { SlowestCalls } from "./slowest.js";
import { CallTally } from "./tally.js";
import type { BackgroundItem, FileOps, SessionCost, SessionOutcome, SessionStats, ShellExit, StatsCall, StatsWarning, TokenUsage } from "./types.js";

export { DEFAULT_LIMITS, type StatsLimits } from "./limits.js";
import type { StatsLimits } from "./limits.js";

/** The prompt is kept to its first line, at most this many characters. */
export const PROMPT_MAX = 100;

/**
 * What stats keeps of one run while it is read: counters and capped lists, nothing that grows with
 * the log. Every fact comes from the run model (Run, Call, BackgroundEnd): this only counts and lists.
 */
export class RunStats {
  private prompt: string | undefined;
  private readonly tally = new CallTally();
  private readonly failed: CappedList<StatsCall>;
  private readonly rejected: CappedList<StatsCall>;
  private readonly slowest: SlowestCalls;
  private readonly files: FileOps<PathSet>;
  private readonly shellExits: CappedList<ShellExit>;
  private shellCalls = 0;
  private shellExitsKnown = 0;
  private readonly backgroundEnded: CappedList<BackgroundItem>;
  private readonly warnings: CappedList<StatsWarning>;
  private subagentCalls = 0;
  /** Targets and notes cut to TARGET_MAX, or whole (json). */
  private readonly max: number;

  constructor(
    private readonly limits: StatsLimits,
    /** Strings are kept whole (json: a machine format carries whole values), else cut to TARGET_MAX / PROMPT_MAX for a report. */
    private readonly whole = false,
  ) {
    this.max = whole ? Infinity : TARGET_MAX;
    this.failed = new CappedList(limits.list);
    this.rejected = new CappedList(limits.list);
    this.slowest = new SlowestCalls(limits.slowest);
    this.files = { read: new PathSet(limits.files), created: new PathSet(limits.files), edited: new PathSet(limits.files), deleted: new PathSet(limits.files) };
    this.shellExits = new CappedList(limits.list);
    this.backgroundEnded = new CappedList(limits.list);
    this.warnings = new CappedList(limits.list);
  }

  /** A warning the agent CLI wrote into the stream, at its line. */
  warning(line: number, severity: string | undefined, text: string): void {
    this.warnings.add(() => ({ line, severity, text: shorten(text, this.max) }));
  }

  /** A message of the user's: the prompt shown is the first one with something on it. */
  user(text: string): void {
    if (this.prompt === undefined) this.prompt = this.whole ? wholeText(text) : firstLine(text);
  }

  /** A call completed. */
  done(call: Call): void {
    const category = categoryOf(call.status);
    // By status: the agent's own word, as written; without one, the model's bin (`no_result` for a
    // completion without an outcome; `ok`, `failed`: an agent that writes no word, as Claude Code).
    this.tally.count(call.kind, call.arm ?? BIN_WORD[call.status], category);
    if (call.parentId !== undefined) this.subagentCalls++;
    const max = this.max;
    const entry = () => completedEntry(call, max);
    if (category === "failed") this.failed.add(entry);
    else if (category === "refused") this.rejected.add(entry);
    const duration = call.timing.durationMs;
    if (duration !== undefined) this.slowest.offer(duration, entry);
    const file = fileOpOf(call);
    if (file !== undefined && file.path !== "") this.files[file.op].add(file.path);
    const exit = shellExitOf(call, max);
    if (exit !== undefined) this.shellExits.add(() => exit);
    if (call.kind === "shell") {
      this.shellCalls++;
      if (call.exitStatus !== undefined || call.signal !== undefined) this.shellExitsKnown++;
    }
  }

  /** A background task ended: listed when its call is one of this run's. */
  backgroundEnd(end: BackgroundEnd): void {
    const call = end.call;
    if (call === undefined) return;
    this.backgroundEnded.add(() => ({ line: call.endLine ?? 0, taskId: end.taskId, command: shorten(call.target, this.max), status: end.status, ok: end.ok, endLine: end.line, durationMs: end.durationMs }));
  }

  /** The run ended (its result, the next run, the end of its file): its report. */
  finish(run: Run): SessionStats {
    const open = new CappedList<StatsCall>(this.limits.list);
    for (const c of run.eachOpenCall?.() ?? run.openCalls()) {
      this.tally.count(c.kind, "incomplete", "open");
      if (c.parentId !== undefined) this.subagentCalls++;
      open.add(() => openEntry(c, this.max));
    }
    // Ended background tasks first (as they ended), then those still running when the run ended.
    const ended = this.backgroundEnded.report();
    const background = { count: run.backgroundCount, ended: run.backgroundEnded, items: ended.items };
    const room = this.limits.list - background.items.length;
    for (const call of room > 0 ? (run.backgroundRunning?.(room) ?? []) : []) {
      background.items.push({ line: call.endLine ?? 0, taskId: call.backgroundTask ?? "", command: shorten(call.target, this.max), status: undefined, ok: false, endLine: undefined, durationMs: undefined });
    }
    const result = run.stated;
    const { durationMs, durationSource } = runDuration(run);
    return {
      index: run.index,
      file: run.file,
      firstLine: run.startLine,
      lastLine: run.lastLine,
      sessionId: run.sessionId,
      // The total adds a request's usage once.
      requestId: nonEmpty(result?.requestId),
      resultLineId: nonEmpty(result?.lineId),
      model: run.model,
      prompt: this.prompt,
      outcome: OUTCOME[run.outcome],
      words: run.words,
      resultSubtype: nonEmpty(result?.subtype),
      terminalReason: nonEmpty(result?.terminalReason),
      agentMessage: run.said === undefined ? undefined : { ...run.said },
      warnings: this.warnings.report(),
      durationMs,
      durationSource,
      usage: usageOf(run.usage),
      usageScope: run.usage?.scope,
      cost: costOf(run.cost),
      calls: this.tally.report(),
      subagentCalls: this.subagentCalls,
      failed: this.failed.report(),
      rejected: this.rejected.report(),
      slowest: this.slowest.report(),
      files: { read: this.files.read.report(), created: this.files.created.report(), edited: this.files.edited.report(), deleted: this.files.deleted.report() },
      shellExits: this.shellExits.report(),
      shellCalls: this.shellCalls,
      shellExitsKnown: this.shellExitsKnown,
      open: open.report(),
      background,
    };
  }
}

const OUTCOME: Record<Run["outcome"], SessionOutcome> = { finished: "finished", failed: "error", "cut-off": "cut_off", running: "cut_off" };

/**
 * The run's wall time: the agent's own figure when its result gives one, printed as written;
 * else from the run's start to its end (model/run.ts: the earliest and latest times its log
 * gives), marked estimated; else unknown.
 */
function runDuration(run: Run): Pick<SessionStats, "durationMs" | "durationSource"> {
  const own = run.stated?.durationMs;
  if (own !== undefined && Number.isFinite(own)) return { durationMs: own, durationSource: "result" };
  const { start, end } = run;
  if (start !== undefined && end !== undefined && end.ms !== start.ms) return { durationMs: end.ms - start.ms, durationSource: "timestamps" };
  return { durationMs: undefined, durationSource: undefined };
}

/** A status key for a call whose agent wrote no word for its outcome: its bin (model/status.ts). */
const BIN_WORD: Record<CallStatus, string> = { ok: "ok", failed: "failed", refused: "refused", "no-result": "no_result", open: "incomplete" };

/** The run's cost as its result states it, with its breakdown per model. */
function costOf(cost: Cost | undefined): SessionCost | undefined {
  if (cost === undefined) return undefined;
  const models = (cost.models ?? []).map((m) => ({
    model: m.model,
    usd: m.usd,
    usage: { inputTokens: m.inputTokens, outputTokens: m.outputTokens, cacheReadTokens: m.cacheReadTokens, cacheWriteTokens: m.cacheWriteTokens },
  }));
  return { usd: cost.usd, models };
}

/** The run's usage, its four counters; undefined when the log states none of them. */
export function usageOf(u: Usage | undefined): TokenUsage | undefined {
  if (u === undefined) return undefined;
  const t: TokenUsage = { inputTokens: u.inputTokens, outputTokens: u.outputTokens, cacheReadTokens: u.cacheReadTokens, cacheWriteTokens: u.cacheWriteTokens };
  return Object.values(t).some((n) => n !== undefined) ? t : undefined;
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

import type { AgentWords } from "../../model/run.js";
import type { CallStatus } from "../../model/status.js";

/**
 * The report `cursorlog stats` makes of one session and of the whole run: plain data, built by
 * collect.ts / total.ts and drawn by one renderer per format. Strings are exactly as
 * logged (renderers escape them); a number that the log does not give is `undefined`, never 0.
 */

/** How a call ended, in four bins: ok (success), failed, refused (rejected / permission denied), no result. */
export type StatsCategory = "ok" | "failed" | "refused" | "noResult";

/** Calls of one kind (or all kinds), by category. `open`: still running when the session ended. */
export interface KindCounts {
  calls: number;
  ok: number;
  failed: number;
  refused: number;
  noResult: number;
  open: number;
}

/** All calls of a session (or of the run): totals, per kind and per status, largest first. */
export interface CallCounts extends KindCounts {
  byKind: Array<[kind: string, counts: KindCounts]>;
  /** Result arm → calls; `no_result` for a completion without one, `incomplete` for an open call. */
  byStatus: Array<[status: string, count: number]>;
}

/** One call in a list (failed, rejected, slowest, open). */
export interface StatsCall {
  /** Line of the completed event (of the started event for an open call). */
  line: number;
  kind: string;
  /** `Ran terminal command`, `Read file`, … (what `cursorlog text` prints). */
  action: string;
  /** Path, command, pattern, URL…, shortened to TARGET_MAX characters; "" when unknown. */
  target: string;
  /** The result arm; "" when the completion has none, `incomplete` for an open call. */
  status: string;
  /** The status in words, e.g. `failed, exit 1`; "" for success. */
  note: string;
  durationMs: number | undefined;
  /** The model's bin (model/status.ts): a refused call's note is shown as a warning, a failed one's as an error. */
  bin: CallStatus;
}

/** A shell call that ended with a non-zero exit code (or a signal). */
export interface ShellExit {
  line: number;
  command: string;
  exitStatus: number | undefined;
  signal: string | undefined;
}

/** A background task of the session (Call.backgroundTask): its call, and its end (BackgroundEnd) when the log has it. */
export interface BackgroundItem {
  /** The line of the call's completion. */
  line: number;
  taskId: string;
  command: string;
  /** The agent's word for how it ended, as written; undefined when no end was seen before the session ended. */
  status: string | undefined;
  /** It ended as it should (BackgroundEnd.ok, the dialect's reading of that word); false when not seen to end. */
  ok: boolean;
  /** The line that told its end, when seen. */
  endLine: number | undefined;
  /** BackgroundEnd.durationMs: from the call's start to its end, when both times are in the log and in order. */
  durationMs: number | undefined;
}

/** A capped list: `count` is exact, `items` the first ones (at most the cap). */
/** A warning of the agent CLI's (SessionStats.warnings): its line, its severity as written (Gemini CLI's), its text. */
export interface StatsWarning {
  line: number;
  severity: string | undefined;
  text: string;
}

export interface Listed<T> {
  count: number;
  items: T[];
}

/** Distinct paths, in first-seen order, capped; `more` counts operations on paths beyond the cap. */
export interface PathList {
  paths: string[];
  more: number;
}

export interface FileOps<T> {
  read: T;
  created: T;
  edited: T;
  deleted: T;
}

/** `result.usage`, key by key; a key the log lacks is undefined. */
export interface TokenUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  cacheReadTokens: number | undefined;
  cacheWriteTokens: number | undefined;
}

/**
 * The money a session's result states (Run.cost): the session's so far (Claude Code's
 * `total_cost_usd`: cumulative over the results of one session, never to be added across them),
 * with its breakdown per model (`modelUsage`, same scope: subagents and web tools included).
 */
export interface SessionCost {
  usd: number;
  models: Array<{ model: string; usd: number | undefined; usage: TokenUsage }>;
}

/** finished: a result with is_error false; error: is_error true; cut_off: no result at all. */
export type SessionOutcome = "finished" | "error" | "cut_off";

export interface SessionStats {
  /** 1-based number of the session in the whole run. */
  index: number;
  file: string;
  firstLine: number;
  lastLine: number;
  sessionId: string | undefined;
  requestId: string | undefined;
  /** The result line's own id (ResultStated.lineId): where there is no request_id, it tells a result read twice. */
  resultLineId?: string | undefined;
  model: string | undefined;
  /** First non-blank line of the first user message, shortened to PROMPT_MAX characters. */
  prompt: string | undefined;
  outcome: SessionOutcome;
  /** The agent's own words for how its log says a run failed and where it states a duration (Run.words). */
  words: AgentWords;
  resultSubtype: string | undefined;
  /** Why the run ended, in the agent's word (Claude Code's `terminal_reason`), when its result states it. */
  terminalReason: string | undefined;
  /** The agent CLI's own message in the session (stderr merged into the log): why a failed run ended. */
  agentMessage: { line: number; text: string; more: number } | undefined;
  /** The warnings the agent CLI wrote into the stream (Notice `warning`: Gemini CLI's error events, Codex's error items), each at its line, the first `list` of them. */
  warnings: Listed<StatsWarning>;
  /** The result's own duration as written, else the run's end − its start (Run.start/end; source `timestamps`), else undefined. */
  durationMs: number | undefined;
  durationSource: "result" | "timestamps" | undefined;
  usage: TokenUsage | undefined;
  /** What the usage counts: the run (undefined too), or the thread so far (Codex's: cumulative, never summed across a thread's runs). */
  usageScope?: "run" | "thread" | undefined;
  /** The cost the result states (SessionCost), when it states one. */
  cost: SessionCost | undefined;
  calls: CallCounts;
  /** Of `calls`, those a subagent made (Call.parentId): counted with the run's, as the run's calls. */
  subagentCalls: number;
  failed: Listed<StatsCall>;
  rejected: Listed<StatsCall>;
  /** Longest first; only calls whose duration the log gives. */
  slowest: StatsCall[];
  files: FileOps<PathList>;
  shellExits: Listed<ShellExit>;
  /** Completed shell calls, and of them those whose exit code or signal the log gives (Gemini CLI's: none). */
  shellCalls: number;
  shellExitsKnown: number;
  /** Calls started and never completed, in start order. */
  open: Listed<StatsCall>;
  /** Background shells: the ended ones as they ended, then those still running at the end; `ended` counts the first. */
  background: Listed<BackgroundItem> & { ended: number };
}

export interface StatsTotal {
  sessions: number;
  finished: number;
  errors: number;
  cutOff: number;
  /** Sum of the sessions' durations that are known; how many were known, and how many of those estimated. */
  durationMs: number | undefined;
  durationSessions: number;
  durationEstimated: number;
  /** Sum over the sessions that report usage, each (session_id, request_id) once. */
  usage: TokenUsage | undefined;
  usageSessions: number;
  /** Sessions whose usage was not added: same session_id and request_id as one already counted. */
  usageRepeated: number;
  /**
   * The sessions' cost, when any states one: each session (session_id) counted once, at the
   * highest cost any of its runs states (the figure is the session's so far: it only grows), a
   * run without a session_id on its own. `runs`: the runs (sessions of this report) that state a
   * cost; `sessionIds`: the figures added.
   */
  cost: { usd: number; sessionIds: number; runs: number } | undefined;
  calls: CallCounts;
  /** Of `calls`, those subagents made. */
  subagentCalls: number;
  failed: number;
  rejected: number;
  shellExits: number;
  /** Completed shell calls, and of them those whose exit code or signal the log gives. */
  shellCalls: number;
  shellExitsKnown: number;
  /** Background shells, and how many of them were seen to end. */
  background: number;
  backgroundEnded: number;
  /** Per-session file counts, summed (a file touched in two sessions counts twice). */
  files: FileOps<number>;
}

/** What a format makes of the report; `total` is called once, at the very end. */
export interface StatsRenderer {
  session(s: SessionStats): string;
  total(t: StatsTotal): string;
}

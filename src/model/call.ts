import type { JsonObject } from "../input/record.js";
import type { CallStatus } from "./status.js";
import type { CallTiming, Stamp } from "./time.js";

/**
 * What a file-writing call did to one file, from what its log holds. The dialect reads it; outputs
 * (show --diff, diff, stats' file lists) only render it.
 */
export interface FileChange {
  op: "edit" | "create" | "delete";
  /** The path as logged (absolute in 2026 runs, relative in some older ones). */
  path: string;
  /** The whole file before the call; `null`: it did not exist; undefined: the log does not hold it. */
  before?: string | null;
  /** The whole file after the call; `null`: it no longer exists; undefined: not in the log. */
  after?: string | null;
  /** The agent's own diff of the call, when logged. */
  diffString?: string;
  /** Line counts as logged. */
  added?: number;
  removed?: number;
}

/**
 * What a read that succeeded showed of a file: its whole content when the log shows it certainly
 * whole, else why it is not taken as whole (a part asked for, numbers that say a part, text that
 * may be cut). The dialect decides; diff seeds a file's history with the content.
 */
export interface FileShown {
  /** The path as logged. */
  path: string;
  /** The whole file as the call showed it; undefined: the log does not show it whole (`why`). */
  content?: string;
  /** Why the content is not taken as the whole file, in words that follow "the Read at line N" ("showed lines 5–7 of 10"). */
  why?: string;
}

/**
 * What an edit asked to replace, as its input (told at its start) gives it: `oldString` replaced
 * by `newString`, once (it must occur once) or everywhere (`replaceAll`).
 */
export interface Replacement {
  /** The path as logged. */
  path: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/**
 * One tool call of a run, as every output sees it, whatever the agent. Each fact is decided once,
 * by the rule written beside it; a fact the log does not hold is absent, never guessed.
 *
 * A Call is handed to an output when the call starts (`status: "open"`, no end) and again, a new
 * object, when it completes or its run ends with it still open. It holds what the outputs print,
 * not the events: a run of a million open calls keeps a few hundred bytes each (the dialect keeps
 * them; an output that keeps Calls keeps what they cost).
 */
export interface Call {
  /** The call's id as the agent logged it (may hold a newline: escape it to print it). */
  readonly id: string;
  /** Its place in start order within its run, from 1 (a completion without a start: see Driver options). */
  readonly seq: number;
  /** The kind, in cursorlog's one vocabulary (Cursor's short names: `shell`, `read`, `edit`, …). */
  readonly kind: string;
  /** The tool as the agent named it (`shellToolCall`, `Bash`, a function name): printed as written. */
  readonly tool: string;
  /**
   * The tool its start named, when a start was seen (undefined: a completion alone, or an open
   * call's start itself). It differs from `tool` when the log contradicts itself: a call that
   * completes as another tool than it started as (validate reports it).
   */
  readonly startTool?: string | undefined;
  /** What `text` prints: "Ran terminal command", "Read file", … */
  readonly label: string;
  /** The call's target: its path, command, pattern, URL… ("" when none). Paths as logged. */
  readonly target: string;
  /** Whether the target ends with a path (a renderer that cuts it cuts it in its middle). */
  readonly targetIsPath: boolean;
  /** The target with each path in it rewritten by `path` (show makes them relative to the run's folder). */
  targetWith(path: (p: string) => string): string;
  readonly status: CallStatus;
  /** The agent's own word for the outcome, as written (`success`, `failure`, `rejected`, …); undefined without one. */
  readonly arm: string | undefined;
  /** Why it did not succeed, in words (`failed, exit 1`, `rejected: …`); "" for ok. `max` caps quoted text. */
  note(max?: number): string;
  /** start, end, duration: model/time.ts callTiming is the rule. */
  readonly timing: CallTiming;
  /** A shell call's exit code, when the log gives one. */
  readonly exitStatus: number | undefined;
  /** A shell call's signal, when the log gives one. */
  readonly signal: string | undefined;
  /**
   * The call ran on in the background after it completed (a background shell, a background
   * subagent): the id of the task whose end a later event tells (BackgroundEnd).
   */
  readonly backgroundTask: string | undefined;
  /** The call that started this one, for a subagent's calls; undefined for the run's own. */
  readonly parentId: string | undefined;
  /** The id of the model response that asked for the call, when logged. */
  readonly responseId: string | undefined;
  /** The lines that started and completed it (undefined: no such line). */
  readonly startLine: number | undefined;
  readonly endLine: number | undefined;
  /** The file the call changed, for a write that succeeded and whose log tells it. */
  fileChange(): FileChange | undefined;
  /** The call writes files (edit, create, delete), whether or not it succeeded. */
  readonly writesFiles: boolean;
  /**
   * For a read that succeeded, the file it showed (FileShown); undefined for any other call, or
   * when the dialect tells none. Optional: a dialect whose reads show no file content has none.
   */
  fileShown?(): FileShown | undefined;
  /**
   * For an edit that replaces a string, told at its start (its input whole): the replacement it
   * asked for; undefined otherwise (the Call told at its completion has only what its start kept).
   */
  replacement?(): Replacement | undefined;
  /**
   * What a call that did not succeed said: its stderr, else its output, else its error text (the
   * first that is not blank), and which of them it is; undefined when none. `inNote`: the call's
   * note already says it in words when it is one line (its error or reason, quoted; a refusal, a
   * time-out), so a renderer that prints the note need not print that line again.
   */
  failureText(): { text: string; from: "stderr" | "output" | "error"; inNote?: true } | undefined;
  /** The arguments as logged (an output that prints them prints them as written). Cut for an open call. */
  readonly args: JsonObject | undefined;
  /**
   * `args` (and the target made of them) are what was kept of the call's start, long strings cut:
   * an open call told from what its run kept, or a completion that logged no arguments of its own.
   * The Call told at its start (callStarted) has them whole, for an output that keeps it.
   */
  readonly argsCut?: boolean;
  /** For a call of an MCP tool: its server and tool, as logged. */
  readonly mcp?: { server: string | undefined; tool: string | undefined } | undefined;
  /** For a subagent task: what the log tells of the subagent (its id, model, whether it ran in background, its own duration). */
  readonly subagent?: Subagent | undefined;
  /** The outcome's value as logged (the result arm's object), for outputs that export it as written. */
  readonly outcome: JsonObject | undefined;
}

/** A subagent started by a task call, as its call logs it; each fact absent when not logged. */
export interface Subagent {
  agentId: string | undefined;
  /** The model the task asked for. */
  model: string | undefined;
  /** The agent said whether the subagent runs in background (as written: a boolean, or absent). */
  background: boolean | undefined;
  /** The subagent's duration as the agent reports it, ms. */
  durationMs: number | undefined;
}

/**
 * The end of a background task (a background shell's command, a background subagent), told by an
 * event after the call that started it completed.
 */
export interface BackgroundEnd {
  taskId: string;
  /** The call that started the task, when it was seen in this run. */
  call: Call | undefined;
  /** The agent's word for how it ended, as written (`success`, …). */
  status: string | undefined;
  /**
   * Whether the task ended as it should, decided by the dialect from the agent's word (cursor-agent:
   * `success`; Claude Code: `completed`); false for any other word or none.
   */
  ok: boolean;
  title: string | undefined;
  detail: string | undefined;
  line: number;
  /** When the end was told. */
  at: Stamp | undefined;
  /**
   * THE RULE: from the call's start (Call.timing.start, either clock) to the time of the line that
   * told the end, when both are in the log and in order; else none. (The end has no other clock.)
   */
  durationMs: number | undefined;
}

import type { JsonObject, JsonRecord } from "../input/record.js";
import type { BackgroundEnd, Call } from "./call.js";
import type { Stamp } from "./time.js";

/** The agent CLIs whose logs cursorlog reads (dialects/): only `cursor` has a dialect so far. */
export type AgentId = "cursor" | "claude" | "codex" | "gemini";

/**
 * How a run ended, one rule for every output:
 *
 * - `finished`: its log holds the agent's result, and the result says it succeeded;
 * - `failed`: the result says it failed (cursor-agent: `is_error: true`, whatever its subtype);
 * - `cut-off`: the run ended with no result (the log ends, or the next run begins): what the
 *   agent CLI said, if it said something (Run.said), is why;
 * - `running`: the run has not ended yet (it is being read).
 */
export type Outcome = "running" | "finished" | "failed" | "cut-off";

/**
 * The agent's own words for the facts an output names by where the log states them, each as the
 * agent writes it (outputs say "ended in error (turn.failed)", not cursor-agent's word for every
 * agent). Each dialect gives one constant set; undefined where its format has no such thing.
 */
export interface AgentWords {
  /** How its log says a run failed: `is_error: true` (cursor-agent, Claude Code), `turn.failed` (Codex), `status: "error"` (Gemini CLI). */
  readonly failed: string;
  /** The result's field a run's stated duration is read from (`duration_ms`); undefined: the format states none (Codex). */
  readonly duration: string | undefined;
  /** The line that tells a background task's end (`task_notification`); undefined: the format tells none. */
  readonly taskEnd: string | undefined;
  /** The member of its lines that holds the run's session id (`session_id`; Codex's `thread_id`). */
  readonly sessionId: string;
  /**
   * The result's field that says how the run ended beside `failed` (cursor-agent's and Claude Code's
   * `subtype`: `error_during_execution`, `error_max_turns`, …); undefined when the format has none
   * (Codex) or `failed` already is that field (Gemini CLI's `status`: its ResultStated.subtype).
   */
  readonly subtype: string | undefined;
}

/**
 * Tokens as the log states them. `scope` says what they count: the whole run (cursor-agent's and
 * Claude Code's result), or the thread so far (Codex: cumulative, never to be summed). A count the
 * log does not state is absent.
 */
export interface Usage {
  scope: "run" | "thread";
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** The usage object exactly as logged, its own field names kept. */
  raw: JsonObject;
}

/**
 * Money as the log states it, in US dollars. `scope` says what it counts: the session so far
 * (Claude Code's `total_cost_usd`, cumulative over the results of one session and carried across
 * `--resume`: two runs of one session state overlapping sums, never to be added up). Absent when the
 * log states none (cursor-agent's never does).
 */
export interface Cost {
  usd: number;
  scope: "session";
  /** The cost's breakdown per model exactly as logged (Claude Code's `modelUsage`), its own field names kept. */
  byModel?: JsonObject;
  /** The same breakdown as the dialect reads it (one entry per model, in the order logged), for an output that prints it; same scope. */
  models?: ModelCost[];
}

/** One model's share of a Cost (Claude Code's `modelUsage[model]`): each count absent when not stated. */
export interface ModelCost {
  model: string;
  usd?: number;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** What a run's result line states, read by the dialect (cursor-agent: `subtype`, `result`, `request_id`, `duration_ms`, `duration_api_ms`). */
export interface ResultStated {
  /** How the agent says the run ended (`success`, …), when a string; "" kept. */
  subtype: string | undefined;
  /** The agent's final answer, when a string. */
  text: string | undefined;
  /** The id of the request the run answered, when a string. */
  requestId: string | undefined;
  /**
   * The result line's own unique id, when the agent writes one (Claude Code's `uuid`; Cursor's
   * result has none): the same result read twice (a log passed twice) is known by it.
   */
  lineId?: string | undefined;
  /** The run's wall time and API time in ms, as stated, when numbers (any number: each output filters what it can print). */
  durationMs: number | undefined;
  apiDurationMs: number | undefined;
  /** Why the run ended, in the agent's word (Claude Code's `terminal_reason`: `completed`, `max_turns`, `api_error`, …), when a string. */
  terminalReason?: string | undefined;
}

/** A line of the agent CLI's own text (its stderr merged into the log), the first of its run; `more` counts the others. */
export interface AgentSaid {
  line: number;
  text: string;
  more: number;
}

/**
 * One run of an agent: from its first event (cursor-agent: its `system/init`, or the first event
 * of a file, or the first after a result) to its result, the next run, or the end of its file. A
 * Run is live: the dialect fills it in as its lines are read, and an output reads it when told.
 */
export interface Run {
  /** 1-based number of the run within the whole input. */
  readonly index: number;
  readonly agent: AgentId;
  /** The agent's own words for what outputs name (its dialect's constant set). */
  readonly words: AgentWords;
  readonly file: string;
  readonly startLine: number;
  /** The run's last line so far (for a run cut off: the last line before what follows it). */
  readonly lastLine: number;
  readonly sessionId: string | undefined;
  /** From the run's first line that names it (cursor-agent's init). */
  readonly model: string | undefined;
  readonly cwd: string | undefined;
  /** The agent's permission mode, from the run's first line that names it (cursor-agent's and Claude Code's init). */
  readonly permissionMode?: string | undefined;
  /** The user's prompt: the run's first user message, whole. */
  readonly prompt: string | undefined;
  /**
   * THE RULE for a run's times: its start is the earliest time its log gives (any line's time,
   * any call's own start or end), its end the latest; each absent when the log gives none. Every
   * output (show's header, stats, the traces' root span) reads them from here.
   */
  readonly start: Stamp | undefined;
  readonly end: Stamp | undefined;
  readonly outcome: Outcome;
  /** For a failed run, the agent's own message (the result's text), whole; else undefined. */
  readonly failure: string | undefined;
  /**
   * What the agent's own result states, each member as the agent wrote it (its type checked, its
   * value not): for the outputs that print those values as written. Undefined without a result.
   */
  readonly stated?: ResultStated | undefined;
  /** The agent's own result object, as logged (json prints it), once seen. */
  readonly result: JsonRecord | undefined;
  /**
   * What `json` prints for the run when the agent's result line is not an object in cursor-agent's
   * key set (Gemini CLI's `result{status, stats}`): that object, built by the dialect from the
   * run's lines, each member only when the log holds it (nothing invented: no request id, no API
   * time the log lacks). Undefined: json prints the result line (Run.result) in the dialect's
   * jsonKeyOrder. Asked only of a run with a result.
   */
  readonly resultObject?: JsonObject | undefined;
  readonly usage: Usage | undefined;
  /** The cost its result states (Cost), when it states one. */
  readonly cost?: Cost | undefined;
  /** The agent CLI's own text in this run, when it wrote some. */
  readonly said: AgentSaid | undefined;
  /** Calls started and not completed so far: those kept (openCalls) and those only counted. */
  readonly openCount: number;
  /** The open calls kept, in start order, as Calls with status `open` (the first `limit` of them). */
  openCalls(limit?: number): Call[];
  /**
   * The open calls kept, in start order, one at a time (a Call is made as each is reached): for
   * an output that goes through a run's million open calls without holding them all at once.
   */
  eachOpenCall?(): Iterable<Call>;
  /** Calls started so far (and, when the driver numbers them, completions without a start). */
  readonly startedCount: number;
  /** Background tasks started in the run, and how many of them were seen to end. */
  readonly backgroundCount: number;
  readonly backgroundEnded: number;
  /**
   * The calls whose background tasks were not seen to end (so far), in the order they completed:
   * the first `limit`. Optional: a dialect without background tasks leaves it out.
   */
  backgroundRunning?(limit?: number): Call[];
  /**
   * The run's duration as the agent's result states it (cursor-agent's), when it states one: the
   * agent's own figure, which need not be end - start (show prints it, and `about end - start`
   * without it).
   */
  readonly statedDurationMs?: number | undefined;
}

/**
 * What the agent CLI told of the run itself, not of the agent's work: its connection lost and
 * back, a request retried or resumed, a plan put to the user for approval (--mode plan: the plan
 * comes so, not as the agent's text), a request refused (a headless question skipped, a command
 * not approved). `what`: the request in words (`create plan`), "" when the log does not name it.
 */
export type Notice =
  | { kind: "reconnecting" | "retrying"; attempt: number | undefined }
  | { kind: "reconnected" | "resuming" }
  | { kind: "plan"; text: string }
  | { kind: "rejected"; what: string; reason: string | undefined }
  /**
   * A warning the agent CLI wrote into the stream that did not end the run (Gemini CLI's `error`
   * events: a loop detected, an execution blocked, turns exceeded): its text, and its severity as
   * written (`warning`, `error`) when it gives one.
   */
  | { kind: "warning"; text: string; severity: string | undefined };

/**
 * A call event of a line: `started` (status `open`); `restarted`, a start for a call still open,
 * the same call starting again (every output keeps the first start); `done`, completed (or, with
 * no start seen, a completion alone).
 */
export interface CallEvent {
  what: "started" | "restarted" | "done";
  call: Call;
}

/** What one line did to the runs: the dialect tells the driver, which tells the outputs. */
export interface Step {
  /** The run the line belongs to. */
  run: Run;
  /**
   * The line is a subagent's (Claude Code's `parent_tool_use_id`): the id of the task call that
   * started it. Its text, thinking and user message are the subagent's, not the run's own; its
   * calls name the same parent (Call.parentId). Undefined for the run's own lines.
   */
  parentId?: string | undefined;
  /** The time stamped on the line itself, ms (a time of the `event` source), when it has one. */
  at?: number;
  /** This line began its run (its first line). */
  begun?: true;
  /** The run this line closed off by beginning a new one (it is `cut-off` when it had no result). */
  ended?: Run;
  /**
   * The calls this line started, started again, or completed, in the order the line holds them:
   * one for a cursor-agent line, several for a line that holds several (Claude Code's early
   * assistant lines, several tool_use blocks; its user lines, several tool_result blocks).
   * Valid until the reader reads the next line (a dialect may reuse the array and its events):
   * the driver hands each step to the outputs before it reads on; an output that keeps an event
   * past its line keeps its `call`, not the event.
   */
  calls?: readonly CallEvent[];
  /** A background task's end. */
  backgroundEnd?: BackgroundEnd;
  /** This line is the run's result: the run ended with it. */
  result?: true;
  /**
   * Text the agent wrote to the user on this line. `delta`: a chunk of a message still streaming,
   * which a later whole message repeats (cursor-agent's --stream-partial-output: model/text.ts is
   * the rule that joins them); otherwise a whole message, or a segment of one.
   */
  text?: { text: string; delta: boolean };
  /** The agent's thinking on this line: a piece of it, and whether this line closes the phase. */
  thinking?: { text: string; done: boolean };
  /** A message of the user's (the prompt is the run's first). */
  user?: string;
  /** This line only names the run (model, cwd, …: cursor-agent's system/init): nothing happened on it. */
  init?: true;
  /** What the agent CLI told of the run itself on this line (Notice). */
  notice?: Notice;
}

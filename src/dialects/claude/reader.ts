import type { JsonObject, JsonRecord } from "../../input/record.js";
import { LineStep } from "../line-step.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { AgentSaid, AgentWords, CallEvent, Cost, ModelCost, Notice, ResultStated, Run, Step, Usage } from "../../model/run.js";
import { spanOf } from "../../model/time.js";
import { name, subtypeIs, typeIs, type RawSkip } from "../../input/raw-skip.js";
import type { Dialect, DialectReader, ReaderOptions } from "../dialect.js";
import { ClaudeCall, type ClaudeEnd, type OpenClaudeCall, type Refusal } from "./call.js";
import { contentOf, contentText, idOf, isoMs, isPlainObject, nonEmpty, parentOf } from "./lines.js";
import { recogniseClaude } from "./recognise.js";
import { PairedRun } from "../paired-run.js";
import { FIELDS_READ, keptArgs, kindOf } from "./tools.js";

/** What claude logs call the facts outputs name (model/run.ts AgentWords), as written. */
const CLAUDE_WORDS: AgentWords = { failed: "is_error: true", duration: "duration_ms", taskEnd: "task_notification", sessionId: "session_id", subtype: "subtype" };

/**
 * A run of Claude Code (`claude -p --output-format stream-json --verbose`, AGENTS §1) as the
 * model's Run: what its lines told so far. The reader (ClaudeReader) decides its boundaries.
 *
 * - model, cwd, permissionMode: from its `system/init` (the first one of the run).
 * - prompt: Claude Code's stream holds no prompt line; a user line with text of its own (a string
 *   `content` or text blocks, not only tool results) that is the run's own (no
 *   `parent_tool_use_id`) and not `isSynthetic` (a compaction summary is) is the user's message,
 *   and the run's first one is its prompt. Usually absent.
 * - start, end: the earliest and latest time its lines give (model/run.ts): the `timestamp` of its
 *   assistant and user lines (none before mid-2026), a background task's `end_time`.
 * - outcome (AGENTS §1.7, §1.9 trap 1): a result with `is_error: true` is failed whatever its
 *   subtype (`success` with an API or login error); any other result finished; no result, cut off.
 *   failure: the result's `result` text, else its `errors[]` joined by newlines.
 * - usage: the result's `usage` only (scope `run`, snake_case names), never a sum of the assistant
 *   lines' (each message's usage is repeated on each of its lines, and partial). cost: the
 *   result's `total_cost_usd` (with `modelUsage`), which is the session's so far (scope `session`).
 */
export class ClaudeRun extends PairedRun<OpenClaudeCall> implements Run {
  readonly agent = "claude" as const;
  get words(): AgentWords {
    return CLAUDE_WORDS;
  }
  sessionId: string | undefined;
  model: string | undefined;
  cwd: string | undefined;
  permissionMode: string | undefined;
  prompt: string | undefined;
  usage: Usage | undefined;
  cost: Cost | undefined;
  statedDurationMs: number | undefined;
  /** A `system/init` line was read in this run. */
  hadInit = false;
  backgroundCount = 0;
  backgroundEnded = 0;
  /** Background tasks started in this run and not seen to end: by task id, the call that started each. */
  readonly running = new Map<string, Call>();
  /** Refusals told by `system/permission_denied` lines, by tool_use_id, until the call's result. */
  readonly denied = new Map<string, Refusal>();

  protected failedResult(r: JsonRecord): boolean {
    return r.value.is_error === true;
  }

  protected callOf(open: OpenClaudeCall): Call {
    return openCallOf(open);
  }

  get failure(): string | undefined {
    const r = this.result?.value;
    if (r === undefined || r.is_error !== true) return undefined;
    if (typeof r.result === "string" && r.result !== "") return r.result;
    if (!Array.isArray(r.errors)) return undefined;
    const errors = r.errors.filter((e): e is string => typeof e === "string" && e !== "");
    return errors.length === 0 ? undefined : errors.join("\n");
  }

  /** The result line's own members (model/run.ts ResultStated); Claude Code's result has no `request_id` (read when written). */
  get stated(): ResultStated | undefined {
    const r = this.result?.value;
    if (r === undefined) return undefined;
    const s = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
    const n = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
    return { subtype: s(r.subtype), text: s(r.result), requestId: s(r.request_id), lineId: s(r.uuid), durationMs: n(r.duration_ms), apiDurationMs: n(r.duration_api_ms), terminalReason: s(r.terminal_reason) };
  }

  backgroundRunning(limit = Infinity): Call[] {
    const out: Call[] = [];
    for (const call of this.running.values()) {
      if (out.length >= limit) break;
      out.push(call);
    }
    return out;
  }
}

/** An open call (what the run kept of its start) as a Call. */
function openCallOf(open: OpenClaudeCall): Call {
  return new ClaudeCall(open.id, open.seq, open, undefined);
}

/** An empty thinking block (a signature only, as 2.1.28x writes every one): one shared piece. */
const NO_THOUGHT_DONE = Object.freeze({ text: "", done: true });

/** A result's `usage`: per run, snake_case names (AGENTS §1.6). */
function usageOf(v: unknown): Usage | undefined {
  if (!isPlainObject(v)) return undefined;
  const n = (k: string): number | undefined => {
    const x = v[k];
    return typeof x === "number" && Number.isFinite(x) ? x : undefined;
  };
  const u: Usage = { scope: "run", raw: v };
  const input = n("input_tokens");
  const output = n("output_tokens");
  const cacheRead = n("cache_read_input_tokens");
  const cacheWrite = n("cache_creation_input_tokens");
  if (input !== undefined) u.inputTokens = input;
  if (output !== undefined) u.outputTokens = output;
  if (cacheRead !== undefined) u.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) u.cacheWriteTokens = cacheWrite;
  return u;
}

/** A result's `total_cost_usd` (the session's so far), with its `modelUsage` as logged. */
function costOf(ev: JsonObject): Cost | undefined {
  const usd = ev.total_cost_usd;
  if (typeof usd !== "number" || !Number.isFinite(usd)) return undefined;
  const cost: Cost = { usd, scope: "session" };
  if (isPlainObject(ev.modelUsage)) {
    cost.byModel = ev.modelUsage;
    cost.models = modelCostsOf(ev.modelUsage);
  }
  return cost;
}

/** `modelUsage` (camelCase, per model: AGENTS §1.6) as ModelCosts, in the order logged; a member that is not an object is left out. */
function modelCostsOf(byModel: JsonObject): ModelCost[] {
  const out: ModelCost[] = [];
  for (const [model, v] of Object.entries(byModel)) {
    if (!isPlainObject(v)) continue;
    const m: ModelCost = { model };
    const n = (k: string): number | undefined => {
      const x = v[k];
      return typeof x === "number" && Number.isFinite(x) ? x : undefined;
    };
    const usd = n("costUSD");
    const input = n("inputTokens");
    const output = n("outputTokens");
    const cacheRead = n("cacheReadInputTokens");
    const cacheWrite = n("cacheCreationInputTokens");
    if (usd !== undefined) m.usd = usd;
    if (input !== undefined) m.inputTokens = input;
    if (output !== undefined) m.outputTokens = output;
    if (cacheRead !== undefined) m.cacheReadTokens = cacheRead;
    if (cacheWrite !== undefined) m.cacheWriteTokens = cacheWrite;
    out.push(m);
  }
  return out;
}

/** A SessionStart hook of a new process (`SessionStart:startup`, `:resume`, …); not `SessionStart:compact`, which a compaction fires mid-run. */
function startsSession(ev: JsonObject): boolean {
  return ev.hook_event === "SessionStart" && !(typeof ev.hook_name === "string" && ev.hook_name.endsWith(":compact"));
}

/** `task_updated`'s patch ends the task (a terminal status). */
const ENDED = new Set(["completed", "killed", "failed", "stopped"]);

/**
 * Reads Claude Code's lines into runs (AGENTS §1.7). Every line belongs to the latest run of its
 * file, unless it begins a new one; a run's lines are contiguous, as every output reads them.
 * A line begins a run when it is:
 *
 * - the first line of a file: the hook and `commands_changed` lines that may come before the init
 *   belong to the run they precede;
 * - a `system/init` after the run's result, or when the run already had its init and started no
 *   background task (a process that died without result, then another: the run before is cut
 *   off). An init while the run, before its result, has a background task is the turn the CLI
 *   starts itself when a task ends (AGENTS §1.7, `bgagent`: a second init before both results): it
 *   is part of the run;
 * - a `system/hook_started` of a SessionStart hook (not `:compact`) after the run's init or
 *   result: a new process (`SessionStart:resume` of a resumed session appended to the file);
 * - after the run's result: another `result` (the second result of one process, `result_index: 1`,
 *   is its own run: in `bgagent` both results came together at the end, so the turn the CLI
 *   started itself is read in the first run and the second run holds its result alone), or an
 *   assistant or user line of the main thread (no `parent_tool_use_id`).
 *
 * Every other line after a result stays in the run the result ended (Run.lastLine grows): a
 * background task's lines (`task_updated`, `task_notification`, `background_tasks_changed`,
 * `task_progress`), which end the tasks the run started (BackgroundEnd); a subagent's lines (its
 * `parent_tool_use_id` names a call of the run); rate-limit, thinking-token, command-list, status
 * and other system lines; `stream_event` lines (partial messages: their whole message decides).
 * A line the input skipped unread (its value a stand-in) never begins a run but as a file's first.
 *
 * Calls: a `tool_use` block of an assistant line starts one (several per line on 2.1.4–2.1.15:
 * Step.calls in block order); a `tool_result` block of a user line completes the open call of its
 * `tool_use_id` in the run. The line's `tool_use_result` describes its call when the line holds one
 * tool_result block. A refusal: a `system/permission_denied` line naming the call before its
 * result, or the result line's `tool_result_meta[].non_execution_kind`, or a failed result whose
 * text is a PreToolUse hook's block (`PreToolUse:<Tool> hook error: …`, hookBlock). (The result's
 * `permission_denials[]` comes after the calls were told: it changes no call.)
 *
 * Background tasks: a Bash call's `backgroundTaskId`, an async Agent call's `agentId` (ClaudeCall
 * backgroundTask), or a `system/task_started` with `is_backgrounded: true`. Its end is told by
 * `system/task_notification` (status as written, title its `summary`): a BackgroundEnd, in the line's
 * run, naming the call that started it, wherever that call was. A `task_notification` of a task not
 * in the background (a foreground command of a few seconds gets one before its result) tells no
 * end. The end's time: the `patch.end_time` (epoch ms) of the task's `system/task_updated` line
 * before it, the one time these lines hold, taken as the `event` time of the line that told the end
 * (model/time.ts; ReaderOptions.acceptTime asks with field `patch.end_time`); the duration counts
 * from the call's start to it (model/call.ts BackgroundEnd). Without it: no time, no duration.
 *
 * Text: an assistant line's text blocks are whole segments (delta false), its thinking blocks whole
 * pieces that close their phase (an empty one, signature only, is an empty piece); a `stream_event`
 * text_delta (`--include-partial-messages`) is a delta (model/text.ts: the consolidated assistant
 * line that follows replaces it). Other stream events (thinking and tool input deltas) tell nothing:
 * their whole blocks follow. A subagent's lines carry Step.parentId.
 *
 * Notices: `system/api_retry` is `retrying` (its `attempt`). Compaction (`system/status`) has no
 * Notice kind: nothing.
 */
class ClaudeReader implements DialectReader {
  private run: ClaudeRun | undefined;
  private count = 0;
  private pending: AgentSaid | undefined;
  /** Background tasks of the file not seen to end: by task id, the call that started it (undefined: known from task_started only). */
  private readonly tasks = new Map<string, { run: ClaudeRun; call: Call | undefined }>();
  /** The end time a `task_updated` line gave a task whose end is not told yet. */
  private readonly endTimes = new Map<string, number>();
  private readonly maxOpen: number;
  private readonly numberUnstarted: boolean;
  private readonly acceptTime: ReaderOptions["acceptTime"];
  private readonly nextRunIndex: ReaderOptions["nextRunIndex"];

  constructor(opts: ReaderOptions) {
    this.maxOpen = opts.maxOpen ?? Infinity;
    this.numberUnstarted = opts.numberUnstarted === true;
    this.acceptTime = opts.acceptTime;
    this.nextRunIndex = opts.nextRunIndex;
  }

  read(rec: JsonRecord): Step {
    const ev = rec.value;
    let run = this.run;
    let ended: ClaudeRun | undefined;
    let begun = false;
    if (run === undefined || run.file !== rec.file || this.begins(run, rec)) {
      ended = run !== undefined && run.file === rec.file ? run : undefined;
      if (ended !== undefined && ended.result === undefined) {
        // Its lines run up to the one before this (lines a command skipped unread included).
        ended.lastLine = Math.max(ended.lastLine, rec.line - 1);
        ended.endCut();
      }
      run = this.run = new ClaudeRun(this.nextRunIndex?.() ?? ++this.count, rec.file, rec.line);
      begun = true;
      if (this.pending !== undefined) {
        run.said = this.pending;
        this.pending = undefined;
      }
    }
    run.lastLine = rec.lastLine ?? rec.line;
    if (run.sessionId === undefined && typeof ev.session_id === "string") run.sessionId = ev.session_id;
    const step = new LineStep(run);
    if (begun) step.begun = true;
    if (ended !== undefined) step.ended = ended;
    const ts = this.timeOf(isoMs(ev.timestamp), "timestamp", rec.line, run);
    run.time(ts);
    step.at = ts;
    const parent = parentOf(ev);
    if (parent !== undefined) step.parentId = parent;
    switch (ev.type) {
      case "system":
        this.system(run, rec, step);
        break;
      case "assistant":
        this.assistant(run, rec, step, ts, parent);
        break;
      case "user":
        this.user(run, rec, step, ts, parent);
        break;
      case "stream_event": {
        const e = ev.event;
        if (isPlainObject(e) && e.type === "content_block_delta" && isPlainObject(e.delta) && e.delta.type === "text_delta" && typeof e.delta.text === "string") {
          step.text = { text: e.delta.text, delta: true };
        }
        break;
      }
      case "result":
        if (run.result === undefined) {
          run.result = rec;
          step.result = true;
          run.usage = usageOf(ev.usage);
          run.cost = costOf(ev);
          const d = ev.duration_ms;
          if (typeof d === "number" && Number.isFinite(d) && d >= 0) run.statedDurationMs = d;
        }
        break;
    }
    return step;
  }

  /** Whether this line begins a new run of the file (see the class's comment). */
  private begins(run: ClaudeRun, rec: JsonRecord): boolean {
    const ev = rec.value;
    const type = ev.type;
    if (type === "system") {
      if (ev.subtype === "init") return run.result !== undefined || (run.hadInit && run.backgroundCount === 0);
      if (ev.subtype === "hook_started" && startsSession(ev)) return run.result !== undefined || run.hadInit;
      return false;
    }
    if (run.result === undefined || rec.skipped === true) return false;
    if (type === "result") return true;
    return (type === "assistant" || type === "user") && parentOf(ev) === undefined;
  }

  /** A time as logged, unless ReaderOptions.acceptTime refuses it. */
  private timeOf(ms: number | undefined, field: string, line: number, run: ClaudeRun): number | undefined {
    return ms === undefined || this.acceptTime === undefined || this.acceptTime(ms, field, line, run) ? ms : undefined;
  }

  private system(run: ClaudeRun, rec: JsonRecord, step: LineStep): void {
    const ev = rec.value;
    switch (ev.subtype) {
      case "init":
        step.init = true;
        run.hadInit = true;
        run.model ??= nonEmpty(ev.model);
        run.cwd ??= nonEmpty(ev.cwd);
        run.permissionMode ??= nonEmpty(ev.permissionMode);
        break;
      case "api_retry":
        step.notice = { kind: "retrying", attempt: typeof ev.attempt === "number" && Number.isFinite(ev.attempt) ? ev.attempt : undefined };
        break;
      case "permission_denied": {
        const id = nonEmpty(ev.tool_use_id);
        if (id !== undefined) run.denied.set(id, { word: nonEmpty(ev.decision_reason_type) ?? "permission_denied", message: nonEmpty(ev.message), tool: nonEmpty(ev.tool_name) });
        break;
      }
      case "task_started": {
        const id = idOf(ev.task_id);
        if (id !== undefined && ev.is_backgrounded === true && !this.tasks.has(id)) this.tasks.set(id, { run, call: undefined });
        break;
      }
      case "task_updated": {
        const id = idOf(ev.task_id);
        const patch = ev.patch;
        if (id === undefined || !isPlainObject(patch) || typeof patch.status !== "string" || !ENDED.has(patch.status)) break;
        const at = patch.end_time;
        if (typeof at !== "number" || !Number.isFinite(at)) break;
        const ms = this.timeOf(at, "patch.end_time", rec.line, run);
        if (ms === undefined) break;
        run.time(ms);
        this.endTimes.set(id, ms);
        break;
      }
      case "task_notification": {
        const end = this.backgroundEnd(rec, step.at);
        if (end !== undefined) step.backgroundEnd = end;
        break;
      }
    }
  }

  /** The end of a background task (class comment), or undefined for a task not known to run in the background. */
  private backgroundEnd(rec: JsonRecord, lineMs: number | undefined): BackgroundEnd | undefined {
    const ev = rec.value;
    const taskId = idOf(ev.task_id);
    if (taskId === undefined) return undefined;
    const known = this.tasks.get(taskId);
    if (known === undefined) return undefined;
    this.tasks.delete(taskId);
    const call = known.call;
    if (call !== undefined && known.run.running.delete(taskId)) known.run.backgroundEnded++;
    const endMs = this.endTimes.get(taskId) ?? lineMs;
    this.endTimes.delete(taskId);
    return {
      taskId,
      call,
      status: nonEmpty(ev.status),
      ok: ev.status === "completed",
      title: nonEmpty(ev.summary),
      detail: undefined,
      line: rec.line,
      at: endMs === undefined ? undefined : { ms: endMs, from: "event" },
      durationMs: spanOf(call?.timing.start?.ms, endMs),
    };
  }

  private assistant(run: ClaudeRun, rec: JsonRecord, step: LineStep, ts: number | undefined, parent: string | undefined): void {
    const blocks = contentOf(rec.value);
    if (!Array.isArray(blocks)) return;
    const msg = rec.value.message as JsonObject;
    const modelCallId = nonEmpty(msg.id);
    let text: string | undefined;
    let thinking: string | undefined;
    let calls: CallEvent[] | undefined;
    for (const b of blocks) {
      if (!isPlainObject(b)) continue;
      if (b.type === "text") {
        if (typeof b.text === "string") text = (text ?? "") + b.text;
      } else if (b.type === "thinking") {
        thinking = (thinking ?? "") + (typeof b.thinking === "string" ? b.thinking : "");
      } else if (b.type === "tool_use") {
        const e = this.started(run, rec, b, ts, parent, modelCallId);
        if (e !== undefined) (calls ??= []).push(e);
      }
    }
    if (text !== undefined) step.text = { text, delta: false };
    if (thinking !== undefined) step.thinking = thinking === "" ? NO_THOUGHT_DONE : { text: thinking, done: true };
    if (calls !== undefined) step.calls = calls;
  }

  /** A tool_use block: a call started (or started again while open; past maxOpen, only counted). */
  private started(run: ClaudeRun, rec: JsonRecord, b: JsonObject, ts: number | undefined, parent: string | undefined, modelCallId: string | undefined): CallEvent | undefined {
    const id = nonEmpty(b.id);
    if (id === undefined) return undefined;
    const first = run.open.get(id);
    if (first !== undefined) return { what: "restarted", call: openCallOf(first) };
    const { seq, kept } = run.begin(this.maxOpen);
    if (!kept) return undefined;
    const tool = nonEmpty(b.name) ?? "unknown";
    const kind = kindOf(tool);
    const input = isPlainObject(b.input) ? b.input : undefined;
    const open: OpenClaudeCall = { id, seq, line: rec.line, tool, kind, args: keptArgs(kind, input), ms: ts, parentId: parent, modelCallId };
    run.open.set(id, open);
    return { what: "started", call: new ClaudeCall(id, seq, open, undefined, input) };
  }

  private user(run: ClaudeRun, rec: JsonRecord, step: LineStep, ts: number | undefined, parent: string | undefined): void {
    const ev = rec.value;
    const content = contentOf(ev);
    let said: string | undefined;
    if (typeof content === "string") said = content;
    else if (Array.isArray(content)) {
      let results = 0;
      for (const b of content) if (isPlainObject(b) && b.type === "tool_result") results++;
      const kinds = results > 0 ? nonExecutionKinds(ev.tool_result_meta) : undefined;
      let calls: CallEvent[] | undefined;
      for (const b of content) {
        if (!isPlainObject(b)) continue;
        if (b.type === "text" && typeof b.text === "string") said = (said ?? "") + b.text;
        else if (b.type === "tool_result") {
          const e = this.done(run, rec, b, ts, parent, results === 1, kinds);
          if (e !== undefined) (calls ??= []).push(e);
        }
      }
      if (calls !== undefined) step.calls = calls;
    }
    if (said !== undefined && ev.isSynthetic !== true) {
      step.user = said;
      if (parent === undefined && said !== "") run.prompt ??= said;
    }
  }

  /** A tool_result block: the call of its tool_use_id completed (or, with no start in the run, a result alone). */
  private done(run: ClaudeRun, rec: JsonRecord, b: JsonObject, ts: number | undefined, parent: string | undefined, alone: boolean, kinds: Map<string, string | undefined> | undefined): CallEvent | undefined {
    const id = nonEmpty(b.tool_use_id);
    if (id === undefined) return undefined;
    const ev = rec.value;
    const start = run.answer(id);
    const seq = start?.seq ?? (this.numberUnstarted ? ++run.startedCount : 0);
    const denied = run.denied.get(id);
    if (denied !== undefined) run.denied.delete(id);
    const word = kinds?.get(id);
    const isError = b.is_error === true;
    const content = contentText(b.content);
    const refusal: Refusal | undefined = word !== undefined ? { word, message: denied?.message, tool: denied?.tool } : (denied ?? hookBlock(isError, content));
    const end: ClaudeEnd = {
      line: rec.line,
      ms: ts,
      isError,
      content,
      result: alone ? ev.tool_use_result : undefined,
      refusal,
      parentId: parent,
    };
    const call = new ClaudeCall(id, seq, start, end);
    const task = call.backgroundTask;
    if (task !== undefined) {
      run.running.set(task, call);
      run.backgroundCount++;
      this.tasks.set(task, { run, call });
    }
    return { what: "done", call };
  }

  said(file: string, line: number, text: string): Run | undefined {
    const r = this.run;
    if (r !== undefined && r.result === undefined && r.file === file) {
      if (r.said === undefined) r.said = { line, text, more: 0 };
      else r.said.more++;
      r.lastLine = Math.max(r.lastLine, line);
      return r;
    }
    if (this.pending === undefined) this.pending = { line, text, more: 0 };
    else this.pending.more++;
    return undefined;
  }

  endFile(lastLine: number): Run | undefined {
    const run = this.run;
    this.run = undefined;
    this.tasks.clear();
    this.endTimes.clear();
    if (run === undefined) return undefined;
    if (run.result === undefined) {
      run.lastLine = Math.max(run.lastLine, lastLine);
      run.endCut();
    }
    return run;
  }

  unclaimed(): AgentSaid | undefined {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }
}

/** A PreToolUse hook's block as the tool_result words it since 2.1.283 (AGENTS §1.3 Denial): `PreToolUse:Edit hook error: <reason>`. */
const HOOK_BLOCK = /^PreToolUse:\S+ hook error: /;

/**
 * The refusal a failed tool_result's text tells when it is a PreToolUse hook's block (no other
 * line says so: no `system/permission_denied`, no `tool_result_meta`), its word the hook's event
 * (`PreToolUse`), its message the text as written; undefined for any other result. On 2.1.220 the
 * text is the hook's reason alone: such a call stays failed.
 */
function hookBlock(isError: boolean, content: string | undefined): Refusal | undefined {
  return isError && content !== undefined && HOOK_BLOCK.test(content) ? { word: "PreToolUse", message: undefined, tool: undefined } : undefined;
}

/**
 * The `non_execution_kind` a line's `tool_result_meta` gives each call id (it did not run: a
 * permission rule, …), the first entry for an id deciding; undefined without entries. Made once a
 * line: a 2.1.15 user line answers any number of calls, each looked up in it.
 */
function nonExecutionKinds(meta: unknown): Map<string, string | undefined> | undefined {
  if (!Array.isArray(meta)) return undefined;
  let kinds: Map<string, string | undefined> | undefined;
  for (const m of meta) {
    if (!isPlainObject(m) || typeof m.id !== "string") continue;
    kinds ??= new Map();
    if (!kinds.has(m.id)) kinds.set(m.id, nonEmpty(m.non_execution_kind));
  }
  return kinds;
}

const SYSTEM = name("system");
/** Stand-ins of skipped system lines: their subtype is known (a string answer must follow from the type alone: input/raw-skip.ts). */
const SKIPPED_SUBTYPES = ["commands_changed", "thinking_tokens"].map((s) => ({ name: name(s), standIn: Object.freeze({ type: "system", subtype: s }) }));

/**
 * Lines no output needs (AGENTS §1.2, §1.9 trap 5): whole types `rate_limit_event`, `tool_progress`
 * heartbeats, and `stream_event` partial messages unless the agent's text is needed; and the system
 * lines `commands_changed` (15–21 KB, repeated) and `thinking_tokens` (estimates), each standing in
 * as `{type: "system", subtype}`. Assistant and user lines are always read: they hold the calls,
 * and the thinking, text and user messages with them.
 */
function skipUnread(needs: { thinking?: boolean; user?: boolean; text?: boolean }): RawSkip {
  const types = ["rate_limit_event", "tool_progress"];
  if (needs.text !== true) types.push("stream_event");
  const names = types.map(name);
  return {
    test(line) {
      for (let n = 0; n < names.length; n++) if (typeIs(line, names[n]!)) return types[n];
      if (!typeIs(line, SYSTEM)) return undefined;
      for (const s of SKIPPED_SUBTYPES) if (subtypeIs(line, s.name)) return s.standIn;
      return undefined;
    },
  };
}

/**
 * Claude Code's `claude -p --output-format stream-json --verbose` (AGENTS §1).
 *
 * No `callLineTypes`: a call starts in an `assistant` line, is answered in a `user` line and may be
 * refused by a `system/permission_denied` line before that, so no line type alone tells a call:
 * filter's --tool and --status select Claude Code's calls through the run model (Step.calls).
 */
export const claudeDialect: Dialect = {
  agent: "claude",
  name: "Claude Code stream-json",
  writtenBy: "claude -p --output-format stream-json --verbose",
  recognise: recogniseClaude,
  reader: (opts: ReaderOptions) => new ClaudeReader(opts),
  skipUnread,
  callLineTypes: undefined,
  linesAfterResult: true,
  runEndTypes: ["result"],
  schemaEntryId: "https://cursorlog.dev/schemas/claude-code/claude-code-event.schema.json",
  // Claude Code runs Anthropic's models (through Anthropic's API, or Bedrock or Vertex AI: the stream does not say which).
  genAi: { agent: "claude-code", provider: "anthropic" },
  fieldsRead: FIELDS_READ,
  // No fileFieldsRead: fileChange reads whole files and patch hunks (originalFile, content,
  // structuredPatch[].lines, …); an output that reads file changes parses tool calls whole.
};

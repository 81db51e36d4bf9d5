import type { JsonObject, JsonRecord } from "../../input/record.js";
import { LineStep } from "../line-step.js";
import type { Call } from "../../model/call.js";
import type { AgentWords, CallEvent, ResultStated, Run, Step, Usage } from "../../model/run.js";
import { PairedRun } from "../paired-run.js";
import { RunSlot } from "../run-slot.js";
import type { Dialect, DialectReader, ReaderOptions } from "../dialect.js";
import { CodexCall, type CodexEnd, type OpenCodexCall } from "./call.js";
import { argsOf, changeKind, FIELDS_READ, isCall, isPlainObject, kindOf, nonEmpty, toolOf } from "./items.js";
import { recogniseCodex } from "./recognise.js";

/**
 * The object `cursorlog json` prints for a Codex run, built from its stream (Codex's `exec --json`
 * has no result line): cursor-agent's keys in cursor-agent's order, those the stream can fill only.
 */
const JSON_KEY_ORDER = ["type", "subtype", "is_error", "result", "session_id", "usage"] as const;

/** What codex logs call the facts outputs name (model/run.ts AgentWords), as written. */
const CODEX_WORDS: AgentWords = { failed: "turn.failed", duration: undefined, taskEnd: undefined, sessionId: "thread_id", subtype: undefined };

/**
 * A run of Codex (`codex exec --json`, AGENTS §2) as the model's Run: one process's thread, from
 * its `thread.started` (or its file's first line) to its `turn.completed` or `turn.failed`.
 *
 * - sessionId: the `thread_id` (a resumed thread's runs share it); model, cwd, prompt, times:
 *   absent, Codex writes none (§2.1, §2.4).
 * - outcome: `turn.completed` finished; `turn.failed` failed, its `error.message` the failure; no
 *   terminal event, cut off (§2.7: even when the process exited 0).
 * - usage: the terminal `turn.completed`'s `usage`, the thread's total so far (scope `thread`:
 *   cumulative across resumed processes, never to be summed; nested: `input_tokens` includes
 *   `cached_input_tokens` and `cache_write_input_tokens`, `output_tokens` includes
 *   `reasoning_output_tokens`, §2.6), Codex's own names kept in `raw`.
 * - result: no line of the log; the object `json` prints, built at the terminal event (JSON_KEY_ORDER):
 *   `result` the text of the run's last `agent_message` ("" when it wrote none), `session_id` the
 *   thread id, `is_error` true for `turn.failed`, `subtype` `success` or `error` (cursor-agent's
 *   words), `usage` as logged. No duration, no request id: the stream has none.
 * - said: the CLI's own text lines in the run (its stderr merged into the log): the first kept, the
 *   others counted. Its `error` items and top-level `error` events are not among them: each is a
 *   notice of its own line (CodexReader).
 */
export class CodexRun extends PairedRun<OpenCodexCall> implements Run {
  readonly agent = "codex" as const;
  get words(): AgentWords {
    return CODEX_WORDS;
  }
  sessionId: string | undefined;
  readonly model = undefined;
  readonly cwd = undefined;
  readonly prompt = undefined;
  usage: Usage | undefined;
  /** A `thread.started` or `turn.started` was read in this run. */
  hadThread = false;
  hadTurn = false;
  /** The text of the run's last `agent_message`. */
  lastMessage: string | undefined;
  /** The `turn.failed` that ended it: its error's message ("" when it has none). */
  failedWith: string | undefined;
  readonly backgroundCount = 0;
  readonly backgroundEnded = 0;


  /** Codex writes no result line: the run failed when it ended with turn.failed. */
  protected failedResult(): boolean {
    return this.failedWith !== undefined;
  }

  protected callOf(open: OpenCodexCall): Call {
    return openCallOf(open);
  }

  get failure(): string | undefined {
    return this.failedWith === undefined || this.failedWith === "" ? undefined : this.failedWith;
  }

  /** Codex states no subtype, duration or request id; its final answer is its last message (of a run that did not fail). */
  get stated(): ResultStated | undefined {
    if (this.result === undefined) return undefined;
    return { subtype: undefined, text: this.failedWith === undefined ? this.lastMessage : undefined, requestId: undefined, durationMs: undefined, apiDurationMs: undefined };
  }

}

function openCallOf(open: OpenCodexCall): Call {
  return new CodexCall(open.id, open.seq, open, undefined);
}

/**
 * `turn.completed.usage`: the thread's so far, Codex's names kept in `raw` (AGENTS §2.6). Its
 * categories are nested: `input_tokens` holds `cached_input_tokens` and `cache_write_input_tokens`
 * (as cursor-agent's and Claude Code's input counts do not), so the model's inputTokens, the input
 * neither read from nor written to the cache, is `input_tokens` less those two (the guide's rule:
 * subtract subsets, sum nothing); absent when `cached_input_tokens` is not stated or the difference
 * would be negative. `output_tokens` holds `reasoning_output_tokens`, as Claude Code's holds its
 * thinking: kept as stated.
 */
function usageOf(v: unknown): Usage | undefined {
  if (!isPlainObject(v)) return undefined;
  const n = (k: string): number | undefined => {
    const x = v[k];
    return typeof x === "number" && Number.isFinite(x) ? x : undefined;
  };
  const u: Usage = { scope: "thread", raw: v };
  const all = n("input_tokens");
  const output = n("output_tokens");
  const cacheRead = n("cached_input_tokens");
  const cacheWrite = n("cache_write_input_tokens");
  const input = all === undefined || cacheRead === undefined ? undefined : all - cacheRead - (cacheWrite ?? 0);
  if (input !== undefined && input >= 0) u.inputTokens = input;
  if (output !== undefined) u.outputTokens = output;
  if (cacheRead !== undefined) u.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) u.cacheWriteTokens = cacheWrite;
  return u;
}

/** "Reconnecting... 2/5" (a top-level `error` before a retry, AGENTS §2.7): its attempt. */
const RECONNECTING = /^Reconnecting\.\.\. (\d{1,9})\/\d{1,9}$/;

/** One call of an item: a file_change is one per change (AGENTS §4), any other call item one. */
interface Part {
  id: string;
  kind: string;
  change: JsonObject | undefined;
}

/**
 * The calls of a call item: its `item.id`; for a file_change of several changes, one per change,
 * the first with the item's id and the next with `#2`, `#3`, … after it (a change has no id of
 * its own in the log), each of its change's kind (`add` write, `update` edit, `delete` delete).
 */
function partsOf(item: JsonObject, id: string): Part[] {
  if (item.type !== "file_change") return [{ id, kind: kindOf(item), change: undefined }];
  const changes = Array.isArray(item.changes) ? item.changes : [];
  if (changes.length === 0) return [{ id, kind: "edit", change: undefined }];
  return changes.map((c, k) => {
    const change = isPlainObject(c) ? c : undefined;
    return { id: k === 0 ? id : `${id}#${k + 1}`, kind: changeKind(change?.kind), change };
  });
}

/**
 * Reads Codex's lines into runs (AGENTS §2). A line begins a run when it is the first of its file,
 * when the run before it has ended (its `turn.completed` or `turn.failed`), or when it is a
 * `thread.started` in a run that already had one or a `turn.started` (a new process: the run before
 * is cut off). A run begun by a `turn.started` after a terminal event (another turn of the same
 * process) keeps the thread id of the run before it.
 *
 * Calls (§2.3): an item.started of a call item (items.ts isCall: any item but a message, reasoning,
 * a plan or an error; one of a type cursorlog has no word for is "Used tool <type>") starts it (an item.updated too, when its
 * start was not seen), and the item.completed of the same `item.id` in the run completes it; an
 * item.updated of an open call (a to-do list's progress) tells no call event: the call keeps the
 * item as it is now; ids restart at `item_0` in each
 * process, so two runs never pair. An item told by item.completed only (a file_change before
 * 0.149, a declined command) starts and completes on that line. A web_search's `id` is written
 * twice: the value JSON.parse keeps (the last, the search's own) is its id, in both its frames.
 *
 * Messages: an `agent_message` is the agent's text (whole), a `reasoning` its thinking. An `error`
 * item and a top-level `error` are warnings of the run, not its end (§2.2, §2.9 trap 4): each a
 * `warning` notice of its own line, as Gemini CLI's `error` events are (Codex writes no severity);
 * a top-level "Reconnecting... N/M" (a retry before the turn goes on or fails, §2.7) is a
 * `reconnecting` notice instead.
 */
class CodexReader extends RunSlot<CodexRun> implements DialectReader {
  private count = 0;
  private readonly maxOpen: number;
  private readonly nextRunIndex: ReaderOptions["nextRunIndex"];

  constructor(opts: ReaderOptions) {
    super();
    this.maxOpen = opts.maxOpen ?? Infinity;
    this.nextRunIndex = opts.nextRunIndex;
  }

  read(rec: JsonRecord): Step {
    const ev = rec.value;
    let run = this.run;
    let ended: CodexRun | undefined;
    let begun = false;
    if (run === undefined || run.file !== rec.file || this.begins(run, ev)) {
      ended = run !== undefined && run.file === rec.file ? run : undefined;
      if (ended !== undefined && ended.result === undefined) {
        ended.lastLine = Math.max(ended.lastLine, rec.line - 1);
        ended.endCut();
      }
      run = this.run = new CodexRun(this.nextRunIndex?.() ?? ++this.count, rec.file, rec.line);
      begun = true;
      // Another turn of the same process (no thread.started of its own): the same thread.
      if (ended !== undefined && ended.result !== undefined && ev.type === "turn.started") run.sessionId = ended.sessionId;
      if (this.pending !== undefined) {
        run.said = this.pending;
        this.pending = undefined;
      }
    }
    run.lastLine = rec.lastLine ?? rec.line;
    const step = new LineStep(run);
    if (begun) step.begun = true;
    if (ended !== undefined) step.ended = ended;
    switch (ev.type) {
      case "thread.started":
        run.hadThread = true;
        step.init = true;
        if (typeof ev.thread_id === "string") run.sessionId = ev.thread_id;
        break;
      case "turn.started":
        run.hadTurn = true;
        // A turn that begins a run (another turn of the process, after a terminal event) opens it, as thread.started does.
        if (begun) step.init = true;
        break;
      case "item.started":
      case "item.updated":
      case "item.completed":
        this.item(run, rec, step);
        break;
      case "error": {
        if (typeof ev.message !== "string") break;
        const m = RECONNECTING.exec(ev.message);
        step.notice = m !== null ? { kind: "reconnecting", attempt: Number(m[1]) } : { kind: "warning", text: ev.message, severity: undefined };
        break;
      }
      case "turn.completed":
      case "turn.failed":
        if (run.result === undefined) this.terminal(run, rec, step);
        break;
    }
    return step;
  }

  /** Whether this line begins a new run of the file (see the class's comment). */
  private begins(run: CodexRun, ev: JsonObject): boolean {
    if (run.result !== undefined) return true;
    return ev.type === "thread.started" && (run.hadThread || run.hadTurn);
  }

  /** turn.completed or turn.failed: the run ends, its result object built (CodexRun). */
  private terminal(run: CodexRun, rec: JsonRecord, step: LineStep): void {
    const ev = rec.value;
    const failed = ev.type === "turn.failed";
    if (failed) {
      const err = ev.error;
      run.failedWith = isPlainObject(err) && typeof err.message === "string" ? err.message : "";
    } else run.usage = usageOf(ev.usage);
    const obj: JsonObject = { type: "result", subtype: failed ? "error" : "success", is_error: failed, result: run.lastMessage ?? "" };
    if (run.sessionId !== undefined) obj.session_id = run.sessionId;
    if (!failed && isPlainObject(ev.usage)) obj.usage = ev.usage;
    run.result = { file: rec.file, line: rec.line, text: JSON.stringify(obj), value: obj };
    step.result = true;
  }

  private item(run: CodexRun, rec: JsonRecord, step: LineStep): void {
    const ev = rec.value;
    const item = ev.item;
    if (!isPlainObject(item) || typeof item.type !== "string") return;
    const completed = ev.type === "item.completed";
    switch (item.type) {
      case "agent_message":
        if (completed && typeof item.text === "string") {
          step.text = { text: item.text, delta: false };
          run.lastMessage = item.text;
        }
        return;
      case "reasoning":
        if (completed && typeof item.text === "string") step.thinking = { text: item.text, done: true };
        return;
      case "error":
        // A warning of the run (a configuration notice, a model reroute), not a failure (§2.9 trap 4).
        if (completed && typeof item.message === "string") step.notice = { kind: "warning", text: item.message, severity: undefined };
        return;
    }
    if (!isCall(item.type)) return;
    const id = nonEmpty(item.id);
    if (id === undefined) return;
    const tool = toolOf(item);
    const calls: CallEvent[] = [];
    const updated = ev.type === "item.updated";
    for (const part of partsOf(item, id)) {
      if (completed) this.done(run, rec, item, tool, part, calls);
      else if (updated && this.updated(run, item, part)) continue;
      else this.started(run, rec, item, tool, part, calls);
    }
    if (calls.length > 0) step.calls = calls;
  }

  /** item.updated of an open call: what it keeps is the item's as it is now (a to-do list's items); no call event. False when the call is not open. */
  private updated(run: CodexRun, item: JsonObject, part: Part): boolean {
    const open = run.open.get(part.id);
    if (open === undefined) return run.untracked > 0;
    open.args = argsOf(item, part.kind, part.change, true);
    return true;
  }

  /** A start (item.started, or item.updated of a call not seen to start): started, or started again while open; past maxOpen, only counted. */
  private started(run: CodexRun, rec: JsonRecord, item: JsonObject, tool: string, part: Part, calls: CallEvent[]): OpenCodexCall | undefined {
    const first = run.open.get(part.id);
    if (first !== undefined) {
      calls.push({ what: "restarted", call: openCallOf(first) });
      return first;
    }
    const { seq, kept } = run.begin(this.maxOpen);
    if (!kept) return undefined;
    const open: OpenCodexCall = { id: part.id, seq, line: rec.line, tool, kind: part.kind, args: argsOf(item, part.kind, part.change, true) };
    run.open.set(part.id, open);
    calls.push({ what: "started", call: new CodexCall(part.id, seq, open, undefined, argsOf(item, part.kind, part.change, false)) });
    return open;
  }

  /** item.completed: the open call of its id completed; with none, the item starts and completes on this line. */
  private done(run: CodexRun, rec: JsonRecord, item: JsonObject, tool: string, part: Part, calls: CallEvent[]): void {
    let start = run.open.get(part.id);
    if (start !== undefined) run.open.delete(part.id);
    else if (run.untracked > 0) run.untracked--;
    else {
      start = this.started(run, rec, item, tool, part, calls);
      if (start !== undefined) run.open.delete(part.id);
      else run.untracked--;
    }
    const end: CodexEnd = { line: rec.line, item, tool, kind: part.kind, args: argsOf(item, part.kind, part.change, false) };
    calls.push({ what: "done", call: new CodexCall(part.id, start?.seq ?? 0, start, end) });
  }
}

/**
 * Codex's `codex exec --json` (AGENTS §2): thread, turn and item events, no times at all.
 *
 * No `callLineTypes`: a call is told across item.started, item.updated and item.completed lines,
 * a file_change's line tells several calls, and a web_search's id is written twice: filter's
 * --tool and --status select Codex's calls through the run model (Step.calls). Every line is
 * read (skipUnread: none), the lines are few and each holds a whole item.
 */
export const codexDialect: Dialect = {
  agent: "codex",
  name: "Codex exec --json",
  writtenBy: "codex exec --json",
  recognise: recogniseCodex,
  reader: (opts: ReaderOptions) => new CodexReader(opts),
  skipUnread: () => undefined,
  callLineTypes: undefined,
  jsonKeyOrder: JSON_KEY_ORDER,
  runEndTypes: ["turn.completed", "turn.failed"],
  // A command left running in the background is reaped at exit, never completed (AGENTS §2.3).
  reapedAtExit: "the turn completed without it; Codex reaps a command left running in the background when it exits",
  schemaEntryId: "https://cursorlog.dev/schemas/codex/codex-event.schema.json",
  // Codex runs OpenAI's models (`openai`, a well-known gen_ai.provider.name).
  genAi: { agent: "codex", provider: "openai" },
  fieldsRead: FIELDS_READ,
  fileFieldsRead: new Set(["changes", "path", "kind"]),
  // A web_search item writes `id` twice: `item_<n>`, then the search's own (AGENTS §2.9 trap 1).
  repeatedKeys: new Set(["/item id"]),
  // A file_change names paths and kinds only (AGENTS §2.8).
  patchRefusal: "a Codex log names the files a run changed and how (added, updated, deleted), never their content",
};

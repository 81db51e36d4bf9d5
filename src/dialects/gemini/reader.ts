import type { JsonObject, JsonRecord } from "../../input/record.js";
import { LineStep } from "../line-step.js";
import type { Call } from "../../model/call.js";
import type { AgentWords, CallEvent, ResultStated, Run, Step, Usage } from "../../model/run.js";
import { isoMs, isPlainObject, nonEmpty } from "../claude/lines.js";
import { PairedRun } from "../paired-run.js";
import { RunSlot } from "../run-slot.js";
import type { Dialect, DialectReader, ReaderOptions } from "../dialect.js";
import { GeminiCall, type Batch, type OpenGeminiCall } from "./call.js";
import { recogniseGemini } from "./recognise.js";
import { FIELDS_READ, FILE_FIELDS_READ, keptArgs, kindOf } from "./tools.js";

/** What gemini logs call the facts outputs name (model/run.ts AgentWords), as written. */
const GEMINI_WORDS: AgentWords = { failed: 'status: "error"', duration: "stats.duration_ms", taskEnd: undefined, sessionId: "session_id", subtype: undefined };

/**
 * A run of Gemini CLI (`gemini -p … --output-format stream-json`, AGENTS §3) as the model's Run:
 * what its lines told so far. The reader (GeminiReader) decides its boundaries.
 *
 * - sessionId, model: from its `init` (`model` may be a router alias: `auto-gemini-3`). No cwd, no
 *   permission mode: the stream writes neither.
 * - prompt: the `message` with `role: "user"` (the raw prompt, written once, §3.2).
 * - start, end: the earliest and latest `timestamp` of its lines (every line has one).
 * - outcome (§3.7): a result with `status: "error"` is failed; any other result finished (a
 *   model-side "Maximum session turns exceeded" ends with `success`, and is finished); no result,
 *   cut off. failure: the result's `error.message`, else the last `error` event of severity
 *   `error` before it (an invalid stream's result has no `error` member).
 * - text: the assistant `message` chunks (`delta: true`) joined, in order: the run's text.
 * - usage: the result's `stats` (§3.6; scope `run`, its own names kept in `raw`, `models` per model
 *   among them): inputTokens `input` (the uncached ones: usageOf), outputTokens `output_tokens`,
 *   cacheReadTokens `cached`. `total_tokens` also counts thoughts and tool tokens: kept in `raw`
 *   only. No cost: the stream states none.
 * - statedDurationMs: `stats.duration_ms`, but not on a result with an `error` member: a thrown
 *   error's result writes 0 there (§3.4), not the run's duration.
 */
export class GeminiRun extends PairedRun<OpenGeminiCall> implements Run {
  readonly agent = "gemini" as const;
  get words(): AgentWords {
    return GEMINI_WORDS;
  }
  sessionId: string | undefined;
  model: string | undefined;
  readonly cwd = undefined;
  prompt: string | undefined;
  usage: Usage | undefined;
  statedDurationMs: number | undefined;
  /** An `init` line was read in this run. */
  hadInit = false;
  /** The assistant's text so far, its chunks joined. */
  text = "";
  /** The last `error` event of severity `error`: its message. */
  lastError: string | undefined;
  readonly backgroundCount = 0;
  readonly backgroundEnded = 0;
  /** The batch `tool_use` lines join; closed by the first `tool_result` after them. */
  batch: Batch | undefined;


  protected failedResult(r: JsonRecord): boolean {
    return r.value.status === "error";
  }

  protected callOf(open: OpenGeminiCall): Call {
    return new GeminiCall(open.id, open.seq, open, undefined);
  }

  get failure(): string | undefined {
    const r = this.result?.value;
    if (r === undefined || r.status !== "error") return undefined;
    const e = r.error;
    if (isPlainObject(e) && typeof e.message === "string" && e.message !== "") return e.message;
    return this.lastError;
  }

  /** The result's own words (model/run.ts ResultStated): its `status` as the subtype; the run's text; `stats.duration_ms` (statedDurationMs). */
  get stated(): ResultStated | undefined {
    const r = this.result?.value;
    if (r === undefined) return undefined;
    return { subtype: typeof r.status === "string" ? r.status : undefined, text: this.text, requestId: undefined, durationMs: this.statedDurationMs, apiDurationMs: undefined };
  }

  /**
   * What json prints for the run (model/run.ts resultObject), in cursor-agent's key set and order,
   * each member from the stream: `type` "result"; `subtype` the result's `status` as written;
   * `is_error` whether it is `error`; `duration_ms` statedDurationMs; `result` the run's text (the
   * assistant chunks joined); `session_id` the init's; `usage` the result's `stats` as logged
   * (Gemini CLI's own names, `models` included). No `duration_api_ms`, no `request_id`: the stream
   * holds neither.
   */
  get resultObject(): JsonObject | undefined {
    const r = this.result?.value;
    if (r === undefined) return undefined;
    const o: JsonObject = { type: "result" };
    if (typeof r.status === "string") o.subtype = r.status;
    o.is_error = r.status === "error";
    if (this.statedDurationMs !== undefined) o.duration_ms = this.statedDurationMs;
    o.result = this.text;
    if (this.sessionId !== undefined) o.session_id = this.sessionId;
    if (isPlainObject(r.stats)) o.usage = r.stats;
    return o;
  }

}

/**
 * A result's `stats` (AGENTS §3.6) as Usage: per run, its own names kept. The model counts input
 * tokens not read from cache (cursor-agent's and Claude Code's input): Gemini CLI's `input`
 * (= `input_tokens` − `cached`), else `input_tokens` − `cached`; a log from before `cached` was
 * written (Dec 2025) tells no cache apart: its `input_tokens`, cache reads not stated.
 */
function usageOf(v: unknown): Usage | undefined {
  if (!isPlainObject(v)) return undefined;
  const n = (k: string): number | undefined => {
    const x = v[k];
    return typeof x === "number" && Number.isFinite(x) ? x : undefined;
  };
  const u: Usage = { scope: "run", raw: v };
  const prompt = n("input_tokens");
  const output = n("output_tokens");
  const cached = n("cached");
  const input = n("input") ?? (prompt !== undefined && cached !== undefined && prompt >= cached ? prompt - cached : cached === undefined ? prompt : undefined);
  if (input !== undefined) u.inputTokens = input;
  if (output !== undefined) u.outputTokens = output;
  if (cached !== undefined) u.cacheReadTokens = cached;
  return u;
}

/**
 * Reads Gemini CLI's lines into runs (AGENTS §3.7). Every line belongs to the latest run of its
 * file, unless it begins a new one: the first line of a file; an `init` when the run already had
 * one (a process that died without result, then another: the run before is cut off); any line
 * after the run's result (Gemini CLI writes nothing after it: two runs appended to one file).
 *
 * Calls: a `tool_use` starts the call of its `tool_id`; the `tool_result` with that `tool_id`
 * completes it (it names no tool: the start does). The `tool_use` lines of one model turn form a
 * batch, which the first `tool_result` after them closes: the results of a batch of several calls
 * are stamped when the whole batch ended (GeminiCall.timing).
 */
class GeminiReader extends RunSlot<GeminiRun> implements DialectReader {
  private count = 0;
  private readonly maxOpen: number;
  private readonly numberUnstarted: boolean;
  private readonly acceptTime: ReaderOptions["acceptTime"];
  private readonly nextRunIndex: ReaderOptions["nextRunIndex"];

  constructor(opts: ReaderOptions) {
    super();
    this.maxOpen = opts.maxOpen ?? Infinity;
    this.numberUnstarted = opts.numberUnstarted === true;
    this.acceptTime = opts.acceptTime;
    this.nextRunIndex = opts.nextRunIndex;
  }

  read(rec: JsonRecord): Step {
    const ev = rec.value;
    let run = this.run;
    let ended: GeminiRun | undefined;
    let begun = false;
    if (run === undefined || run.file !== rec.file || run.result !== undefined || (ev.type === "init" && run.hadInit)) {
      ended = run !== undefined && run.file === rec.file ? run : undefined;
      if (ended !== undefined && ended.result === undefined) {
        // Its lines run up to the one before this (lines a command skipped unread included).
        ended.lastLine = Math.max(ended.lastLine, rec.line - 1);
        ended.endCut();
      }
      run = this.run = new GeminiRun(this.nextRunIndex?.() ?? ++this.count, rec.file, rec.line);
      begun = true;
      if (this.pending !== undefined) {
        run.said = this.pending;
        this.pending = undefined;
      }
    }
    run.lastLine = rec.lastLine ?? rec.line;
    const step = new LineStep(run);
    if (begun) step.begun = true;
    if (ended !== undefined) step.ended = ended;
    const ts = this.timeOf(isoMs(ev.timestamp), rec.line, run);
    run.time(ts);
    step.at = ts;
    switch (ev.type) {
      case "init":
        step.init = true;
        run.hadInit = true;
        run.sessionId ??= nonEmpty(ev.session_id);
        run.model ??= nonEmpty(ev.model);
        break;
      case "message":
        if (typeof ev.content !== "string") break;
        if (ev.role === "assistant") {
          step.text = { text: ev.content, delta: ev.delta === true };
          run.text += ev.content;
        } else if (ev.role === "user") {
          step.user = ev.content;
          if (ev.content !== "") run.prompt ??= ev.content;
        }
        break;
      case "tool_use": {
        const e = this.started(run, rec, ts);
        if (e !== undefined) step.calls = [e];
        break;
      }
      case "tool_result": {
        const e = this.done(run, rec, ts);
        if (e !== undefined) step.calls = [e];
        break;
      }
      case "error":
        // A warning of the run, not its end (AGENTS §3.7): the result still comes.
        if (typeof ev.message === "string") step.notice = { kind: "warning", text: ev.message, severity: typeof ev.severity === "string" ? ev.severity : undefined };
        if (ev.severity === "error" && typeof ev.message === "string" && ev.message !== "") run.lastError = ev.message;
        break;
      case "result":
        run.result = rec;
        step.result = true;
        run.usage = usageOf(ev.stats);
        if (isPlainObject(ev.stats) && !("error" in ev)) {
          const d = ev.stats.duration_ms;
          if (typeof d === "number" && Number.isFinite(d) && d >= 0) run.statedDurationMs = d;
        }
        break;
    }
    return step;
  }

  /** A time as logged, unless ReaderOptions.acceptTime refuses it. */
  private timeOf(ms: number | undefined, line: number, run: GeminiRun): number | undefined {
    return ms === undefined || this.acceptTime === undefined || this.acceptTime(ms, "timestamp", line, run) ? ms : undefined;
  }

  /** A tool_use line: a call started (or started again while open; past maxOpen, only counted). */
  private started(run: GeminiRun, rec: JsonRecord, ts: number | undefined): CallEvent | undefined {
    const ev = rec.value;
    const id = nonEmpty(ev.tool_id);
    if (id === undefined) return undefined;
    const first = run.open.get(id);
    if (first !== undefined) return { what: "restarted", call: new GeminiCall(first.id, first.seq, first, undefined) };
    const batch = (run.batch ??= { size: 0 });
    batch.size++;
    const { seq, kept } = run.begin(this.maxOpen);
    if (!kept) return undefined;
    const tool = nonEmpty(ev.tool_name) ?? "unknown";
    const kind = kindOf(tool);
    const input = isPlainObject(ev.parameters) ? ev.parameters : undefined;
    const open: OpenGeminiCall = { id, seq, line: rec.line, tool, kind, args: keptArgs(kind, tool, input), ms: ts, batch };
    run.open.set(id, open);
    return { what: "started", call: new GeminiCall(id, seq, open, undefined, input) };
  }

  /** A tool_result line: the call of its tool_id completed (or, with no start in the run, a result alone). */
  private done(run: GeminiRun, rec: JsonRecord, ts: number | undefined): CallEvent | undefined {
    const ev = rec.value;
    // The batch is over: the next tool_use begins another.
    run.batch = undefined;
    const id = nonEmpty(ev.tool_id);
    if (id === undefined) return undefined;
    const start = run.answer(id);
    const seq = start?.seq ?? (this.numberUnstarted ? ++run.startedCount : 0);
    const err = isPlainObject(ev.error) ? ev.error : undefined;
    const call = new GeminiCall(id, seq, start, {
      line: rec.line,
      ms: ts,
      status: typeof ev.status === "string" ? ev.status : undefined,
      output: typeof ev.output === "string" ? ev.output : undefined,
      errorType: typeof err?.type === "string" ? err.type : undefined,
      errorMessage: typeof err?.message === "string" ? err.message : undefined,
    });
    return { what: "done", call };
  }
}

/**
 * Gemini CLI's `gemini -p … --output-format stream-json` (AGENTS §3).
 *
 * No `callLineTypes`: a `tool_result` names no tool (only its `tool_id`), so filter's --tool and
 * --status select Gemini CLI's calls through the run model (Step.calls). Every line is read: the
 * stream is small (no thinking, no partial messages beside the text chunks).
 */
export const geminiDialect: Dialect = {
  agent: "gemini",
  name: "Gemini CLI stream-json",
  writtenBy: "gemini -p --output-format stream-json",
  recognise: recogniseGemini,
  reader: (opts: ReaderOptions) => new GeminiReader(opts),
  skipUnread: () => undefined,
  callLineTypes: undefined,
  runEndTypes: ["result"],
  schemaEntryId: "https://cursorlog.dev/schemas/gemini/gemini-event.schema.json",
  // Gemini CLI runs Google's models through the Gemini API or Vertex AI, and the stream does not
  // say which: the GenAI conventions' value for any Google generative AI endpoint.
  genAi: { agent: "gemini-cli", provider: "gcp.gen_ai" },
  fieldsRead: FIELDS_READ,
  fileFieldsRead: FILE_FIELDS_READ,
};

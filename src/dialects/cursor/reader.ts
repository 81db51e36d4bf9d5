import type { JsonObject, JsonRecord } from "../../input/record.js";
import { LineStep } from "../line-step.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { AgentSaid, AgentWords, CallEvent, Outcome, ResultStated, Run, Step, Usage } from "../../model/run.js";
import type { Stamp } from "../../model/time.js";
import { skipTypes, type RawSkip } from "../../input/raw-skip.js";
import type { Dialect, DialectReader, ReaderOptions } from "../dialect.js";
import { FIELDS_READ } from "./action.js";
import { isDelta } from "./assistant-text.js";
import { CursorCall, lineTime } from "./call.js";
import { FILE_FIELDS } from "./file-change.js";
import { noticeOf } from "./notice.js";
import { otherAgentFormat } from "./other-agents.js";
import { openCount, SessionTracker, type OpenCall, type Session, type Step as TrackerStep, type TrackerOptions } from "./sessions.js";
import { isAssistant, isInit, isPlainObject, messageText } from "./types.js";

/** What cursor logs call the facts outputs name (model/run.ts AgentWords), as written. */
const CURSOR_WORDS: AgentWords = { failed: "is_error: true", duration: "duration_ms", taskEnd: "task_notification", sessionId: "session_id", subtype: "subtype" };

/**
 * A cursor-agent run (a session of SessionTracker) as the model's Run. The tracker decides its
 * boundaries, lines and open calls; this adds the run's facts read from its lines.
 */
export class CursorRun implements Run {
  readonly agent = "cursor" as const;
  get words(): AgentWords {
    return CURSOR_WORDS;
  }
  model: string | undefined;
  cwd: string | undefined;
  permissionMode: string | undefined;
  prompt: string | undefined;
  usage: Usage | undefined;
  statedDurationMs: number | undefined;
  backgroundCount = 0;
  backgroundEnded = 0;
  /** Background tasks still running: by task id, the call that started each. */
  readonly running = new Map<string, Call>();
  private cut = false;
  /**
   * The run's earliest and latest times as numbers (NaN: none yet), and their sources: a time
   * widens them on nearly every line, so the Stamps (`start`, `end`) are made when asked, once
   * per change, not per line.
   */
  private startMs = NaN;
  private endMs = NaN;
  private startFrom: Stamp["from"] = "event";
  private endFrom: Stamp["from"] = "event";
  private startStamp: Stamp | undefined;
  private endStamp: Stamp | undefined;

  constructor(readonly session: Session) {}

  get start(): Stamp | undefined {
    if (this.startMs !== this.startMs) return undefined;
    const s = this.startStamp;
    if (s !== undefined && s.ms === this.startMs && s.from === this.startFrom) return s;
    return (this.startStamp = { ms: this.startMs, from: this.startFrom });
  }

  get end(): Stamp | undefined {
    if (this.endMs !== this.endMs) return undefined;
    const s = this.endStamp;
    if (s !== undefined && s.ms === this.endMs && s.from === this.endFrom) return s;
    return (this.endStamp = { ms: this.endMs, from: this.endFrom });
  }

  get index(): number {
    return this.session.index;
  }
  get file(): string {
    return this.session.file;
  }
  get startLine(): number {
    return this.session.startLine;
  }
  get lastLine(): number {
    return this.session.lastLine;
  }
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }
  get result(): JsonRecord | undefined {
    return this.session.result;
  }
  get said(): AgentSaid | undefined {
    return this.session.said;
  }
  get openCount(): number {
    return openCount(this.session);
  }
  get startedCount(): number {
    return this.session.startedCount;
  }
  openCalls(limit = Infinity): Call[] {
    const out: Call[] = [];
    for (const open of this.session.open.values()) {
      if (out.length >= limit) break;
      out.push(openCallOf(open));
    }
    return out;
  }

  *eachOpenCall(): Iterable<Call> {
    for (const open of this.session.open.values()) yield openCallOf(open);
  }

  backgroundRunning(limit = Infinity): Call[] {
    const out: Call[] = [];
    for (const call of this.running.values()) {
      if (out.length >= limit) break;
      out.push(call);
    }
    return out;
  }

  /** Rule (model/run.ts): a result with `is_error: true` is failed, any other result finished; no result once ended, cut off. */
  get outcome(): Outcome {
    const r = this.session.result;
    if (r !== undefined) return r.value.is_error === true ? "failed" : "finished";
    return this.cut ? "cut-off" : "running";
  }

  /** The result line's own members (model/run.ts ResultStated). */
  get stated(): ResultStated | undefined {
    const r = this.session.result?.value;
    if (r === undefined) return undefined;
    const s = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
    const n = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
    return { subtype: s(r.subtype), text: s(r.result), requestId: s(r.request_id), durationMs: n(r.duration_ms), apiDurationMs: n(r.duration_api_ms) };
  }

  get failure(): string | undefined {
    const r = this.session.result;
    if (r === undefined || r.value.is_error !== true) return undefined;
    return typeof r.value.result === "string" ? r.value.result : undefined;
  }

  /** The run ended without a result (the driver says so when it ends it). */
  endCut(): void {
    if (this.session.result === undefined) this.cut = true;
  }

  /** A time the log gives in this run widens its start and end (model/run.ts). */
  time(ms: number | undefined, from: Stamp["from"]): void {
    if (ms === undefined) return;
    // (NaN compares false: the first time sets both.)
    if (!(ms >= this.startMs)) {
      this.startMs = ms;
      this.startFrom = from;
    }
    if (!(ms <= this.endMs)) {
      this.endMs = ms;
      this.endFrom = from;
    }
  }
}

/** An open call (what the tracker kept of its start) as a Call. */
export function openCallOf(open: OpenCall): Call {
  return new CursorCall(open.callId, open.seq, open, open, undefined, true);
}

/**
 * A thinking line with no text (a delta or the phase's end: the skipped stand-ins of show and the
 * exports are all such): one object each, read-only, rather than one per line.
 */
const NO_THOUGHT = Object.freeze({ text: "", done: false });
const NO_THOUGHT_DONE = Object.freeze({ text: "", done: true });

/** The usage of a cursor-agent result: per run, camelCase (2026) or snake_case (older) names. */
function usageOf(v: unknown): Usage | undefined {
  if (!isPlainObject(v)) return undefined;
  const n = (...keys: string[]): number | undefined => {
    for (const k of keys) {
      const x = v[k];
      if (typeof x === "number" && Number.isFinite(x)) return x;
    }
    return undefined;
  };
  const u: Usage = { scope: "run", raw: v };
  const input = n("inputTokens", "input_tokens");
  const output = n("outputTokens", "output_tokens");
  const cacheRead = n("cacheReadTokens", "cache_read_input_tokens", "cache_read_tokens");
  const cacheWrite = n("cacheWriteTokens", "cache_creation_input_tokens", "cache_write_tokens");
  if (input !== undefined) u.inputTokens = input;
  if (output !== undefined) u.outputTokens = output;
  if (cacheRead !== undefined) u.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) u.cacheWriteTokens = cacheWrite;
  return u;
}

class CursorReader implements DialectReader {
  private readonly tracker: SessionTracker;
  private run: CursorRun | undefined;
  private lastBegun = 0;
  private readonly acceptTime: ReaderOptions["acceptTime"];
  /**
   * Step.calls of every line, its one event rewritten for each line that tells a call (the Step
   * contract: valid until the next line is read). A new `[{ what, call }]` per call line cost
   * timeline over 200,000 calls twice the garbage collection (V8 pretenures a literal's allocation
   * site whose objects survive a scavenge: they went straight to the old generation) and ~5 MB of
   * peak memory.
   */
  private readonly event: { what: CallEvent["what"]; call: Call };
  private readonly oneCall: readonly CallEvent[];

  constructor(opts: ReaderOptions) {
    const t: TrackerOptions = {};
    if (opts.maxOpen !== undefined) t.maxOpen = opts.maxOpen;
    if (opts.numberUnstarted === true) t.numberUnstarted = true;
    if (opts.nextRunIndex !== undefined) t.nextRunIndex = opts.nextRunIndex;
    this.tracker = new SessionTracker(t);
    this.acceptTime = opts.acceptTime;
    this.event = { what: "started", call: undefined as unknown as Call };
    this.oneCall = [this.event];
  }

  /**
   * ReaderOptions.acceptTime: the times of this line the output cannot hold become absent, before
   * any rule reads them (the line's, a call's own start and end; the tracker's copies of them too).
   * Returns the line's time as kept.
   */
  private filterTimes(run: CursorRun, rec: JsonRecord, st: TrackerStep, ts: number | undefined): number | undefined {
    // (No closure per line: this runs on every line of an export.)
    const line = rec.line;
    if (!this.accepts(ts, "timestamp_ms", line, run)) {
      ts = undefined;
      if (st.started !== undefined) st.started.timestampMs = undefined;
    }
    if (st.started !== undefined) {
      const call = st.startCall ?? st.started;
      if (!this.accepts(call.startedAtMs, "startedAtMs", line, run)) {
        delete call.startedAtMs;
        delete st.started.startedAtMs;
      }
    } else if (st.completed !== undefined) {
      const call = st.completed.call;
      if (!this.accepts(call.startedAtMs, "startedAtMs", line, run)) delete call.startedAtMs;
      if (!this.accepts(call.completedAtMs, "completedAtMs", line, run)) delete call.completedAtMs;
    }
    return ts;
  }

  /** An absent time stays absent; a time is kept when ReaderOptions.acceptTime takes it. */
  private accepts(ms: number | undefined, field: string, line: number, run: CursorRun): boolean {
    return ms === undefined || this.acceptTime!(ms, field, line, run);
  }

  /** Step.calls for a line that tells one call (this.oneCall, rewritten). */
  private told(what: CallEvent["what"], call: Call): readonly CallEvent[] {
    this.event.what = what;
    this.event.call = call;
    return this.oneCall;
  }

  read(rec: JsonRecord): Step {
    const st = this.tracker.observe(rec);
    let ended: CursorRun | undefined;
    if (this.run === undefined || this.run.session !== st.session) {
      ended = this.run;
      ended?.endCut();
      this.run = new CursorRun(st.session);
    }
    const run = this.run;
    const ev = rec.value;
    let ts = lineTime(rec);
    if (this.acceptTime !== undefined) ts = this.filterTimes(run, rec, st, ts);
    run.time(ts, "event");
    const step = new LineStep(run);
    step.at = ts;
    if (run.startLine === rec.line && run.session.index !== this.lastBegun) {
      this.lastBegun = run.session.index;
      step.begun = true;
    }
    if (ended !== undefined) step.ended = ended;
    if (isInit(ev)) {
      step.init = true;
      run.model ??= str(ev.model);
      run.cwd ??= str(ev.cwd);
      run.permissionMode ??= str(ev.permissionMode);
    } else if (ev.type === "user") {
      const said = messageText(ev as never);
      run.prompt ??= said || undefined;
      step.user = said;
    } else if (isAssistant(ev)) {
      step.text = { text: messageText(ev), delta: isDelta(ev) };
    } else if (ev.type === "thinking") {
      const text = typeof ev.text === "string" ? ev.text : "";
      const done = ev.subtype === "completed";
      step.thinking = text !== "" ? { text, done } : done ? NO_THOUGHT_DONE : NO_THOUGHT;
    } else if (ev.type === "system" && ev.subtype === "task_notification") {
      step.backgroundEnd = this.backgroundEnd(run, rec, ts);
    } else if (ev.type === "connection" || ev.type === "retry" || ev.type === "interaction_query") {
      const notice = noticeOf(ev);
      if (notice !== undefined) step.notice = notice;
    }
    if (st.started !== undefined) {
      const call = new CursorCall(st.started.callId, st.started.seq, st.startCall ?? st.started, st.started, undefined);
      run.time(call.raw.startedAtMs, "call");
      step.calls = this.told("started", call);
    } else if (st.restarted !== undefined) {
      step.calls = this.told("restarted", openCallOf(st.restarted));
    } else if (st.completed !== undefined) {
      const d = st.completed;
      const call = new CursorCall(d.callId, d.started?.seq ?? d.seq ?? 0, d.call, d.started, d.rec, d.argsFromStart === true, ts);
      run.time(d.call.startedAtMs, "call");
      run.time(d.call.completedAtMs, "call");
      const task = call.backgroundTask;
      if (task !== undefined) {
        run.running.set(task, call);
        run.backgroundCount++;
      }
      step.calls = this.told("done", call);
    }
    if (st.session.result === rec) {
      step.result = true;
      run.usage = usageOf(ev.usage);
      const d = ev.duration_ms;
      if (typeof d === "number" && Number.isFinite(d) && d >= 0) run.statedDurationMs = d;
    }
    return step;
  }

  private backgroundEnd(run: CursorRun, rec: JsonRecord, ts: number | undefined): BackgroundEnd {
    const ev: JsonObject = rec.value;
    const taskId = typeof ev.task_id === "string" ? ev.task_id : typeof ev.task_id === "number" ? String(ev.task_id) : "";
    const call = run.running.get(taskId);
    if (call !== undefined) {
      run.running.delete(taskId);
      run.backgroundEnded++;
    }
    const start = call?.timing.start?.ms;
    return {
      taskId,
      call,
      status: str(ev.status),
      ok: ev.status === "success",
      title: str(ev.title),
      detail: str(ev.detail),
      line: rec.line,
      at: ts === undefined ? undefined : { ms: ts, from: "event" },
      durationMs: start !== undefined && ts !== undefined && ts >= start ? ts - start : undefined,
    };
  }

  said(file: string, line: number, text: string): Run | undefined {
    const s = this.tracker.said(file, line, text);
    return s !== undefined && this.run?.session === s ? this.run : undefined;
  }

  endFile(lastLine: number): Run | undefined {
    const s = this.tracker.endFile(lastLine);
    const run = this.run;
    this.run = undefined;
    if (s === undefined || run === undefined || run.session !== s) return undefined;
    run.endCut();
    return run;
    // (A run that ended with its result is returned too: the file held a run.)
  }

  unclaimed(): AgentSaid | undefined {
    return this.tracker.unclaimed();
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** cursor-agent's `--output-format stream-json` (FORMAT.md). */
export const cursorDialect: Dialect = {
  agent: "cursor",
  name: "cursor-agent stream-json",
  writtenBy: "cursor-agent --print --output-format stream-json",
  recognise(ev: JsonObject): boolean | undefined {
    if (otherAgentFormat(ev) !== undefined) return false;
    return typeof ev.type === "string" ? true : undefined;
  },
  reader: (opts: ReaderOptions) => new CursorReader(opts),
  skipUnread(needs: { thinking?: boolean; user?: boolean; text?: boolean }): RawSkip | undefined {
    const types: string[] = [];
    if (needs.thinking !== true) types.push("thinking");
    if (needs.user !== true) types.push("user");
    if (needs.text !== true) types.push("assistant");
    return skipTypes(types);
  },
  callLineTypes: ["tool_call"],
  runEndTypes: ["result"],
  schemaEntryId: "https://cursorlog.dev/schemas/cursor-agent-event.schema.json",
  genAi: { agent: "cursor-agent", provider: "cursor" },
  // cursor-agent --print --output-format json: its keys in its order (the stream's result line differs).
  jsonKeyOrder: ["type", "subtype", "is_error", "duration_ms", "duration_api_ms", "result", "session_id", "request_id", "usage"],
  fieldsRead: FIELDS_READ,
  fileFieldsRead: FILE_FIELDS,
};

import { backgroundTaskId } from "../../dialects/cursor/background.js";
import type { Session, Step } from "../../dialects/cursor/sessions.js";
import type { ToolCall } from "../../dialects/cursor/tool-call.js";
import { isAssistant, isInit, messageText } from "../../dialects/cursor/types.js";
import type { JsonObject, JsonRecord } from "../../input/record.js";

/**
 * One run (a session: init … result) reduced to what a trace of it needs: the run's facts, one
 * record per tool call with its times as logged, the agent's messages, and the background shells'
 * ends. Built event by event by RunCollector; the trace exports (OTLP, Chrome trace) turn it into
 * spans or trace events when the run ends, so memory holds one run's calls, never its events.
 */
export interface RunRecord {
  /** 1-based number of the run within the whole export. */
  index: number;
  file: string;
  startLine: number;
  lastLine: number;
  sessionId: string | undefined;
  /** `result.request_id`, when the run has a result that carries one. */
  requestId: string | undefined;
  /** From the init event. */
  model: string | undefined;
  cwd: string | undefined;
  permissionMode: string | undefined;
  /** The first line of the user prompt (the user event), uncapped. */
  prompt: string | undefined;
  /** Earliest and latest time logged in the run (timestamp_ms of any event, startedAtMs/completedAtMs of any call). */
  firstMs: number | undefined;
  lastMs: number | undefined;
  /** The run's `result` event, when it has one. */
  result: JsonObject | undefined;
  /** In start order (a completion without a start in arrival order). */
  calls: RunCall[];
  messages: RunMessage[];
}

export interface RunCall {
  /** Place in start order, from 1 (as the timeline's seq). */
  seq: number;
  /** The call_id exactly as logged. */
  callId: string;
  /** How many calls of this run had the same call_id before this one (0 for the first). */
  occurrence: number;
  call: ToolCall;
  /** `model_call_id` of the started (else completed) event. */
  modelCallId: string | undefined;
  /** startedAtMs, else the started event's timestamp_ms. */
  startMs: number | undefined;
  /** completedAtMs, else the completed event's timestamp_ms (undefined while incomplete). */
  endMs: number | undefined;
  /** The call completed (it may still have no result arm). */
  completed: boolean;
  startLine: number | undefined;
  endLine: number | undefined;
  /** A background shell (`isBackground`): its shellId, and the task_notification that ended it. */
  shellId: string | undefined;
  background: { endMs: number | undefined; status: string | undefined; line: number } | undefined;
}

/** One message of the agent (a segment of assistant text, as `result.result` is made of). */
export interface RunMessage {
  /** Its timestamp_ms, else the time of the deltas it repeats, else the latest time logged before it. */
  ms: number | undefined;
  text: string;
  line: number;
}

export class RunCollector {
  private run: RunRecord;
  private readonly bySeqOpen = new Map<unknown, RunCall>();
  private readonly seen = new Map<string, number>();
  private readonly shells = new Map<string, RunCall>();
  /** Time of the first delta of the segment being streamed (--stream-partial-output). */
  private deltaMs: number | undefined;
  private pendingText = "";
  private pendingLine = 0;
  private lastLoggedMs: number | undefined;

  constructor(
    readonly session: Session,
    /** Keep the agent's messages (the Chrome trace draws them; OTLP does not). */
    private readonly keepMessages: boolean,
    /**
     * Whether a time as logged is one (false: taken as absent, as an unreadable one is). The
     * OTLP export keeps only what its nanoseconds can hold; by default every finite time is kept.
     */
    private readonly keepTime: (ms: number, field: string, line: number) => boolean = () => true,
  ) {
    this.run = {
      index: session.index,
      file: session.file,
      startLine: session.startLine,
      lastLine: session.lastLine,
      sessionId: undefined,
      requestId: undefined,
      model: undefined,
      cwd: undefined,
      permissionMode: undefined,
      prompt: undefined,
      firstMs: undefined,
      lastMs: undefined,
      result: undefined,
      calls: [],
      messages: [],
    };
  }

  observe(step: Step, rec: JsonRecord): void {
    const ev = rec.value;
    const r = this.run;
    const ts = this.kept(msOf(ev.timestamp_ms), "timestamp_ms", rec.line);
    if (ts !== undefined) this.time(ts);
    if (isInit(ev)) {
      r.model ??= str(ev.model);
      r.cwd ??= str(ev.cwd);
      r.permissionMode ??= str(ev.permissionMode);
    } else if (ev.type === "user" && r.prompt === undefined) {
      r.prompt = messageText(ev as never) || undefined;
    } else if (isAssistant(ev)) {
      if (this.keepMessages) this.message(ev, rec.line, ts);
    } else if (ev.type === "system" && ev.subtype === "task_notification") {
      const id = str(ev.task_id);
      const shell = id === undefined ? undefined : this.shells.get(id);
      if (shell !== undefined && shell.background === undefined) {
        shell.background = { endMs: ts, status: str(ev.status), line: rec.line };
      }
    }
    if (step.started !== undefined) {
      this.flushMessage();
      const open = step.started;
      // The start's whole call (its arguments uncut): the trace keeps each call of the run.
      const call = step.startCall ?? open;
      const c = this.newCall(open.callId, call, rec);
      c.startMs = this.kept(call.startedAtMs, "startedAtMs", rec.line) ?? ts;
      c.startLine = rec.line;
      this.bySeqOpen.set(open, c);
      r.calls.push(c);
      if (c.startMs !== undefined) this.time(c.startMs);
    } else if (step.completed !== undefined) {
      this.flushMessage();
      const done = step.completed;
      let c = done.started === undefined ? undefined : this.bySeqOpen.get(done.started);
      if (c === undefined) {
        c = this.newCall(done.callId, done.call, rec);
        c.startMs = this.kept(done.call.startedAtMs, "startedAtMs", rec.line);
        r.calls.push(c);
      } else this.bySeqOpen.delete(done.started);
      // The tracker merged in the start's arguments cut (OpenCall): the whole ones are here.
      const startArgs = c.call.args;
      c.call = done.call;
      if (startArgs !== undefined && done.started !== undefined && done.started.args === done.call.args) c.call = { ...done.call, args: startArgs };
      if (c.modelCallId === undefined) c.modelCallId = str(rec.value.model_call_id);
      c.completed = true;
      const startedAt = this.kept(done.call.startedAtMs, "startedAtMs", rec.line);
      const completedAt = this.kept(done.call.completedAtMs, "completedAtMs", rec.line);
      c.endMs = completedAt ?? ts;
      c.endLine = rec.line;
      if (startedAt !== undefined && completedAt !== undefined) c.startMs = startedAt;
      if (c.startMs !== undefined) this.time(c.startMs);
      if (c.endMs !== undefined) this.time(c.endMs);
      // The shellId is a number in real captures (task_notification's task_id is its text): dialects/cursor/background.ts.
      const shellId = backgroundTaskId(done.call);
      if (shellId !== undefined) {
        c.shellId = shellId;
        this.shells.set(shellId, c);
      }
    }
    if (step.session.result === rec) {
      r.result = ev;
      r.requestId = str(ev.request_id);
    }
  }

  /** The run is over: its record (the session's lines and id as the tracker knows them now). */
  finish(): RunRecord {
    this.flushMessage();
    const r = this.run;
    r.sessionId = this.session.sessionId;
    r.lastLine = this.session.lastLine;
    return r;
  }

  private newCall(callId: string, call: ToolCall, rec: JsonRecord): RunCall {
    const occurrence = this.seen.get(callId) ?? 0;
    this.seen.set(callId, occurrence + 1);
    return {
      seq: this.run.calls.length + 1,
      callId,
      occurrence,
      call,
      modelCallId: str(rec.value.model_call_id),
      startMs: undefined,
      endMs: undefined,
      completed: false,
      startLine: undefined,
      endLine: undefined,
      shellId: undefined,
      background: undefined,
    };
  }

  private kept(ms: number | undefined, field: string, line: number): number | undefined {
    return ms === undefined || this.keepTime(ms, field, line) ? ms : undefined;
  }

  private time(ms: number): void {
    const r = this.run;
    if (r.firstMs === undefined || ms < r.firstMs) r.firstMs = ms;
    if (r.lastMs === undefined || ms > r.lastMs) r.lastMs = ms;
    this.lastLoggedMs = ms;
  }

  /**
   * As AssistantText (FORMAT.md §4): a delta (timestamp_ms, no model_call_id) is part of a segment
   * still streaming; a consolidated event repeats the segment, so it replaces the deltas.
   */
  private message(ev: JsonObject, line: number, ts: number | undefined): void {
    const text = messageText(ev as never);
    const isDelta = ts !== undefined && typeof ev.model_call_id !== "string";
    if (isDelta) {
      if (this.pendingText === "") {
        this.deltaMs = ts;
        this.pendingLine = line;
      }
      this.pendingText += text;
      return;
    }
    const ms = ts ?? this.deltaMs ?? this.lastLoggedMs;
    this.pendingText = "";
    this.deltaMs = undefined;
    if (text !== "") this.run.messages.push({ ms, text, line });
  }

  /** Deltas not followed by their consolidated event (a run cut off mid-stream) are a message of their own. */
  private flushMessage(): void {
    if (this.pendingText === "") return;
    this.run.messages.push({ ms: this.deltaMs, text: this.pendingText, line: this.pendingLine });
    this.pendingText = "";
    this.deltaMs = undefined;
  }
}

export function msOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && /^\d{1,16}$/.test(v)) return Number(v);
  return undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}


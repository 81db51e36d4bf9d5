import type { JsonObject, JsonRecord } from "../../input/record.js";
import type { BackgroundEnd, Call, Subagent } from "../../model/call.js";
import type { Run, Step } from "../../model/run.js";
import type { CallStatus } from "../../model/status.js";
import { RunText } from "../../model/text.js";
import type { CallTiming, Stamp } from "../../model/time.js";

/**
 * One run reduced to what a trace of it needs: the model's Run (ended), one record per call with
 * the model's facts of it, the agent's messages, the background tasks' ends. Built as the driver
 * tells the run (RunCollector); the trace exports (OTLP, Chrome trace) turn it into spans or trace
 * events when the run ends, so memory holds one run's calls, never its lines.
 */
export interface RunRecord {
  run: Run;
  /** In start order (a completion without a start in arrival order: its seq). */
  calls: RunCall[];
  messages: RunMessage[];
}

/** A call as a trace draws it: the model's facts (Call), copied out of the Call so that no line is kept. */
export interface RunCall {
  seq: number;
  /** The call's id exactly as logged. */
  id: string;
  /** How many calls of this run had the same id before this one (0 for the first). */
  occurrence: number;
  kind: string;
  tool: string;
  label: string;
  target: string;
  status: CallStatus;
  /** The agent's word for the outcome, as written (Call.arm). */
  arm: string | undefined;
  /** Why it did not succeed, in words (Call.note). */
  note: string;
  timing: CallTiming;
  /**
   * The latest time the log gave up to the line that first told the call (its run's end then:
   * Run.end), for a call without a time of its own; undefined when no time came before it.
   */
  lastLoggedMs: number | undefined;
  exitStatus: number | undefined;
  signal: string | undefined;
  backgroundTask: string | undefined;
  responseId: string | undefined;
  /** The task call that started the subagent this call is of (Call.parentId); undefined for the run's own. */
  parentId: string | undefined;
  startLine: number | undefined;
  endLine: number | undefined;
  mcp: { server: string | undefined; tool: string | undefined } | undefined;
  subagent: Subagent | undefined;
  /** With content only: the arguments (whole) and the outcome, as logged. */
  args: JsonObject | undefined;
  outcome: JsonObject | undefined;
  /** With content only, for a call that did not succeed and logged no outcome object: what it said (Call.failureText). */
  failure: string | undefined;
  /** The end of its background task (BackgroundEnd), once told. */
  background: { at: Stamp | undefined; status: string | undefined; line: number } | undefined;
}

/** One message of the agent (a segment of its text: model/text.ts is the rule). */
export interface RunMessage {
  /** Its line's time, else the time of the chunks it repeats, else the latest time logged before it. */
  ms: number | undefined;
  text: string;
  line: number;
}

/** A call told at its start, while it is open. */
interface Open {
  call: Call;
  slot: number;
  occurrence: number;
  /** The run's latest time when it started. */
  lastLoggedMs: number | undefined;
}

/**
 * Builds a run's RunRecord from what the driver tells (RunSink). Memory: the run's calls as
 * RunCalls, the open ones as their start's Call (as the old collector kept their start), and with
 * `messages`, the agent's text.
 */
export class RunCollector {
  private readonly slots: Array<RunCall | undefined> = [];
  private readonly open = new Map<string, Open>();
  private readonly seen = new Map<string, number>();
  private readonly tasks = new Map<string, RunCall>();
  private readonly messages: RunMessage[] = [];
  private readonly text: RunText | undefined;
  /** The line being read, and the first chunk of a message still streaming. */
  private lineNo = 0;
  private lineAt: number | undefined;
  private delta: { ms: number | undefined; line: number } | undefined;
  private lastLoggedMs: number | undefined;

  constructor(
    readonly run: Run,
    /** Keep the agent's messages (the Chrome trace draws them; OTLP does not). */
    keepMessages: boolean,
    /** Keep each call's arguments and outcome (OTLP --include-content). */
    private readonly content: boolean,
  ) {
    this.text = keepMessages ? new RunText((text, fromDeltas) => this.segment(text, fromDeltas)) : undefined;
  }

  started(call: Call): void {
    const occurrence = this.occurrence(call.id);
    this.open.set(call.id, { call, slot: this.slots.length, occurrence, lastLoggedMs: this.run.end?.ms });
    this.slots.push(undefined);
  }

  done(call: Call): void {
    // Paired with its start by the dialect (Call.startLine): the one open call of that id.
    const open = call.startLine !== undefined ? this.open.get(call.id) : undefined;
    let slot: number;
    let occurrence: number;
    let lastLoggedMs: number | undefined;
    if (open !== undefined) {
      this.open.delete(call.id);
      slot = open.slot;
      occurrence = open.occurrence;
      lastLoggedMs = open.lastLoggedMs;
    } else {
      slot = this.slots.length;
      occurrence = this.occurrence(call.id);
      lastLoggedMs = this.run.end?.ms;
      this.slots.push(undefined);
    }
    // A completion that logged no arguments has the start's as kept (cut): its start has them whole.
    const whole = call.argsCut === true && open !== undefined ? open.call : call;
    const c = this.record(call, whole, occurrence, lastLoggedMs);
    this.slots[slot] = c;
    if (c.backgroundTask !== undefined) this.tasks.set(c.backgroundTask, c);
  }

  backgroundEnd(end: BackgroundEnd): void {
    if (end.call === undefined) return;
    const c = this.tasks.get(end.taskId);
    if (c === undefined) return;
    this.tasks.delete(end.taskId);
    c.background = { at: end.at, status: end.status, line: end.line };
  }

  /** A line (with messages kept): the agent's text on it, and the times it gave. */
  line(rec: JsonRecord, step: Step): void {
    this.lineNo = rec.line;
    this.lineAt = step.at;
    if (step.at !== undefined) this.lastLoggedMs = step.at;
    if (step.calls !== undefined) {
      for (const e of step.calls) {
        const t = e.what === "started" ? e.call.timing.start : e.what === "done" ? (e.call.timing.end ?? e.call.timing.start) : undefined;
        if (t !== undefined) this.lastLoggedMs = t.ms;
      }
    }
    if (step.text?.delta === true && this.delta === undefined) this.delta = { ms: step.at, line: rec.line };
    this.text!.observe(step);
  }

  /** The run is over: its record (the calls still open as their starts tell them). */
  finish(): RunRecord {
    this.text?.end();
    for (const o of this.open.values()) this.slots[o.slot] = this.record(o.call, o.call, o.occurrence, o.lastLoggedMs);
    this.open.clear();
    return { run: this.run, calls: this.slots as RunCall[], messages: this.messages };
  }

  private occurrence(id: string): number {
    const n = this.seen.get(id) ?? 0;
    this.seen.set(id, n + 1);
    return n;
  }

  /** `call`'s facts; its target, arguments and MCP names from `whole` (the call whose arguments are whole). */
  private record(call: Call, whole: Call, occurrence: number, lastLoggedMs: number | undefined): RunCall {
    let subagent = call.subagent;
    if (subagent !== undefined && whole !== call && whole.subagent !== undefined) {
      subagent = { ...subagent, agentId: subagent.agentId ?? whole.subagent.agentId, model: whole.subagent.model };
    }
    return {
      seq: call.seq,
      id: call.id,
      occurrence,
      kind: call.kind,
      tool: call.tool,
      label: call.label,
      target: whole.target,
      status: call.status,
      arm: call.arm,
      note: call.note(),
      timing: call.timing,
      lastLoggedMs,
      exitStatus: call.exitStatus,
      signal: call.signal,
      backgroundTask: call.backgroundTask,
      responseId: call.responseId,
      parentId: call.parentId ?? whole.parentId,
      startLine: call.startLine,
      endLine: call.endLine,
      mcp: whole.mcp,
      subagent,
      args: this.content ? whole.args : undefined,
      outcome: this.content ? call.outcome : undefined,
      failure: this.content && call.outcome === undefined && (call.status === "failed" || call.status === "refused") ? call.failureText()?.text : undefined,
      background: undefined,
    };
  }

  /** RunText kept a segment: placed at its line's time, else its chunks', else the latest time before it. */
  private segment(text: string, fromDeltas: boolean): void {
    const d = this.delta;
    this.delta = undefined;
    if (fromDeltas) this.messages.push({ ms: d?.ms, text, line: d?.line ?? this.lineNo });
    else if (text !== "") this.messages.push({ ms: this.lineAt ?? d?.ms ?? this.lastLoggedMs, text, line: this.lineNo });
  }
}

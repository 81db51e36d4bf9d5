import type { JsonRecord } from "../../input/record.js";
import { targetArgs } from "./action.js";
import { toolCallOf, type ToolCall } from "./tool-call.js";
import { isInit, isResult, isToolCall } from "./types.js";

/**
 * A tool call whose `started` event was seen, waiting for its completion. It holds only what the
 * outputs need of the start, not its event: a log of a million calls that never complete must not
 * hold a million events with their arguments. As a ToolCall: the start's kind and tool, its
 * `startedAtMs`, and of its arguments only those a target or a path is made of, each string cut
 * to KEPT_ARG_MAX characters (action.ts). One flat object: about 250 bytes besides the id.
 */
export interface OpenCall extends ToolCall {
  callId: string;
  /** Order of the `started` event within its session, from 1. */
  seq: number;
  /** The started event's line (its file is the session's). */
  line: number;
  /** The started event's `timestamp_ms`, when it is a finite number. */
  timestampMs: number | undefined;
  /** The started event's `model_call_id`, when it is a non-empty string. */
  modelCallId: string | undefined;
}

/** A completion, paired with its start when there was one (by exact `call_id`). */
export interface CompletedCall {
  callId: string;
  /**
   * With TrackerOptions.numberUnstarted, a completion without a start: the seq it takes (the next
   * one when it arrives). Otherwise undefined (a paired completion's seq is its start's).
   */
  seq?: number;
  /** The completion merged with its start: args from the start when the completion lacks them. */
  call: ToolCall;
  /** The completion logged no arguments: `call.args` are the start's as kept (cut: OpenCall). */
  argsFromStart?: true;
  started?: OpenCall;
  rec: JsonRecord;
}

export interface Session {
  /** 1-based number of the session within the whole run. */
  index: number;
  file: string;
  sessionId?: string;
  startLine: number;
  /** The last line of the session: its last event, or for a session cut off, the last line before what follows it. */
  lastLine: number;
  /** The session's terminal `result` event, once seen. */
  result?: JsonRecord;
  /** Started calls without a completion yet, in start order (at most `maxOpen` of them, see SessionTracker). */
  open: Map<string, OpenCall>;
  /** Started calls without a completion that are counted but not kept (past `maxOpen`). */
  untracked: number;
  /** Number of `started` events seen (and, with TrackerOptions.numberUnstarted, of completions without a start). */
  startedCount: number;
  /**
   * The agent CLI's own message (a line of text among the events: stderr merged into the log), the
   * first one of the session; `more` counts the others. A failed run ends with one, and no result.
   */
  said?: AgentSaid;
}

/** A text line of the agent CLI's, where it is. */
export interface AgentSaid {
  line: number;
  text: string;
  more: number;
}

/** What one event did to the sessions. */
export interface Step {
  session: Session;
  /** The session this event closed off by starting a new one. */
  ended?: Session;
  started?: OpenCall;
  /**
   * With `started`: the start's call as logged, all its arguments (OpenCall keeps only a cut few).
   * For this step only: an output that keeps it keeps what it costs.
   */
  startCall?: ToolCall;
  /**
   * A `started` event for a call that is still open: the same call starting again. Every command
   * keeps the first start (its time, line and place) and ignores this one; validate reports it.
   */
  restarted?: OpenCall;
  completed?: CompletedCall;
}

/** Open calls of a session: those kept and those only counted. */
export function openCount(s: Session): number {
  return s.open.size + s.untracked;
}

export interface TrackerOptions {
  /** The number of the next session of the whole input (dialect.ts ReaderOptions.nextRunIndex); default: its own count. */
  nextRunIndex?: () => number;
  /**
   * Keep at most this many open calls per session (default: all). Past it, starts are only
   * counted, and a completion whose start is not kept closes one of them: memory stays bounded
   * whatever the log, the count stays exact as long as no completion lacks a start, and the calls
   * kept are the first still open. For outputs that need open calls only for a count and a few
   * names (json); the others need each completion's start.
   */
  maxOpen?: number;
  /**
   * A completion without a start takes the next seq when it arrives (CompletedCall.seq), as
   * timeline numbers its rows: the seq of an open call is then its row's number.
   */
  numberUnstarted?: boolean;
}

/**
 * Splits the events of a file into sessions and pairs tool calls. A session begins at each
 * `system/init` (a resumed run reuses its session_id, so the id alone does not separate runs), at
 * the first event of a file, and at the first event after a `result`; it ends at its `result`, at
 * the next session, or at the end of the file. Memory: only the calls still open, a few hundred
 * bytes each (OpenCall), or with `maxOpen` a bounded number of them.
 */
export class SessionTracker {
  private current: Session | null = null;
  private count = 0;
  /** A message that came when no session was open (before the first event, after a result). */
  private pending: AgentSaid | undefined;
  private readonly maxOpen: number;
  private readonly numberUnstarted: boolean;
  private lastModelCallId: string | undefined;

  constructor(opts: TrackerOptions = {}) {
    this.maxOpen = opts.maxOpen ?? Infinity;
    this.numberUnstarted = opts.numberUnstarted === true;
    if (opts.nextRunIndex !== undefined) this.nextIndex = opts.nextRunIndex;
  }

  private nextIndex = (): number => this.count;

  observe(rec: JsonRecord): Step {
    const ev = rec.value;
    let ended: Session | undefined;
    let s = this.current;
    if (s === null || s.result !== undefined || isInit(ev)) {
      ended = s ?? undefined;
      // Its lines run up to the one before this event (lines a command skipped unread included).
      if (ended && ended.result === undefined) ended.lastLine = Math.max(ended.lastLine, rec.line - 1);
      this.count++;
      s = this.current = {
        index: this.nextIndex(),
        file: rec.file,
        startLine: rec.line,
        lastLine: rec.line,
        open: new Map(),
        untracked: 0,
        startedCount: 0,
      };
      // The CLI's message written before the session's first event (stderr and stdout interleave).
      if (this.pending !== undefined) {
        s.said = this.pending;
        this.pending = undefined;
      }
    }
    s.lastLine = rec.lastLine ?? rec.line;
    if (s.sessionId === undefined && typeof ev.session_id === "string") s.sessionId = ev.session_id;
    const step: Step = { session: s };
    if (ended) step.ended = ended;
    if (isToolCall(ev)) {
      if (ev.subtype === "started") {
        const first = s.open.get(ev.call_id);
        if (first !== undefined) {
          step.restarted = first;
          return step;
        }
        const seq = ++s.startedCount;
        // Past maxOpen, a start is only counted (a restart of a call not kept counts again).
        if (s.untracked > 0 || s.open.size >= this.maxOpen) {
          s.untracked++;
          return step;
        }
        const full = toolCallOf(ev.tool_call);
        const open = openCallOf(ev.call_id, seq, full, rec);
        // Calls started by one model response share its model_call_id: keep one copy of it.
        if (open.modelCallId !== undefined) {
          if (open.modelCallId === this.lastModelCallId) open.modelCallId = this.lastModelCallId;
          else this.lastModelCallId = open.modelCallId;
        }
        s.open.set(ev.call_id, open);
        step.started = open;
        step.startCall = full;
      } else if (ev.subtype === "completed") {
        const started = s.open.get(ev.call_id);
        if (started) s.open.delete(ev.call_id);
        else if (s.untracked > 0) s.untracked--;
        const call = toolCallOf(ev.tool_call);
        let argsFromStart = false;
        if (started) {
          if (call.args === undefined && started.args !== undefined) {
            call.args = started.args;
            argsFromStart = true;
          }
          if (call.startedAtMs === undefined && started.startedAtMs !== undefined) call.startedAtMs = started.startedAtMs;
          if (call.kind === "unknown") {
            call.kind = started.kind;
            call.tool = started.tool;
          }
        }
        if (started) step.completed = argsFromStart ? { callId: ev.call_id, call, started, rec, argsFromStart: true } : { callId: ev.call_id, call, started, rec };
        else if (this.numberUnstarted) step.completed = { callId: ev.call_id, seq: ++s.startedCount, call, rec };
        else step.completed = { callId: ev.call_id, call, rec };
      }
    } else if (isResult(ev)) {
      s.result = rec;
    }
    return step;
  }

  /**
   * A line of the agent CLI's own text (`file:line`): it belongs to the session in progress, or,
   * when none is (before the first event, after a result), to the next one that begins in this
   * file. Returns the session it joined, if one.
   */
  said(file: string, line: number, text: string): Session | undefined {
    const s = this.current;
    if (s !== null && s.result === undefined && s.file === file) {
      if (s.said === undefined) s.said = { line, text, more: 0 };
      else s.said.more++;
      s.lastLine = Math.max(s.lastLine, line);
      return s;
    }
    if (this.pending === undefined) this.pending = { line, text, more: 0 };
    else this.pending.more++;
    return undefined;
  }

  /** The CLI's message that no session took (a file that is all text, text after the last result); then forgotten. */
  unclaimed(): AgentSaid | undefined {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }

  /** True once any event was seen: a run without is "no session in the input". */
  get sawSession(): boolean {
    return this.count > 0;
  }

  /** End of a file: the session in progress ends with it, at the file's last line. */
  endFile(lastLine = 0): Session | undefined {
    const s = this.current;
    this.current = null;
    if (s && s.result === undefined) s.lastLine = Math.max(s.lastLine, lastLine);
    return s ?? undefined;
  }
}

/** What is kept of a started call: see OpenCall. */
function openCallOf(callId: string, seq: number, full: ToolCall, rec: JsonRecord): OpenCall {
  const ts = rec.value.timestamp_ms;
  const model = rec.value.model_call_id;
  // Every member in one literal: one object of a fixed shape, its fields inside it.
  return {
    callId,
    seq,
    line: rec.line,
    tool: full.tool,
    kind: full.kind,
    args: targetArgs(full),
    startedAtMs: full.startedAtMs,
    timestampMs: typeof ts === "number" && Number.isFinite(ts) ? ts : undefined,
    modelCallId: typeof model === "string" && model !== "" ? model : undefined,
  };
}

import type { JsonRecord } from "../input/record.js";
import { toolCallOf, type ToolCall } from "./tool-call.js";
import { isInit, isResult, isToolCall } from "./types.js";

/** A tool call whose `started` event was seen, waiting for its completion. */
export interface OpenCall {
  callId: string;
  /** Order of the `started` event within its session, from 1. */
  seq: number;
  call: ToolCall;
  rec: JsonRecord;
}

/** A completion, paired with its start when there was one (by exact `call_id`). */
export interface CompletedCall {
  callId: string;
  /** The completion merged with its start: args from the start when the completion lacks them. */
  call: ToolCall;
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
  /** Started calls without a completion yet, in start order. */
  open: Map<string, OpenCall>;
  /** Number of `started` events seen. */
  startedCount: number;
}

/** What one event did to the sessions. */
export interface Step {
  session: Session;
  /** The session this event closed off by starting a new one. */
  ended?: Session;
  started?: OpenCall;
  /**
   * A `started` event for a call that is still open: the same call starting again. Every command
   * keeps the first start (its time, line and place) and ignores this one; validate reports it.
   */
  restarted?: OpenCall;
  completed?: CompletedCall;
}

/**
 * Splits the events of a file into sessions and pairs tool calls. A session begins at each
 * `system/init` (a resumed run reuses its session_id, so the id alone does not separate runs), at
 * the first event of a file, and at the first event after a `result`; it ends at its `result`, at
 * the next session, or at the end of the file. Memory: only the calls still open.
 */
export class SessionTracker {
  private current: Session | null = null;
  private count = 0;

  observe(rec: JsonRecord): Step {
    const ev = rec.value;
    let ended: Session | undefined;
    let s = this.current;
    if (s === null || s.result !== undefined || isInit(ev)) {
      ended = s ?? undefined;
      // Its lines run up to the one before this event (lines a command skipped unread included).
      if (ended && ended.result === undefined) ended.lastLine = Math.max(ended.lastLine, rec.line - 1);
      s = this.current = {
        index: ++this.count,
        file: rec.file,
        startLine: rec.line,
        lastLine: rec.line,
        open: new Map(),
        startedCount: 0,
      };
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
        const open: OpenCall = { callId: ev.call_id, seq: ++s.startedCount, call: toolCallOf(ev.tool_call), rec };
        s.open.set(ev.call_id, open);
        step.started = open;
      } else if (ev.subtype === "completed") {
        const started = s.open.get(ev.call_id);
        if (started) s.open.delete(ev.call_id);
        const call = toolCallOf(ev.tool_call);
        if (started) {
          if (call.args === undefined && started.call.args !== undefined) call.args = started.call.args;
          if (call.startedAtMs === undefined && started.call.startedAtMs !== undefined) call.startedAtMs = started.call.startedAtMs;
          if (call.kind === "unknown") {
            call.kind = started.call.kind;
            call.tool = started.call.tool;
          }
        }
        step.completed = started ? { callId: ev.call_id, call, started, rec } : { callId: ev.call_id, call, rec };
      }
    } else if (isResult(ev)) {
      s.result = rec;
    }
    return step;
  }

  /** End of a file: the session in progress ends with it, at the file's last line. */
  endFile(lastLine = 0): Session | undefined {
    const s = this.current;
    this.current = null;
    if (s && s.result === undefined) s.lastLine = Math.max(s.lastLine, lastLine);
    return s ?? undefined;
  }
}

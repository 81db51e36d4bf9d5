import { SessionTracker, type Session, type Step } from "../dialects/cursor/sessions.js";
import { isInit } from "../dialects/cursor/types.js";
import type { JsonRecord } from "../input/record.js";
import type { Finding, LifecycleRule } from "./finding.js";
import { quote } from "./quote.js";

/** `the agent CLI said: "RetriableError: …"` (quoted as every log value in a finding). */
function saidText(said: { text: string; more: number }): string {
  const more = said.more === 0 ? "" : ` (and ${said.more} more line${said.more === 1 ? "" : "s"})`;
  return `the agent CLI said: ${quote(said.text, 2000)}${more}`;
}

interface SessionState {
  session: Session;
  /** The session_id of the session's first event that has one, and that event's line. */
  sid?: string;
  sidLine: number;
  /** session_ids already reported as differing, so a run of them is reported once. */
  otherSids?: Set<string>;
  lastTs: number;
  lastTsLine: number;
  /** Calls completed so far: the completion's line and its start's, to name both on a second completion. */
  completed: Map<string, { line: number; startLine?: number }>;
}

/**
 * The checks no schema can make, across the events of a session (sessions as SessionTracker
 * splits them: at each system/init, after a result, at the end of a file; call ids are paired
 * within a session only, since models like Kimi reuse `Read_0` in every run).
 *
 * Errors: a session that does not start with system/init, or has no result; a started call that
 * never completes, starts again while open, completes twice, or completes as another kind; a
 * session_id that changes. Warnings (the real CLI does these): a completion without a start (a
 * rejected task call), timestamp_ms going backwards.
 */
export class LifecycleChecker {
  private readonly tracker = new SessionTracker();
  private state: SessionState | null = null;

  /** `allowEmpty`: a file without any session passes (validate --allow-empty). */
  constructor(private readonly allowEmpty = false) {}

  /** A line of the agent CLI's own text: it joins its session (see SessionTracker.said). */
  said(file: string, line: number, text: string): void {
    this.tracker.said(file, line, text);
  }

  /**
   * Findings this event reveals (possibly about the session it ended), or undefined. An array,
   * but for a session that ends with many calls open: then a generator (see `end`).
   */
  observe(rec: JsonRecord): Iterable<Finding> | undefined {
    const ev = rec.value;
    const cur = this.state;
    const step = this.tracker.observe(rec);
    const ended = step.ended !== undefined && cur !== null ? this.end(cur) : undefined;
    const out = this.check(rec, ev, step);
    if (ended === undefined || Array.isArray(ended)) return ended === undefined ? out : out === undefined ? ended : [...ended, ...out];
    return (function* () {
      yield* ended;
      if (out !== undefined) yield* out;
    })();
  }

  /** Findings about this event itself (a new session started by it included). */
  private check(rec: JsonRecord, ev: JsonRecord["value"], step: Step): Finding[] | undefined {
    let out: Finding[] | undefined;
    let st = this.state;
    if (st === null || st.session !== step.session) {
      st = this.state = { session: step.session, sidLine: 0, lastTs: -1, lastTsLine: 0, completed: new Map() };
      if (!isInit(ev)) {
        const after = step.ended?.result;
        const message =
          after !== undefined
            ? `a new session starts after the result at line ${after.line} without system/init`
            : `the session starts with ${typeof ev.type === "string" ? `a ${quote(ev.type)} event` : "an event without a type"}, not system/init`;
        out = add(out, rec, "error", "no-init", message, after !== undefined ? [after.line] : undefined);
      }
    }
    const sid = ev.session_id;
    if (typeof sid === "string") {
      if (st.sid === undefined) {
        st.sid = sid;
        st.sidLine = rec.line;
      } else if (sid !== st.sid && !st.otherSids?.has(sid)) {
        (st.otherSids ??= new Set()).add(sid);
        const message = `session_id ${quote(sid)} differs from ${quote(st.sid)} (line ${st.sidLine}) in the same session`;
        out = add(out, rec, "error", "session-id-change", message, [st.sidLine]);
      }
    }
    const ts = ev.timestamp_ms;
    if (typeof ts === "number") {
      if (ts < st.lastTs) {
        const message = `timestamp_ms goes back ${st.lastTs - ts} ms from line ${st.lastTsLine}`;
        out = add(out, rec, "warning", "timestamp-backwards", message, [st.lastTsLine]);
      }
      st.lastTs = ts;
      st.lastTsLine = rec.line;
    }
    if (step.restarted !== undefined) {
      const first = step.restarted.line;
      const message = `tool call ${quote(step.restarted.callId)} starts again while its start at line ${first} has not completed`;
      out = add(out, rec, "error", "duplicate-start", message, [first]);
    }
    const done = step.completed;
    if (done !== undefined) {
      const id = done.callId;
      if (done.started !== undefined) {
        const startLine = done.started.line;
        if (done.call.tool !== done.started.tool) {
          const message = `tool call ${quote(id)} completes as ${done.call.tool}, but it started at line ${startLine} as ${done.started.tool}`;
          out = add(out, rec, "error", "kind-mismatch", message, [startLine]);
        }
        st.completed.set(id, { line: rec.line, startLine });
      } else {
        const first = st.completed.get(id);
        if (first !== undefined) {
          const related = first.startLine !== undefined ? [first.line, first.startLine] : [first.line];
          const started = first.startLine !== undefined ? `, started at line ${first.startLine}` : "";
          const message = `tool call ${quote(id)} completes again: it completed at line ${first.line}${started}`;
          out = add(out, rec, "error", "double-completion", message, related);
        } else {
          const message = `tool call ${quote(id)} (${done.call.tool}) completes without a started event`;
          out = add(out, rec, "warning", "orphan-completion", message, undefined);
          st.completed.set(id, { line: rec.line });
        }
      }
    }
    return out;
  }

  /** End of a file: findings about the session it ends (see `end`). */
  endFile(file: string, lastLine: number, unreadable = false): Iterable<Finding> | undefined {
    const st = this.state;
    this.state = null;
    const last = this.tracker.endFile(lastLine);
    const unclaimed = this.tracker.unclaimed();
    if (last === undefined) {
      if (this.allowEmpty || unreadable) return undefined;
      const said = unclaimed === undefined ? "" : `; ${saidText(unclaimed)}`;
      return add(undefined, { file, line: unclaimed?.line ?? 1 }, "error", "no-session", `no session in the input${said}`, undefined);
    }
    return st === null ? undefined : this.end(st);
  }

  /**
   * Findings about a session that ended: one per call still open, then a missing result. An
   * array, or past FEW open calls a generator (a million open calls are never a million findings
   * at once); the session no longer changes, so it is read as the generator runs.
   */
  private end(st: SessionState): Iterable<Finding> | undefined {
    if (st.session.open.size <= FEW) {
      const out = [...sessionEndFindings(st)];
      return out.length === 0 ? undefined : out;
    }
    return sessionEndFindings(st);
  }
}

/** Open calls up to which a session's end findings come as an array. */
const FEW = 256;

function* sessionEndFindings(st: SessionState): Generator<Finding> {
  const s = st.session;
  for (const call of s.open.values()) {
    const message = `tool call ${quote(call.callId)} (${call.tool}) never completes: its session ends at line ${s.lastLine}`;
    yield finding({ file: s.file, line: call.line }, "error", "unfinished-call", message, [s.lastLine]);
  }
  if (s.result === undefined) {
    const who = st.sid !== undefined ? `session ${quote(st.sid)}` : `session #${s.index}`;
    const message =
      s.said === undefined ? `${who} has no result: it runs from line ${s.startLine} to line ${s.lastLine}` : `${who} has no result; ${saidText(s.said)}`;
    yield finding({ file: s.file, line: s.said?.line ?? s.lastLine }, "error", "no-result", message, [s.startLine]);
  }
}

function finding(at: { file: string; line: number }, severity: Finding["severity"], rule: LifecycleRule, message: string, related: number[] | undefined): Finding {
  const f: Finding = { file: at.file, line: at.line, severity, rule, path: "", message };
  if (related !== undefined) f.related = related;
  return f;
}

function add(
  out: Finding[] | undefined,
  at: { file: string; line: number },
  severity: Finding["severity"],
  rule: LifecycleRule,
  message: string,
  related: number[] | undefined,
): Finding[] {
  (out ??= []).push(finding(at, severity, rule, message, related));
  return out;
}

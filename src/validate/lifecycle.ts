import pc from "picocolors";
import { Reporter } from "../diagnostics.js";
import { isInit } from "../dialects/cursor/types.js";
import { dialectOf } from "../dialects/index.js";
import { drive } from "../driver/driver.js";
import type { JsonRecord } from "../input/record.js";
import type { Call } from "../model/call.js";
import type { AgentSaid, Run, Step } from "../model/run.js";
import type { Dialect } from "../dialects/dialect.js";
import type { Stage } from "../stream/stage.js";
import type { Finding, LifecycleRule } from "./finding.js";
import { quote } from "./quote.js";

/** `the agent CLI said: "RetriableError: …"` (quoted as every log value in a finding). */
function saidText(said: { text: string; more: number }): string {
  const more = said.more === 0 ? "" : ` (and ${said.more} more line${said.more === 1 ? "" : "s"})`;
  return `the agent CLI said: ${quote(said.text, 2000)}${more}`;
}

/** What the checker keeps of the run in progress, beyond the run model's facts. */
interface RunState {
  /** The session_id of the run's first event that has one, and that event's line. */
  sid?: string;
  sidLine: number;
  /** session_ids already reported as differing, so a run of them is reported once. */
  otherSids?: Set<string>;
  lastTs: number;
  lastTsLine: number;
  /** Calls completed so far: the completion's line and its start's, to name both on a second completion. */
  completed: Map<string, { line: number; startLine?: number }>;
}

/** The driver reports nothing for the checker (its findings are its report): a reporter no one reads. */
const SILENT = new Reporter(() => {}, pc.createColors(false), false);

/**
 * The checks no schema can make, across the events of a session. Runs and calls are the run
 * model's, as the driver tells them (a run begins at each system/init, after a result, at the
 * start of a file; call ids are paired within a run only, since models like Kimi reuse `Read_0`
 * in every run): a start for a call still open (Step.restarted), a completion and its start, the
 * calls a run left open, a run cut off. What a line says of itself (its type, session_id and
 * timestamp_ms) is read from the line: validate checks the format as written.
 *
 * Errors: a session that does not start with system/init, or has no result; a started call that
 * never completes, starts again while open, completes twice, or completes as another kind; a
 * session_id that changes. Warnings (the real CLI does these): a completion without a start (a
 * rejected task call), timestamp_ms going backwards, a command left open in a run that finished
 * where its dialect says why that is the CLI's way (Dialect.reapedAtExit: Codex's command reaped
 * at exit, its turn.completed following).
 *
 * Lines that tell nothing of the run (a Step with nothing set: Claude Code's hook and command-list
 * lines, which may come before its init) may open a session: it starts with its init when the
 * first line that tells something, or the init, comes after them; the no-init error, at the
 * session's first line, is told when that line comes (or the session ends). Lines after a
 * session's result that still belong to it (Claude Code's: a background task's end, a subagent's
 * last lines) are checked as the session's: its calls they complete are not left open.
 */
export class LifecycleChecker {
  private readonly stage: Stage;
  private state: RunState | null = null;
  /** The findings of the line (or file end) being read: arrays, or a generator for a run's many open calls. */
  private found: Iterable<Finding>[] = [];
  /** The call findings of the line, told after what the line says of itself. */
  private callFound: Finding[] | undefined;
  /**
   * A run that ended with its result: its end findings (calls it left open) come when the next
   * run begins or the file ends, after the lines between (the CLI's text after a result).
   */
  private finished: { run: Run; state: RunState } | undefined;
  /** The line of the result the previous run of this file ended with (a run that begins after it without init says so). */
  private afterResult: number | undefined;
  /** The no-init error of the run in progress, while only lines that tell nothing came (see above). */
  private noInit: Finding[] | undefined;

  /** `allowEmpty`: a file without any session passes (validate --allow-empty). `dialect`: the log's format, forced (--agent). */
  constructor(
    private readonly allowEmpty = false,
    dialect?: Dialect,
  ) {
    this.stage = drive(
      {
        runStart: (run, rec) => this.runStart(run, rec),
        callRestarted: (call, _run, r) => {
          const first = call.startLine ?? 0;
          const message = `tool call ${quote(call.id)} starts again while its start at line ${first} has not completed`;
          this.callFound = add(this.callFound, r, "error", "duplicate-start", message, [first]);
          return undefined;
        },
        callDone: (call, _run, r) => {
          this.completed(call, r);
          return undefined;
        },
        line: (r, step) => {
          this.line(r, step);
          return undefined;
        },
        runEnd: (run) => {
          const st = this.state;
          this.state = null;
          if (st === null) return undefined;
          this.tellNoInit();
          this.afterResult = run.result?.line;
          if (run.outcome === "cut-off") this.found.push(...nonEmpty(this.end(run, st)));
          else this.finished = { run, state: st };
          return undefined;
        },
        fileEnd: (file, _lastLine, last, unreadable, unclaimed) => {
          this.afterResult = undefined;
          this.flushFinished();
          if (last === undefined && !this.allowEmpty && !unreadable) this.found.push(noSession(file, unclaimed));
          return undefined;
        },
      },
      SILENT,
      { dialect, cutOff: "quiet", failed: false, said: false, fileEnd: false },
    );
  }

  /** A line of the agent CLI's own text: it joins its run (see DialectReader.said). */
  said(file: string, line: number, text: string): void {
    this.stage.said?.({ kind: "said", file, line, message: text });
  }

  /**
   * Findings this event reveals (possibly about the session it ended), or undefined. An array,
   * but for a session that ends with many calls open: then a generator (see `end`).
   */
  observe(rec: JsonRecord): Iterable<Finding> | undefined {
    this.stage.record(rec);
    return this.take();
  }

  /** End of a file: findings about the session it ends (see `end`). */
  endFile(file: string, lastLine: number, unreadable = false): Iterable<Finding> | undefined {
    this.stage.fileEnd?.(file, lastLine, unreadable);
    this.state = null;
    return this.take();
  }

  /** The findings gathered since the last call: undefined, an array, or a generator when one of them is. */
  private take(): Iterable<Finding> | undefined {
    const found = this.found;
    if (found.length === 0) return undefined;
    this.found = [];
    if (found.every((f) => Array.isArray(f))) return found.length === 1 ? found[0] : (found as Finding[][]).flat();
    return (function* () {
      for (const f of found) yield* f;
    })();
  }

  private flushFinished(): void {
    const f = this.finished;
    if (f === undefined) return;
    this.finished = undefined;
    this.found.push(...nonEmpty(this.end(f.run, f.state)));
  }

  /**
   * A run begins with this line: the end of the one that finished before it, then whether it
   * begins with init (told when its first line that tells something comes: see `line`).
   */
  private runStart(_run: Run, rec: JsonRecord): undefined {
    this.flushFinished();
    this.state = { sidLine: 0, lastTs: -1, lastTsLine: 0, completed: new Map() };
    this.noInit = undefined;
    const ev = rec.value;
    if (!isInit(ev)) {
      const after = this.afterResult;
      const message =
        after !== undefined
          ? `a new session starts after the result at line ${after} without system/init`
          : `the session starts with ${typeof ev.type === "string" ? `a ${quote(ev.type)} event` : "an event without a type"}, not system/init`;
      this.noInit = add(undefined, rec, "error", "no-init", message, after !== undefined ? [after] : undefined);
    }
    this.afterResult = undefined;
    return undefined;
  }

  /** The run's no-init error, now that a line told something before any init (or the run ended). */
  private tellNoInit(): void {
    if (this.noInit === undefined) return;
    this.found.push(this.noInit);
    this.noInit = undefined;
  }

  /** The checks' state of the run a line belongs to: the run in progress, or the one whose result came before it. */
  /**
   * The state of the run a line belongs to: the run being read, or the one that ended with its
   * result and goes on (Claude Code's lines after a result); undefined once that one is told too
   * (its lines then tell no lifecycle finding: the dialect has put them in a run already over).
   */
  private get current(): RunState | undefined {
    return this.state ?? this.finished?.state;
  }

  /** A call completed: a second completion, a completion without a start, one as another kind. */
  private completed(call: Call, r: JsonRecord): void {
    const st = this.current;
    if (st === undefined) return;
    const id = call.id;
    const startLine = call.startLine;
    if (startLine !== undefined) {
      if (call.startTool !== undefined && call.tool !== call.startTool) {
        const message = `tool call ${quote(id)} completes as ${call.tool}, but it started at line ${startLine} as ${call.startTool}`;
        this.callFound = add(this.callFound, r, "error", "kind-mismatch", message, [startLine]);
      }
      st.completed.set(id, { line: r.line, startLine });
      return;
    }
    const first = st.completed.get(id);
    if (first !== undefined) {
      const related = first.startLine !== undefined ? [first.line, first.startLine] : [first.line];
      const started = first.startLine !== undefined ? `, started at line ${first.startLine}` : "";
      const message = `tool call ${quote(id)} completes again: it completed at line ${first.line}${started}`;
      this.callFound = add(this.callFound, r, "error", "double-completion", message, related);
    } else {
      const message = `tool call ${quote(id)} (${call.tool}) completes without a started event`;
      this.callFound = add(this.callFound, r, "warning", "orphan-completion", message, undefined);
      st.completed.set(id, { line: r.line });
    }
  }

  /** What the line says of itself (its session_id, its timestamp_ms), then what it did to calls. */
  private line(rec: JsonRecord, step: Step): void {
    if (this.noInit !== undefined) {
      // Lines that tell nothing may come before the init (Claude Code's hooks): the run starts with it.
      if (step.init === true) this.noInit = undefined;
      else if (tellsSomething(step)) this.tellNoInit();
    }
    const st = this.current;
    if (st === undefined) return;
    const ev = rec.value;
    let out: Finding[] | undefined;
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
    if (this.callFound !== undefined) {
      out = out === undefined ? this.callFound : [...out, ...this.callFound];
      this.callFound = undefined;
    }
    if (out !== undefined) this.found.push(out);
  }

  /**
   * Findings about a run that ended: one per call still open, then a missing result. An array,
   * or past FEW open calls a generator (a million open calls are never a million findings at
   * once); the run no longer changes, so it is read as the generator runs.
   */
  private end(run: Run, st: RunState): Iterable<Finding> {
    if (run.openCount <= FEW) return [...runEndFindings(run, st)];
    return runEndFindings(run, st);
  }
}

/** The line told something of the run: a call, a message, thinking, a result, a notice, a background end (not only its name: init). */
function tellsSomething(step: Step): boolean {
  return (
    step.calls !== undefined ||
    step.result === true ||
    step.text !== undefined ||
    step.thinking !== undefined ||
    step.user !== undefined ||
    step.notice !== undefined ||
    step.backgroundEnd !== undefined
  );
}

/** Open calls up to which a run's end findings come as an array. */
const FEW = 256;

/** `iter` in a list, unless it is an empty array. */
function nonEmpty(iter: Iterable<Finding>): Iterable<Finding>[] {
  return Array.isArray(iter) && iter.length === 0 ? [] : [iter];
}

function* runEndFindings(run: Run, st: RunState): Generator<Finding> {
  // A run that finished (not failed, not cut off) whose dialect reaps commands at exit: a command
  // it left open is the CLI's way, a warning that says so.
  const reaped = run.outcome === "finished" ? dialectOf(run.agent)?.reapedAtExit : undefined;
  for (const call of run.eachOpenCall?.() ?? run.openCalls()) {
    const at = { file: run.file, line: call.startLine ?? 0 };
    if (reaped !== undefined && call.kind === "shell") {
      const message = `tool call ${quote(call.id)} (${call.tool}) never completes, its session ends at line ${run.lastLine}: ${reaped}`;
      yield finding(at, "warning", "unfinished-call", message, [run.lastLine]);
      continue;
    }
    const message = `tool call ${quote(call.id)} (${call.tool}) never completes: its session ends at line ${run.lastLine}`;
    yield finding(at, "error", "unfinished-call", message, [run.lastLine]);
  }
  if (run.result === undefined) {
    const who = st.sid !== undefined ? `session ${quote(st.sid)}` : `session #${run.index}`;
    const message =
      run.said === undefined ? `${who} has no result: it runs from line ${run.startLine} to line ${run.lastLine}` : `${who} has no result; ${saidText(run.said)}`;
    yield finding({ file: run.file, line: run.said?.line ?? run.lastLine }, "error", "no-result", message, [run.startLine]);
  }
}

/** A file with no run at all (empty, blank, all the CLI's text). */
function noSession(file: string, unclaimed: AgentSaid | undefined): Finding[] {
  const said = unclaimed === undefined ? "" : `; ${saidText(unclaimed)}`;
  return add(undefined, { file, line: unclaimed?.line ?? 1 }, "error", "no-session", `no session in the input${said}`, undefined);
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

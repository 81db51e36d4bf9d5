import type { Reporter } from "../../diagnostics.js";
import { runName } from "../../driver/report.js";
import { ExitCode } from "../../exit-codes.js";
import { escapeControls } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { MIN_BAR, packLanes, type Interval } from "../shared/lanes.js";
import type { RunCall, RunRecord } from "../shared/run-record.js";
import { runStage } from "../shared/run-stage.js";
import { requestIdOf } from "../otlp/ids.js";
import { genAiOf, isTimed } from "../otlp/spans.js";

export interface ChromeTraceOptions {
  allowIncomplete: boolean;
  /** stdout is a terminal: C1 controls and bidi characters are written as \u escapes too. */
  escape?: boolean;
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
}

/** Text kept in an event's args: a target (a heredoc command can be megabytes), a message. */
export const TARGET_MAX = 500;
export const MESSAGE_MAX = 2000;
/** A slice's name: the kind and the start of its target. */
const NAME_TARGET_MAX = 60;

/**
 * `cursorlog export --format chrome-trace`: Chrome Trace Event JSON (the object form) for
 * ui.perfetto.dev and chrome://tracing. One process per run (pid = its number), named after its
 * session; thread 0 ("agent") holds the run as one complete event and the agent's messages as
 * instant events; each lane of the HTML Gantt is a thread ("lane N", tid N), holding the calls the
 * Gantt draws in it as complete events (Perfetto does not draw overlapping complete events on one
 * track) with target, status and exit code in their args. Times are µs since the epoch, the run
 * model's (Run.start/end for the run, Call.timing for a call: the OTLP export's too); a call
 * without a time of its own sits at the latest time logged up to its line, zero-length, with
 * `time_absent` in its args; a run without times is laid out in start order, 1 µs per call, all
 * zero-length in one lane (as the HTML timeline lists them), with `time_unknown` in their args, and
 * a warning says so (once, at the first such run). One event per
 * line; a run's events are written when it is over (runStage), so a folder streams.
 */
export function toChromeTrace(opts: ChromeTraceOptions, reporter: Reporter): Stage {
  let started = false;
  const tty = opts.escape === true ? escapeControls : (s: string) => s;
  const line = (ev: object): string => tty(JSON.stringify(ev));
  let toldUntimed = false;
  return runStage(
    { allowIncomplete: opts.allowIncomplete, content: false, messages: true, agent: opts.agent },
    reporter,
    (run) => {
      if (!toldUntimed && !isTimed(run.run)) {
        // Said once, at the first such run, for all of them (as the OTLP export says it).
        toldUntimed = true;
        const r = run.run;
        const message = `${runName(r)} has no time in the log: its events are laid out in start order from 0, 1 µs per call, zero-length, with time_unknown in their args (no time is made up), as are those of any other run without times`;
        reporter.report({ severity: "warning", file: r.file, line: r.startLine, message, code: ExitCode.OK });
      }
      const events = runEvents(run).map(line);
      const head = started ? ",\n" : '{"traceEvents":[\n';
      started = true;
      return head + events.join(",\n");
    },
    () => (started ? '\n],"displayTimeUnit":"ms"}\n' : '{"traceEvents":[],"displayTimeUnit":"ms"}\n'),
  );
}

/** µs from ms (Chrome trace times are µs; fractions are allowed). */
function us(ms: number): number {
  const whole = Math.floor(ms); // epoch ms times 1e6 would pass 2^53: whole ms and the fraction apart
  return whole * 1000 + Math.round((ms - whole) * 1000);
}

export function runEvents(rec: RunRecord): object[] {
  const run = rec.run;
  const calls = rec.calls;
  const pid = run.index;
  // The run's start and end are the model's (Run.start, Run.end): the OTLP root span's too.
  const timed = isTimed(run);
  const out: object[] = [];
  const session = run.sessionId === undefined ? "(no session_id)" : cap(run.sessionId, 100); // as written: the trace's arg names, kept as exported
  out.push({ ph: "M", pid, tid: 0, name: "process_name", args: { name: `${session} · ${cap(run.file, 200)}:${run.startLine}` } });
  out.push({ ph: "M", pid, tid: 0, name: "process_sort_index", args: { sort_index: pid } });
  out.push({ ph: "M", pid, tid: 0, name: "thread_name", args: { name: "agent" } });

  // The axis, as the HTML Gantt's (timeline-html/layout.ts): from the run's start to its end.
  const lo = timed ? run.start!.ms : 0;
  const len = timed ? run.end!.ms - lo : Math.max(calls.length, 1);
  const span = Math.max(len, 1);
  const intervals: Interval[] = [];
  const approx: boolean[] = [];
  for (const c of calls) {
    const open = c.status === "open";
    if (timed) {
      const startMs = c.timing.start?.ms;
      const endMs = c.timing.end?.ms;
      // No time of its own: at the latest time logged up to its line, else the run's start.
      const start = (startMs ?? endMs ?? c.lastLoggedMs ?? lo) - lo;
      // A slice lasts the call's duration (Call.timing), or nothing, marked approximate: a start and
      // an end from two clocks, or out of order, give no duration (model/time.ts).
      const d = c.timing.durationMs;
      const end = open ? len : d !== undefined ? start + d : start;
      intervals.push({ start, end });
      approx.push(!open && (startMs === undefined || d === undefined));
    } else {
      // No time in the run: its order only, each call zero-length (one left open too), in one lane, as the HTML timeline lists them.
      intervals.push({ start: c.seq - 1, end: c.seq - 1 });
      approx.push(false);
    }
  }
  // A background task keeps its lane up to its end, as the HTML Gantt draws it.
  const packed = intervals.map((iv, i) => {
    const at = calls[i]!.background?.at;
    return at === undefined ? iv : { start: iv.start, end: Math.max(iv.end, at.ms - lo) };
  });
  const lanes = timed ? packLanes(packed, span * MIN_BAR) : calls.map(() => 0);
  const laneCount = lanes.reduce((n, l) => Math.max(n, l + 1), 0);
  for (let l = 0; l < laneCount; l++) {
    out.push({ ph: "M", pid, tid: l + 1, name: "thread_name", args: { name: `lane ${l + 1}` } });
    out.push({ ph: "M", pid, tid: l + 1, name: "thread_sort_index", args: { sort_index: l + 1 } });
  }

  const t0 = timed ? us(lo) : 0;
  const duration = run.stated?.durationMs;
  const runArgs: Record<string, unknown> = {
    session_id: run.sessionId ?? null, // as written: the trace's arg names, kept as exported
    request_id: requestIdOf(run) ?? null, // as written: the trace's arg names, kept as exported
    model: run.model ?? null,
    outcome: run.outcome === "finished" ? "finished" : run.outcome === "failed" ? "error" : "cut_off",
    duration_ms: typeof duration === "number" ? duration : null, // as written: the trace's arg names, kept as exported
    tool_calls: calls.length,
    file: run.file,
    first_line: run.startLine,
    last_line: run.lastLine,
  };
  if (!timed) runArgs.time_unknown = true;
  out.push({ ph: "X", pid, tid: 0, name: `${genAiOf(run).agent} run`, cat: "run", ts: t0, dur: timed ? us(len) : span, args: runArgs });

  calls.forEach((c, i) => {
    const iv = intervals[i]!;
    const ts = timed ? us(lo + iv.start) : iv.start;
    const dur = timed ? us(iv.end - iv.start) : iv.end - iv.start;
    out.push({ ph: "X", pid, tid: lanes[i]! + 1, name: callName(c), cat: statusOf(c) || "none", ts, dur, args: callArgs(c, approx[i]!, timed) });
  });

  for (const m of rec.messages) {
    // A message logged before any time: at the run's start, not after what was logged after it.
    const ms = m.ms ?? run.start?.ms;
    const ts = timed && ms !== undefined ? us(ms) : t0;
    out.push({ ph: "i", s: "t", pid, tid: 0, name: "message", cat: "message", ts, args: { text: cap(m.text, MESSAGE_MAX), line: m.line } });
  }
  for (const c of calls) {
    const bg = c.background;
    if (bg === undefined || !timed) continue;
    const ts = us(bg.at?.ms ?? run.end!.ms);
    const shell = c.kind === "shell";
    const args = shell
      ? { shell_id: c.backgroundTask, status: bg.status ?? null, call_id: c.id, line: bg.line } // as written: the trace's arg names, kept as exported
      : { task_id: c.backgroundTask, status: bg.status ?? null, call_id: c.id, line: bg.line }; // as written: the trace's arg names, kept as exported
    out.push({ ph: "i", s: "t", pid, tid: 0, name: shell ? "background shell ended" : "background task ended", cat: "background", ts, args });
  }
  return out;
}

/**
 * The agent's word for the outcome, as written (Call.arm); `incomplete` for a call left open; for
 * an agent that writes no word (Claude Code's ok and failed calls), the model's (CallStatus); ""
 * for a completion without outcome.
 */
function statusOf(c: RunCall): string {
  if (c.status === "open") return "incomplete";
  return c.arm ?? (c.status === "no-result" ? "" : c.status);
}

function callName(c: RunCall): string {
  const target = c.target.replace(/\s+/g, " ").trim();
  return target === "" ? c.kind : `${c.kind} ${cap(target, NAME_TARGET_MAX)}`;
}

function callArgs(c: RunCall, approx: boolean, timed: boolean): Record<string, unknown> {
  const args: Record<string, unknown> = {
    call_id: c.id, // as written: the trace's arg names, kept as exported
    seq: c.seq,
    kind: c.kind,
    tool: c.tool,
    action: c.label,
    target: cap(c.target, TARGET_MAX),
    status: statusOf(c),
    exit_code: c.status !== "open" && c.kind === "shell" && c.exitStatus !== undefined ? c.exitStatus : null, // as written: the trace's arg names, kept as exported
    // The model's duration (Call.timing): from one clock, never negative.
    duration_ms: c.timing.durationMs ?? null, // as written: the trace's arg names, kept as exported
    line: c.startLine ?? c.endLine ?? null,
  };
  if (c.responseId !== undefined) args.model_call_id = c.responseId; // as written: the trace's arg names, kept as exported
  if (c.parentId !== undefined) args.parent_call_id = c.parentId; // a subagent's call: its task call's id
  if (c.kind === "shell" && c.backgroundTask !== undefined) args.shell_id = c.backgroundTask; // as written: the trace's arg names, kept as exported
  if (approx) args.time_approximate = true;
  // The slice ends when the call's whole batch ended, not the call itself (Gemini CLI's, model/time.ts `batch`).
  if (c.timing.end?.from === "batch") args.end_source = "batch";
  if (timed && c.timing.start === undefined && c.timing.end === undefined) args.time_absent = true;
  if (!timed) args.time_unknown = true;
  return args;
}

function cap(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

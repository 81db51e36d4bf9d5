import type { Reporter } from "../../diagnostics.js";
import { actionLabel, actionTarget } from "../../dialects/cursor/action.js";
import { escapeControls } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { MIN_BAR, packLanes, type Interval } from "../shared/lanes.js";
import type { RunCall, RunRecord } from "../shared/run-record.js";
import { runStage } from "../shared/run-stage.js";

export interface ChromeTraceOptions {
  allowIncomplete: boolean;
  /** stdout is a terminal: C1 controls and bidi characters are written as \u escapes too. */
  escape?: boolean;
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
 * track) with target, status and exit code in their args. Times are µs since the epoch, as logged;
 * a run without times is laid out in start order, 1 µs per call, with `time_unknown` in its args.
 * One event per line; a run's events are written when it ends, so a folder streams.
 */
export function toChromeTrace(opts: ChromeTraceOptions, reporter: Reporter): Stage {
  let started = false;
  const tty = opts.escape === true ? escapeControls : (s: string) => s;
  const line = (ev: object): string => tty(JSON.stringify(ev));
  return runStage(
    { allowIncomplete: opts.allowIncomplete, content: false, messages: true },
    reporter,
    (run) => {
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

export function runEvents(run: RunRecord): object[] {
  const pid = run.index;
  const timed = run.firstMs !== undefined && run.lastMs !== undefined;
  const result = run.result;
  const out: object[] = [];
  const session = run.sessionId === undefined ? "(no session_id)" : cap(run.sessionId, 100);
  out.push({ ph: "M", pid, tid: 0, name: "process_name", args: { name: `${session} · ${cap(run.file, 200)}:${run.startLine}` } });
  out.push({ ph: "M", pid, tid: 0, name: "process_sort_index", args: { sort_index: pid } });
  out.push({ ph: "M", pid, tid: 0, name: "thread_name", args: { name: "agent" } });

  // The axis, as the HTML Gantt's (timeline-html/layout.ts): from the first logged time to the last.
  const lo = timed ? run.firstMs! : 0;
  const span = timed ? Math.max(run.lastMs! - lo, 1) : Math.max(run.calls.length, 1);
  const intervals: Interval[] = [];
  const approx: boolean[] = [];
  let prev = 0;
  for (const c of run.calls) {
    if (timed) {
      const known = c.startMs ?? c.endMs;
      const start = known === undefined ? prev : known - lo;
      const end = !c.completed ? span : c.endMs === undefined ? start : Math.max(c.endMs - lo, start);
      intervals.push({ start, end });
      approx.push(c.completed && (c.startMs === undefined || c.endMs === undefined));
      prev = start;
    } else {
      intervals.push({ start: c.seq - 1, end: c.completed ? c.seq - 1 : span });
      approx.push(false);
    }
  }
  // A background shell keeps its lane up to its task_notification, as the HTML Gantt draws it.
  const packed = intervals.map((iv, i) => {
    const endMs = run.calls[i]!.background?.endMs;
    return endMs === undefined ? iv : { start: iv.start, end: Math.max(iv.end, endMs - lo) };
  });
  const lanes = packLanes(
    timed ? packed : run.calls.map((c) => ({ start: c.seq - 1, end: c.completed ? c.seq : span })),
    span * MIN_BAR,
  );
  const laneCount = lanes.reduce((n, l) => Math.max(n, l + 1), 0);
  for (let l = 0; l < laneCount; l++) {
    out.push({ ph: "M", pid, tid: l + 1, name: "thread_name", args: { name: `lane ${l + 1}` } });
    out.push({ ph: "M", pid, tid: l + 1, name: "thread_sort_index", args: { sort_index: l + 1 } });
  }

  const t0 = timed ? us(lo) : 0;
  const runArgs: Record<string, unknown> = {
    session_id: run.sessionId ?? null,
    request_id: run.requestId ?? null,
    model: run.model ?? null,
    outcome: result === undefined ? "cut_off" : result.is_error === true ? "error" : "finished",
    duration_ms: typeof result?.duration_ms === "number" ? result.duration_ms : null,
    tool_calls: run.calls.length,
    file: run.file,
    first_line: run.startLine,
    last_line: run.lastLine,
  };
  if (!timed) runArgs.time_unknown = true;
  out.push({ ph: "X", pid, tid: 0, name: "cursor-agent run", cat: "run", ts: t0, dur: timed ? us(span) : span, args: runArgs });

  run.calls.forEach((c, i) => {
    const iv = intervals[i]!;
    const ts = timed ? us(lo + iv.start) : iv.start;
    const dur = timed ? us(iv.end - iv.start) : iv.end - iv.start;
    out.push({ ph: "X", pid, tid: lanes[i]! + 1, name: callName(c), cat: statusOf(c) || "none", ts, dur, args: callArgs(c, approx[i]!, timed) });
  });

  for (const m of run.messages) {
    const ms = m.ms ?? run.lastMs;
    const ts = timed && ms !== undefined ? us(ms) : t0;
    out.push({ ph: "i", s: "t", pid, tid: 0, name: "message", cat: "message", ts, args: { text: cap(m.text, MESSAGE_MAX), line: m.line } });
  }
  for (const c of run.calls) {
    const bg = c.background;
    if (bg === undefined || !timed) continue;
    const ts = us(bg.endMs ?? run.lastMs!);
    out.push({ ph: "i", s: "t", pid, tid: 0, name: "background shell ended", cat: "background", ts, args: { shell_id: c.shellId, status: bg.status ?? null, call_id: c.callId, line: bg.line } });
  }
  return out;
}

function statusOf(c: RunCall): string {
  return c.completed ? (c.call.status ?? "") : "incomplete";
}

function callName(c: RunCall): string {
  const target = actionTarget(c.call).replace(/\s+/g, " ").trim();
  return target === "" ? c.call.kind : `${c.call.kind} ${cap(target, NAME_TARGET_MAX)}`;
}

function callArgs(c: RunCall, approx: boolean, timed: boolean): Record<string, unknown> {
  const o = c.call.outcome ?? {};
  const exit = c.completed && c.call.kind === "shell" && typeof o.exitCode === "number" && Number.isFinite(o.exitCode) ? o.exitCode : null;
  const args: Record<string, unknown> = {
    call_id: c.callId,
    seq: c.seq,
    kind: c.call.kind,
    tool: c.call.tool,
    action: actionLabel(c.call),
    target: cap(actionTarget(c.call), TARGET_MAX),
    status: statusOf(c),
    exit_code: exit,
    duration_ms:
      c.completed && c.call.startedAtMs !== undefined && c.call.completedAtMs !== undefined
        ? c.call.completedAtMs - c.call.startedAtMs
        : c.completed && c.call.startedAtMs === undefined && c.call.completedAtMs === undefined && c.startMs !== undefined && c.endMs !== undefined
          ? c.endMs - c.startMs
          : null,
    line: c.startLine ?? c.endLine ?? null,
  };
  if (c.modelCallId !== undefined) args.model_call_id = c.modelCallId;
  if (c.shellId !== undefined) args.shell_id = c.shellId;
  if (approx) args.time_approximate = true;
  if (!timed) args.time_unknown = true;
  return args;
}

function cap(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

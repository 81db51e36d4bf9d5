// test-run: scaled
// Issue 25: every command tells the same facts. Each command that carries facts about runs and
// calls runs (in-process: run() below) over every log fixture (logFixtures() and
// examples/; other agents' logs are refused and left out), its output is read back into facts, and
// each fact is compared, as a number / a bin / a boolean, with the run model's answer (the cursor
// dialect and the driver in-process: src/model is the one rule). A fixture fails with a table of
// every fact on which some command differs from the model, command by command.
//
// Facts, and where each is read (a command that does not carry a fact is not asked for it):
//
//   per call (run index, seq):
//     duration  ms, or none          timeline ndjson duration_ms; timeline html ms; stats json
//                                    duration_ms of its listed calls; OTLP span end - start (not for
//                                    an open call, drawn to its run's end, nor a span without times,
//                                    cursor.time.unknown); Chrome slice dur (likewise); show markdown's
//                                    formatted duration (through show's own formatDuration). text -v
//                                    prints no duration.
//     status    ok / refused / failed / no-result / open
//                                    bins as printed by show (its mark), text -v (its note: none,
//                                    rejected / permission denied, no result, anything else failed;
//                                    no line for an open call) and stats (the list a call is in);
//                                    the agent's word as printed (timeline status, html status,
//                                    OTLP cursor.tool.status / error.type, Chrome args.status) is
//                                    put in a bin by model/status.ts's rule (binOfArm below).
//     background  ran on after completing
//                                    timeline background_end/background_ms (empty until the task's
//                                    end is logged: not asked for a task whose end is not); html bg;
//                                    stats background_tasks; OTLP cursor.shell.background /
//                                    subagent span's cursor.task.background; show's ↗ mark; text -v's
//                                    "in background"; Chrome's shell_id (shells only: it has no
//                                    mark for a subagent task).
//     bgEnd     ms from the call's start to the end of its background task (model/call.ts BackgroundEnd)
//                                    timeline background_ms; html bgMs; stats background_tasks
//                                    duration_ms; OTLP background_shell span end - call span start;
//                                    Chrome "background shell ended" instant ts - call slice ts;
//                                    show's "after …" (formatDuration); text -v's "after …" (seconds()).
//   per run (index in the file):
//     outcome   finished / failed / cut-off
//                                    stats, timeline html, OTLP root status, Chrome run slice args,
//                                    show's verdict. text prints none (a warning on stderr).
//     start, end  ms                 OTLP root span, Chrome run slice, timeline html startedAt
//                                    (+ span: end), show's "Started:" (no end: its footer prints the
//                                    result's duration_ms as written). stats prints no times: only a
//                                    duration, the result's as written (not checked) or, marked
//                                    estimated, end - start (checked as `wall`, like show's "about …").
//     calls <bin>, calls total       stats calls.{ok,…}; show's footer ("in background" counts as
//                                    ok, "without result" as open); timeline html byStatus; OTLP
//                                    cursor.tool_calls and Chrome args.tool_calls (total only).
//
// Not run: json (the agent's result object as written), diff and filter (file changes and raw
// lines), validate (line checks): they carry none of these facts.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { Readable } from "node:stream";
import { test } from "node:test";
import pc from "picocolors";
import { Reporter } from "../src/diagnostics.js";
import { drive } from "../src/driver/driver.js";
import { readInputs } from "../src/input/read-inputs.js";
import { isProblem } from "../src/input/record.js";
import type { Call } from "../src/model/call.js";
import type { CallStatus } from "../src/model/status.js";
import { seconds } from "../src/outputs/shared/background-end.js";
import { formatDuration } from "../src/outputs/show/call-view.js";
import { logFixtures } from "./helpers/records.js";
import { runCli } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";

type Value = number | string | boolean | null;
/** fact key → source → value. */
type Facts = Map<string, Map<string, Value>>;

const MODEL = "model";

function put(facts: Facts, key: string, source: string, value: Value): void {
  let m = facts.get(key);
  if (m === undefined) facts.set(key, (m = new Map()));
  if (m.has(source) && m.get(source) !== value) m.set(source, `${String(m.get(source))} and ${String(value)}`);
  else m.set(source, value);
}

const callKey = (run: number, seq: number, fact: string): string => `run ${run} call ${String(seq).padStart(3, "0")} ${fact}`;
const runKey = (run: number, fact: string): string => `run ${run} ${fact}`;

/** model/status.ts's rule, applied to the agent's word as an output prints it. */
function binOfArm(arm: unknown): CallStatus {
  if (arm === "success") return "ok";
  if (arm === "incomplete") return "open";
  if (arm === null || arm === undefined || arm === "" || arm === "no_result") return "no-result";
  if (arm === "rejected" || arm === "permissionDenied" || arm === "readPermissionDenied" || arm === "writePermissionDenied") return "refused";
  return "failed";
}

// ---------------------------------------------------------------------------------------------
// The model's answer: the cursor dialect and the driver, in-process, every line read (--lenient).

interface ModelRun {
  index: number;
  startLine: number;
  lastLine: number;
  /** Completed calls in completion order, then the calls left open (in start order). */
  done: Call[];
  open: Call[];
  /** Background ends in order: the seq of the call that started the task (undefined: none seen). */
  ends: Array<{ seq: number | undefined; durationMs: number | undefined; taskId: string }>;
}

async function modelOf(path: string, facts: Facts): Promise<ModelRun[]> {
  const runs: ModelRun[] = [];
  const current = (): ModelRun => runs[runs.length - 1]!;
  const reporter = new Reporter(() => undefined, pc.createColors(false), false);
  const stage = drive(
    {
      runStart: (run) => void runs.push({ index: run.index, startLine: run.startLine, lastLine: run.startLine, done: [], open: [], ends: [] }),
      callDone: (call) => void current().done.push(call),
      backgroundEnd: (end) => void current().ends.push({ seq: end.call?.seq, durationMs: end.durationMs, taskId: end.taskId }),
      runEnd: (run) => {
        const r = runs.find((x) => x.index === run.index)!;
        r.lastLine = run.lastLine;
        r.open = run.openCalls(1e9);
        put(facts, runKey(run.index, "outcome"), MODEL, run.outcome);
        put(facts, runKey(run.index, "start"), MODEL, run.start?.ms ?? null);
        put(facts, runKey(run.index, "end"), MODEL, run.end?.ms ?? null);
        put(facts, runKey(run.index, "wall"), MODEL, run.start !== undefined && run.end !== undefined ? run.end.ms - run.start.ms : null);
        return undefined;
      },
    },
    reporter,
    // Completions without a start take the next seq, as timeline numbers its rows (and every output its calls).
    { cutOff: "quiet", failed: false, said: false, reader: { numberUnstarted: true } },
  );
  for await (const batch of readInputs({ files: [path], stdin: Readable.from([]), maxLineBytes: 500 * 2 ** 20, stopAtMalformed: false })) {
    for (const item of batch.items) {
      if (isProblem(item)) {
        if (item.kind === "said") stage.said?.(item);
        continue;
      }
      try {
        stage.record(item);
      } catch {
        // A line the reader cannot take is skipped, as --lenient does.
      }
    }
    if (batch.fileEnd) stage.fileEnd?.(batch.file, batch.lastLine);
  }
  for (const r of runs) {
    const counts: Record<CallStatus, number> = { ok: 0, refused: 0, failed: 0, "no-result": 0, open: 0 };
    for (const c of [...r.done, ...r.open]) {
      counts[c.status]++;
      put(facts, callKey(r.index, c.seq, "status"), MODEL, c.status);
      put(facts, callKey(r.index, c.seq, "duration"), MODEL, c.timing.durationMs ?? null);
      put(facts, callKey(r.index, c.seq, "background"), MODEL, c.backgroundTask !== undefined);
    }
    for (const e of r.ends) if (e.seq !== undefined) put(facts, callKey(r.index, e.seq, "bgEnd"), MODEL, e.durationMs ?? null);
    for (const [bin, n] of Object.entries(counts)) put(facts, runKey(r.index, `calls ${bin}`), MODEL, n);
    put(facts, runKey(r.index, "calls total"), MODEL, r.done.length + r.open.length);
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// The commands.

interface Ran {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * A command run in-process (the command line's main, as test/helpers/run-cli.ts runs it: TZ=UTC,
 * NO_COLOR): what is compared here is what each output says, not how a process behaves (the built
 * executable's exit statuses, signals and standard streams: cli-spawn, output-faults, launcher).
 * It was a child process each, 56 of them: ~15 CPU s of make test for node's start-ups.
 */
function run(args: string[]): Promise<Ran> {
  return runCli(args);
}

/** `true` when run the command stopped before the end (usage or I/O error, a crash). */
const broken = (r: Ran): boolean => ![0, 1, 4, 5].includes(r.code);

/** The run (index) whose lines hold `line`. */
function runAt(runs: ModelRun[], line: number): ModelRun | undefined {
  return runs.find((r) => line >= r.startLine && line <= r.lastLine);
}

/**
 * timeline's background columns are empty until the task's end is logged: a call with them ran on;
 * a completed call without them did not, unless the model says it ran on and its end is not in the
 * log (then the columns cannot tell, and are not asked).
 */
function backgroundCells(facts: Facts, source: string, run: number, seq: number, status: CallStatus, shown: boolean, ms: Value): void {
  if (shown) {
    put(facts, callKey(run, seq, "background"), source, true);
    put(facts, callKey(run, seq, "bgEnd"), source, ms);
    return;
  }
  if (status === "open") return;
  const endLogged = facts.get(callKey(run, seq, "bgEnd"))?.has(MODEL) === true;
  const ranOn = facts.get(callKey(run, seq, "background"))?.get(MODEL) === true;
  if (endLogged) put(facts, callKey(run, seq, "bgEnd"), source, null);
  if (endLogged || !ranOn) put(facts, callKey(run, seq, "background"), source, false);
}

const iso = (s: unknown): number | null => (typeof s === "string" ? Date.parse(s) : null);

interface Source {
  name: string;
  args: string[];
  read(out: string, runs: ModelRun[], facts: Facts): void;
}

const SOURCES: Source[] = [
  {
    // Every column (the default).
    name: "timeline",
    args: ["timeline", "--format", "ndjson", "--allow-incomplete", "--lenient"],
    read(out, runs, facts) {
      for (const l of out.split("\n").filter((x) => x !== "")) {
        const row = JSON.parse(l) as Record<string, Value>;
        const r = runAt(runs, (row.started_line ?? row.completed_line) as number);
        if (r === undefined) continue;
        const seq = row.seq as number;
        const status = binOfArm(row.status);
        put(facts, callKey(r.index, seq, "status"), "timeline", status);
        put(facts, callKey(r.index, seq, "duration"), "timeline", row.duration_ms ?? null);
        backgroundCells(facts, "timeline", r.index, seq, status, row.background_end !== null || row.background_ms !== null, row.background_ms ?? null);
      }
    },
  },
  {
    name: "timeline-html",
    args: ["timeline", "--format", "html", "--allow-incomplete", "--lenient"],
    read(out, runs, facts) {
      const m = /<script type="application\/json" id="timeline-data">([\s\S]*?)<\/script>/.exec(out);
      if (m === null) throw new Error("no timeline-data in the page");
      const data = JSON.parse(m[1]!) as { sessions: Array<Record<string, unknown> & { calls: Array<Record<string, unknown>> }> };
      for (const s of data.sessions) {
        const r = runAt(runs, s.firstLine as number);
        if (r === undefined) continue;
        const i = r.index;
        put(facts, runKey(i, "outcome"), "timeline-html", s.outcome === "error" ? "failed" : s.outcome === "cut_off" ? "cut-off" : String(s.outcome));
        const start = iso(s.startedAt);
        put(facts, runKey(i, "start"), "timeline-html", start);
        if (s.axis === "time" && start !== null) put(facts, runKey(i, "end"), "timeline-html", start + (s.span as number));
        if (s.durationSource === "timestamps") put(facts, runKey(i, "wall"), "timeline-html", s.durationMs as number);
        const counts: Record<string, number> = { ok: 0, refused: 0, failed: 0, "no-result": 0, open: 0 };
        for (const [arm, n] of s.byStatus as Array<[string, number]>) counts[binOfArm(arm)]! += n;
        for (const [bin, n] of Object.entries(counts)) put(facts, runKey(i, `calls ${bin}`), "timeline-html", n);
        for (const c of s.calls) {
          const seq = c.seq as number;
          put(facts, callKey(i, seq, "status"), "timeline-html", binOfArm(c.status));
          put(facts, callKey(i, seq, "duration"), "timeline-html", (c.ms as number | null) ?? null);
          backgroundCells(facts, "timeline-html", i, seq, binOfArm(c.status), c.bg !== undefined || c.bgMs !== undefined, (c.bgMs as number | null) ?? null);
        }
      }
    },
  },
  {
    name: "stats",
    args: ["stats", "--format", "json", "--slowest", "1000000", "--max-list", "1000000", "--lenient"],
    read(out, runs, facts) {
      for (const l of out.split("\n").filter((x) => x !== "")) {
        const s = JSON.parse(l) as Record<string, any>;
        if (s.type !== "session") continue;
        const r = runAt(runs, s.first_line as number);
        if (r === undefined) continue;
        const i = r.index;
        put(facts, runKey(i, "outcome"), "stats", s.outcome === "error" ? "failed" : s.outcome === "cut_off" ? "cut-off" : String(s.outcome));
        if (s.duration_source === "timestamps" || s.duration_source === "estimated") put(facts, runKey(i, "wall"), "stats", s.duration_ms);
        for (const bin of ["ok", "refused", "failed", "no_result", "open"]) put(facts, runKey(i, `calls ${bin.replace("_", "-")}`), "stats", s.calls[bin]);
        put(facts, runKey(i, "calls total"), "stats", s.calls.total);
        // Its lists name a call by line: the completion's (the start's for an open call).
        const byEnd = new Map(r.done.map((c) => [c.endLine, c]));
        const byStart = new Map(r.open.map((c) => [c.startLine, c]));
        const listed = (items: Array<Record<string, any>>, bin: CallStatus | undefined, open = false): void => {
          for (const it of items) {
            const c = (open ? byStart : byEnd).get(it.line);
            if (c === undefined) {
              put(facts, `run ${i} stats line ${it.line}`, "stats", "a call the model does not know");
              continue;
            }
            put(facts, callKey(i, c.seq, "status"), "stats", bin ?? binOfArm(it.status));
            if (!open) put(facts, callKey(i, c.seq, "duration"), "stats", it.duration_ms ?? null);
          }
        };
        listed(s.slowest_calls, undefined);
        listed(s.failed_calls.items, "failed");
        listed(s.rejected_calls.items, "refused");
        listed(s.open_calls.items, "open", true);
        // Every background task it saw is listed: any other completed call did not run on.
        const bg = new Set<number>();
        for (const it of s.background_tasks.items) {
          const c = byEnd.get(it.line);
          if (c === undefined) continue;
          bg.add(c.seq);
          put(facts, callKey(i, c.seq, "background"), "stats", true);
          if (it.end_line !== null && it.end_line !== undefined) put(facts, callKey(i, c.seq, "bgEnd"), "stats", it.duration_ms ?? null);
        }
        for (const c of r.done) if (!bg.has(c.seq)) put(facts, callKey(i, c.seq, "background"), "stats", false);
      }
    },
  },
  {
    name: "otlp",
    args: ["export", "--allow-incomplete", "--lenient"],
    read(out, runs, facts) {
      for (const l of out.split("\n").filter((x) => x !== "")) {
        const doc = JSON.parse(l) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, any>> }> }> };
        const spans = doc.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
        const attrs = (s: Record<string, any>): Record<string, unknown> =>
          Object.fromEntries((s.attributes as Array<{ key: string; value: Record<string, unknown> }>).map((a) => [a.key, Object.values(a.value)[0]]));
        const ms = (ns: string): number => Number(BigInt(ns) / 1000000n) + Number(BigInt(ns) % 1000000n) / 1e6;
        const root = spans.find((s) => s.parentSpanId === undefined || s.parentSpanId === "");
        if (root === undefined) continue;
        const ra = attrs(root);
        const r = runAt(runs, Number(ra["cursor.log.first_line"]));
        if (r === undefined) continue;
        const i = r.index;
        const errType = ra["error.type"];
        put(facts, runKey(i, "outcome"), "otlp", root.status?.code === 2 ? (errType === "incomplete" ? "cut-off" : "failed") : "finished");
        // A run without times sits at the epoch (cursor.time.unknown on its root span): no time told.
        const timeless = ra["cursor.time.unknown"] === true;
        if (!timeless) {
          put(facts, runKey(i, "start"), "otlp", ms(root.startTimeUnixNano));
          put(facts, runKey(i, "end"), "otlp", ms(root.endTimeUnixNano));
        }
        put(facts, runKey(i, "calls total"), "otlp", Number(ra["cursor.tool_calls"]));
        const calls = new Map<string, { seq: number; span: Record<string, any> }>();
        /** A shell's own mark, or its subagent span's (below). */
        const background = new Map<number, boolean>();
        for (const s of spans) {
          if (s.parentSpanId !== root.spanId || !String(s.name).startsWith("execute_tool")) continue;
          const a = attrs(s);
          const seq = Number(a["cursor.tool.seq"]);
          calls.set(s.spanId, { seq, span: s });
          const open = a["error.type"] === "incomplete";
          put(facts, callKey(i, seq, "status"), "otlp", open ? "open" : binOfArm(a["cursor.tool.status"]));
          // An open call is drawn to its run's end, a call without times at the epoch: no duration told.
          if (!open && !timeless && a["cursor.time.unknown"] !== true && a["cursor.time.end_unknown"] !== true && a["cursor.time.start_unknown"] !== true) put(facts, callKey(i, seq, "duration"), "otlp", ms(s.endTimeUnixNano) - ms(s.startTimeUnixNano));
          if (!open) background.set(seq, a["cursor.shell.background"] === true);
        }
        for (const s of spans) {
          const parent = calls.get(s.parentSpanId);
          if (parent === undefined) continue;
          const a = attrs(s);
          if (s.name === "invoke_agent subagent" && a["cursor.task.background"] === true) background.set(parent.seq, true);
          if (s.name === "background_shell" && a["cursor.background.finished"] === true) {
            put(facts, callKey(i, parent.seq, "bgEnd"), "otlp", ms(s.endTimeUnixNano) - ms(parent.span.startTimeUnixNano));
          }
        }
        for (const [seq, bg] of background) put(facts, callKey(i, seq, "background"), "otlp", bg);
      }
    },
  },
  {
    name: "chrome",
    args: ["export", "--format", "chrome-trace", "--allow-incomplete", "--lenient"],
    read(out, runs, facts) {
      const doc = JSON.parse(out) as { traceEvents: Array<Record<string, any>> };
      const byPid = new Map<number, ModelRun>();
      for (const e of doc.traceEvents) {
        if (e.ph !== "X" || e.cat !== "run") continue;
        const r = runAt(runs, e.args.first_line);
        if (r === undefined) continue;
        byPid.set(e.pid, r);
        const i = r.index;
        put(facts, runKey(i, "outcome"), "chrome", e.args.outcome === "error" ? "failed" : e.args.outcome === "cut_off" ? "cut-off" : e.args.outcome);
        if (e.args.time_unknown !== true) {
          put(facts, runKey(i, "start"), "chrome", e.ts / 1000);
          put(facts, runKey(i, "end"), "chrome", (e.ts + e.dur) / 1000);
        }
        put(facts, runKey(i, "calls total"), "chrome", e.args.tool_calls);
      }
      const slices = new Map<string, { ts: number; seq: number }>();
      for (const e of doc.traceEvents) {
        const r = byPid.get(e.pid);
        if (r === undefined || e.ph !== "X" || e.cat === "run" || e.args?.seq === undefined) continue;
        const seq = e.args.seq as number;
        const open = e.args.status === "incomplete";
        put(facts, callKey(r.index, seq, "status"), "chrome", binOfArm(e.args.status));
        // The slice's own dur (not args.duration_ms). Not told: an open call's (its slice runs to its
        // run's end), a call's drawn without a logged start or end (time_approximate), or without times.
        if (!open && e.args.time_unknown !== true && e.args.time_approximate !== true) put(facts, callKey(r.index, seq, "duration"), "chrome", e.dur / 1000);
        // Only a shell says it ran on (its shell_id); a subagent task's slice has no such mark.
        if (!open && e.args.kind === "shell") put(facts, callKey(r.index, seq, "background"), "chrome", e.args.shell_id !== undefined);
        slices.set(`${e.pid}\u0000${e.args.call_id}`, { ts: e.ts, seq });
      }
      for (const e of doc.traceEvents) {
        const r = byPid.get(e.pid);
        if (r === undefined || e.ph !== "i" || e.cat !== "background") continue;
        const c = slices.get(`${e.pid}\u0000${e.args.call_id}`);
        if (c !== undefined) put(facts, callKey(r.index, c.seq, "bgEnd"), "chrome", (e.ts - c.ts) / 1000);
      }
    },
  },
  {
    name: "show",
    args: ["show", "--format", "markdown", "--lenient"],
    read(out, runs, facts) {
      const MARK: Record<string, CallStatus | "background"> = { "✓": "ok", "✗": "failed", "⊘": "refused", "↗": "background", "…": "open" };
      const sessions = out.split(/^### Session /m).slice(1);
      for (const text of sessions) {
        const logAt = /\*\*Log:\*\* .*:(\d+)\s*$/m.exec(text);
        const r = logAt === null ? undefined : runAt(runs, Number(logAt[1]));
        if (r === undefined) continue;
        const i = r.index;
        const started = /\*\*Started:\*\* (\S+)/.exec(text);
        if (started !== null) put(facts, runKey(i, "start"), "show", iso(started[1]));
        const foot = /^\*\*(✓ finished|✗ ended in error \(is_error\)|✗ the run did not finish: no result)\*\*(.*)$/m.exec(text);
        if (foot !== null) {
          put(facts, runKey(i, "outcome"), "show", foot[1]!.includes("finished") && !foot[1]!.includes("not") ? "finished" : foot[1]!.includes("error") ? "failed" : "cut-off");
          const about = / · about ([^·]+?) ·/.exec(foot[2]!);
          if (about !== null) put(facts, runKey(i, "wall"), "show", about[1]!);
          const counts: Record<string, number> = { ok: 0, refused: 0, failed: 0, "no-result": 0, open: 0 };
          const words: Record<string, string> = { ok: "ok", "in background": "ok", failed: "failed", refused: "refused", "completed without result": "no-result", "without result": "open" };
          for (const m of foot[2]!.matchAll(/(\d[\d,]*) (ok|in background|failed|refused|completed without result|without result)/g)) counts[words[m[2]!]!]! += Number(m[1]!.replace(/,/g, ""));
          for (const [bin, n] of Object.entries(counts)) put(facts, runKey(i, `calls ${bin}`), "show", n);
        }
        // Call lines, in the order calls completed, then the calls left open.
        const lines = [...text.matchAll(/^(?:<p>|<details><summary>)(✓|✗|⊘|↗|…) <b>.*?<\/b>(?:: <code>.*?<\/code>)?((?: · .*?)*)(?:<\/p>|<\/summary>)$/gm)];
        const order = [...r.done, ...r.open];
        lines.forEach((m, k) => {
          const c = order[k];
          if (c === undefined) {
            put(facts, `run ${i} show call line ${k + 1}`, "show", "a call the model does not know");
            return;
          }
          const parts = m[2]!.split(" · ").slice(1);
          // ✗ with the note "no result" is a completion without a result arm (its own bin).
          const mark = m[1] === "✗" && parts.includes("no result") ? "no-result" : MARK[m[1]!]!;
          put(facts, callKey(i, c.seq, "status"), "show", mark === "background" ? "ok" : mark);
          if (mark !== "open") put(facts, callKey(i, c.seq, "background"), "show", mark === "background");
          const d = parts.find((p) => /^(\d+ms|\d+\.\ds|\d+m \d+s|\d+h \d+m)$/.test(p));
          if (mark !== "open") put(facts, callKey(i, c.seq, "duration"), "show", d ?? null);
        });
        // Background ends, in the order they were logged.
        const ends = [...text.matchAll(/^(?:■|✗) (?:Background [^\n]*? ended[^\n]*?)$/gm)];
        ends.forEach((m, k) => {
          const e = r.ends[k];
          if (e?.seq === undefined) return;
          const after = / · after (.+)$/.exec(m[0]);
          put(facts, callKey(i, e.seq, "bgEnd"), "show", after === null ? null : after[1]!);
        });
      }
    },
  },
  {
    name: "text",
    args: ["text", "-v", "--allow-incomplete", "--lenient"],
    read(out, runs, facts) {
      // One action line per completed call, in the order calls completed, the runs one after another.
      const done = runs.flatMap((r) => r.done.map((c) => ({ r, c })));
      const ends = runs.flatMap((r) => r.ends.map((e) => ({ r, e })));
      let k = 0;
      let b = 0;
      for (const line of out.split("\n").filter((x) => x !== "" && !x.startsWith("The agent CLI said: "))) {
        const end = /^Background task (.*?) ended(?: \([^)]*\))?(?: after (\d+ ms|\d+\.\d\d s))?(?::|$)/.exec(line);
        if (end !== null) {
          const e = ends[b++];
          if (e?.e.seq !== undefined) put(facts, callKey(e.r.index, e.e.seq, "bgEnd"), "text", end[2] ?? null);
          continue;
        }
        const d = done[k++];
        if (d === undefined) {
          put(facts, `text line ${k}`, "text", "a call the model does not know");
          continue;
        }
        const notes = [...line.matchAll(/ \(([^()]*)\)/g)].map((m) => m[1]!);
        const bg = notes.some((n) => /^in background\b/.test(n));
        const note = notes.filter((n) => /^(rejected|permission denied|no result|failed|error|timed out|could not start)\b/.test(n)).pop();
        const bin: CallStatus = note === undefined ? "ok" : /^(rejected|permission denied)/.test(note) ? "refused" : note === "no result" ? "no-result" : "failed";
        put(facts, callKey(d.r.index, d.c.seq, "status"), "text", bin);
        put(facts, callKey(d.r.index, d.c.seq, "background"), "text", bg);
      }
      // A call left open gets no line.
    },
  },
];

/** The model's answer in each source's own terms (show and text print durations formatted). */
function expected(source: string, key: string, model: Value | undefined): Value | undefined {
  if (model === undefined || model === null || typeof model !== "number") return model;
  if (source === "show" && (key.endsWith(" duration") || key.endsWith(" bgEnd") || key.endsWith(" wall"))) return formatDuration(model);
  if (source === "text" && key.endsWith(" bgEnd")) return seconds(model);
  return model;
}

/** In make test, the fixtures that hold every kind of fact (each disagreement the model settles); all of them in make stress. */
const FAST = [
  "test/fixtures/timeline/disagreements.ndjson",
  "test/fixtures/timeline/clocks-and-ends.ndjson",
  "test/fixtures/timeline/no-timestamps-2025.ndjson",
  "test/fixtures/background-shells.ndjson",
  "test/fixtures/2026-long.ndjson",
  "test/fixtures/real-2026.ndjson",
  "test/fixtures/merged-stderr.ndjson",
  "examples/session.ndjson",
];

function fixtures(): string[] {
  const examples = readdirSync("examples")
    .filter((f) => f.endsWith(".ndjson"))
    .map((f) => `examples/${f}`);
  const all = [...logFixtures(), ...examples];
  for (const f of FAST) if (!all.includes(f)) throw new Error(`${f} is not a log fixture`);
  return STRESS ? all : FAST;
}

for (const path of fixtures()) {
  test(`every command tells the same facts: ${path}`, async () => {
    const facts: Facts = new Map();
    const runs = await modelOf(path, facts);
    const outs: Ran[] = [];
    for (const s of SOURCES) outs.push(await run([...s.args, path]));
    const problems: string[] = [];
    SOURCES.forEach((s, k) => {
      const r = outs[k]!;
      if (broken(r)) {
        problems.push(`${s.name}: exit ${r.code}: ${r.stderr.split("\n")[0]}`);
        return;
      }
      try {
        s.read(r.stdout, runs, facts);
      } catch (err) {
        problems.push(`${s.name}: output not understood: ${(err as Error).message}`);
      }
    });
    const rows: string[] = [];
    for (const key of [...facts.keys()].sort()) {
      const by = facts.get(key)!;
      const model = by.get(MODEL);
      const wrong: string[] = [];
      for (const [source, v] of by) {
        if (source === MODEL) continue;
        const want = expected(source, key, model);
        if (v !== want) wrong.push(`${source}=${JSON.stringify(v)}`);
      }
      if (wrong.length > 0) rows.push(`  ${key}: model=${model === undefined ? "(none)" : JSON.stringify(expected("", key, model))}  ${wrong.join("  ")}`);
    }
    const report = [...problems.map((p) => "  " + p), ...rows];
    assert.equal(report.length, 0, `${path}: the commands disagree with the model (${report.length}):\n${report.join("\n")}`);
  });
}

import type { Reporter } from "../diagnostics.js";
import type { Dialect, ReaderOptions } from "../dialects/dialect.js";
import { autoReader, skipByDialect } from "../dialects/index.js";
import type { RawSkip } from "../input/raw-skip.js";
import type { JsonRecord, Problem } from "../input/record.js";
import type { BackgroundEnd, Call } from "../model/call.js";
import type { AgentSaid, Notice, Run, Step } from "../model/run.js";
import { joinPieces, type Stage } from "../stream/stage.js";
import { reportCutOff, reportFailed, reportFileEnd, reportSaid, reportWarning, type CutOffReport } from "./report.js";

/** What an output returns: text, bytes written as they are, pieces of much text, or nothing. */
export type Out = string | Buffer | Iterable<string> | undefined;

/**
 * An output, as the driver calls it (ripgrep's Sink to its Searcher): it renders what it is told
 * and decides nothing about runs, calls, times or statuses — the model has decided those. Every
 * method is optional; each returns what to write.
 *
 * Order, for one line: the run it closed off ends (`runEnd`), its own run begins (`runStart`),
 * then what the line did (`callStarted` / `callRestarted` / `callDone` / `backgroundEnd`), then
 * `line` with the line itself, then, when the line is the run's result, `runEnd`. At the end of a
 * file its last run ends (`runEnd`), then `fileEnd`; `finish` once at the very end.
 */
export interface RunSink {
  runStart?(run: Run, rec: JsonRecord): Out;
  callStarted?(call: Call, run: Run, rec: JsonRecord): Out;
  /** A start for a call still open: every output keeps the first start; validate reports this one. */
  callRestarted?(call: Call, run: Run, rec: JsonRecord): Out;
  callDone?(call: Call, run: Run, rec: JsonRecord): Out;
  backgroundEnd?(end: BackgroundEnd, run: Run, rec: JsonRecord): Out;
  /** Every parsed line, after the facts it gave were told (messages, kept lines, the raw result). */
  line?(rec: JsonRecord, step: Step): Out;
  /**
   * A line of the agent CLI's own text. `run`: the run it joined (undefined: none is in progress;
   * it joins the file's next run, or is told at the file's end). Without this method it is told
   * with its run, once (RunSink.runEnd's run.said).
   */
  said?(p: Problem, run: Run | undefined): Out;
  /** The run ended: its result, the next run, or the end of its file (outcome `cut-off`). */
  runEnd?(run: Run): Out;
  /**
   * `last`: the run the file ended with (undefined: the file held none). `unclaimed`: the CLI's
   * text no run took (DialectReader.unclaimed), for an output that tells it itself.
   */
  fileEnd?(file: string, lastLine: number, last: Run | undefined, unreadable: boolean, unclaimed: AgentSaid | undefined): Out;
  finish?(): Out;
}

export interface DriverOptions {
  /** The log's format, forced (`--agent`); undefined: each file's own (dialects/index.ts dialectFor). */
  dialect?: Dialect | undefined;
  reader?: ReaderOptions;
  /**
   * Lines this output does not need, decided from raw bytes (input/raw-skip.ts), for a file of
   * the dialect given: which lines those are depends on the format (a cursor-agent `user` line is
   * a prompt, a Claude Code one holds tool results).
   */
  skip?: (dialect: Dialect) => RawSkip | undefined;
  /**
   * What a run cut off tells on stderr (driver/report.ts): `error`, exit 4 (the default);
   * `warning`; `warning-if-open`, a warning only when it left calls open; `quiet`, nothing but
   * what the agent CLI said in it (a warning); `accepted` (--allow-incomplete), nothing at all.
   */
  cutOff?: CutOffReport;
  /** A failed run (the agent's result says so) is exit 1 with its message (default true). */
  failed?: boolean;
  /** The agent CLI's text in a run is one warning at the run's end (default true; a sink with `said` tells it itself). */
  said?: boolean;
  /**
   * A warning the agent CLI wrote into the stream (a Notice of kind `warning`: Gemini CLI's `error`
   * events, Codex's `error` items) is a warning on stderr at its line, each where it came; one of
   * severity `error` when its run ends, unless it is why the run failed (the failure's line quotes
   * it). Default false: show tells each in its transcript, filter keeps lines, validate has findings
   * of its own.
   */
  warnings?: boolean;
  /**
   * A file that held no run: `error`, exit 4 "no session in the input" (the default); `quiet`, no
   * error (an export of nothing is an empty one), the CLI's text in it still a warning.
   */
  noRun?: "error" | "quiet";
  /**
   * The agent CLI's text that no run took, in a file that held a run (text after its last result),
   * is a warning at the file's end (default true; false: the sink shows it, in its `said` and
   * `fileEnd`). A file with no run at all is an error either way.
   */
  unclaimed?: boolean;
  /**
   * What the end of a file tells beyond its runs (driver/report.ts reportFileEnd): a file with no
   * run is exit 4, the CLI's text no run took a warning (default true; filter, which writes lines, tells neither).
   */
  fileEnd?: boolean;
}

/**
 * The driver: reads lines through a dialect into the run model and hands the model to an output.
 * Run boundaries, runs cut off, the agent CLI's own text, background ends and what the end of a
 * file tells are handled here, once, for every output.
 */
export function drive(sink: RunSink, reporter: Reporter, opts: DriverOptions = {}): Stage {
  const dialect = opts.dialect;
  const reader = dialect !== undefined ? dialect.reader(opts.reader ?? {}) : autoReader(opts.reader ?? {});
  const cutOff = opts.cutOff ?? "error";
  const tellFailed = opts.failed !== false;
  const tellSaid = opts.said !== false && sink.said === undefined;
  const tellFileEnd = opts.fileEnd !== false;
  const tellWarnings = opts.warnings === true;
  /**
   * The run's last warning of severity `error` (Gemini CLI's), held until the next or the run's end:
   * it may be why the run failed (Run.failure), told then by the failure's own line, not twice. One
   * at a time: memory stays bounded whatever the log holds.
   */
  let heldWarning: { run: Run; file: string; line: number; notice: Extract<Notice, { kind: "warning" }> } | undefined;

  function ended(run: Run): Out {
    // What the CLI said in a run cut off is told with its report; with `accepted`, not at all.
    let saidTold = false;
    const w = heldWarning;
    if (w !== undefined && w.run === run) {
      heldWarning = undefined;
      if (run.outcome !== "failed" || w.notice.text !== run.failure) reportWarning(reporter, w.file, w.line, w.notice);
    }
    if (run.outcome === "cut-off") saidTold = reportCutOff(reporter, run, cutOff) || cutOff === "accepted";
    else if (run.outcome === "failed" && tellFailed) reportFailed(reporter, run);
    if (tellSaid && !saidTold && run.said !== undefined) reportSaid(reporter, run.file, run.said);
    return sink.runEnd?.(run);
  }

  const stage: Stage = {
    record(rec: JsonRecord) {
      const step = reader.read(rec);
      const run = step.run;
      if (tellWarnings && step.notice?.kind === "warning") {
        if (step.notice.severity === "error") {
          const w = heldWarning;
          if (w !== undefined) reportWarning(reporter, w.file, w.line, w.notice);
          heldWarning = { run, file: rec.file, line: rec.line, notice: step.notice };
        } else reportWarning(reporter, rec.file, rec.line, step.notice);
      }
      // Most lines write nothing: no list is made for them (json's and filter's hot path).
      let out: Out;
      // A run ends once: with its result, or here when the next one begins without one.
      if (step.ended !== undefined && step.ended.result === undefined) out = ended(step.ended);
      if (step.begun === true && sink.runStart !== undefined) out = more(out, sink.runStart(run, rec));
      if (step.calls !== undefined) {
        // A line may tell many calls (a Claude Code line of N tool_use blocks): their outputs are
        // joined once, not each onto the text so far (N copies of a growing text: N² bytes). The
        // first output is held as it is: a line of one call (every cursor-agent one) makes no list.
        let first: Out;
        let rest: Out[] | undefined;
        for (const e of step.calls) {
          const o = e.what === "started" ? sink.callStarted?.(e.call, run, rec) : e.what === "restarted" ? sink.callRestarted?.(e.call, run, rec) : sink.callDone?.(e.call, run, rec);
          if (o === undefined || o === "") continue;
          if (first === undefined) first = o;
          else (rest ??= [first]).push(o);
        }
        if (first !== undefined) out = more(out, rest === undefined ? first : join(rest));
      }
      if (step.backgroundEnd !== undefined && sink.backgroundEnd !== undefined) out = more(out, sink.backgroundEnd(step.backgroundEnd, run, rec));
      if (sink.line !== undefined) out = more(out, sink.line(rec, step));
      if (step.result === true) out = more(out, ended(run));
      return out === "" ? undefined : out;
    },
    said(p: Problem) {
      const run = reader.said(p.file, p.line ?? 0, p.message);
      return sink.said === undefined ? undefined : (join([sink.said(p, run)]) as string | undefined);
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const last = reader.endFile(lastLine);
      const outs: Out[] = [];
      // A run that ended with its result was told then.
      if (last !== undefined && last.result === undefined) outs.push(ended(last));
      const unclaimed = reader.unclaimed();
      if (tellFileEnd) reportFileEnd(reporter, file, last !== undefined || opts.noRun === "quiet", last !== undefined && opts.unclaimed === false ? undefined : unclaimed, unreadable === true);
      if (sink.fileEnd !== undefined) outs.push(sink.fileEnd(file, lastLine, last, unreadable === true, unclaimed));
      return join(outs) as string | Iterable<string> | undefined;
    },
  };
  if (opts.skip !== undefined) {
    const skip = dialect !== undefined ? opts.skip(dialect) : skipByDialect(opts.skip);
    if (skip !== undefined) stage.skip = skip;
  }
  if (sink.finish !== undefined) stage.finish = () => join([sink.finish!()]) as string | Iterable<string> | undefined;
  return stage;
}

/** `a` then `b`, either of them empty. */
function more(a: Out, b: Out): Out {
  if (b === undefined || b === "") return a;
  if (a === undefined || a === "") return b;
  return join([a, b]);
}

function join(outs: Out[]): Out {
  let only: Out;
  let n = 0;
  for (const o of outs) {
    if (o === undefined || o === "") continue;
    only = o;
    n++;
  }
  if (n <= 1) return only;
  if (outs.some((o) => Buffer.isBuffer(o))) {
    // Bytes and text together (filter's kept lines are bytes): one buffer.
    return Buffer.concat(outs.filter((o) => o !== undefined).map((o) => (Buffer.isBuffer(o) ? o : Buffer.from(typeof o === "string" ? o : [...o].join("")))));
  }
  return joinPieces(outs.filter((o): o is string | Iterable<string> => o !== undefined));
}

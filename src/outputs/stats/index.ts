import type { Reporter } from "../../diagnostics.js";
import { forcedDialect } from "../../dialects/index.js";
import { drive, type DriverOptions, type RunSink } from "../../driver/driver.js";
import { ExitCode } from "../../exit-codes.js";
import type { Run } from "../../model/run.js";
import { goesOnAfterResult } from "../shared/subagents.js";
import type { Stage } from "../../stream/stage.js";
import { RunStats, type StatsLimits } from "./collect.js";
import { StatsTotalAcc } from "./total.js";
import type { SessionStats, StatsRenderer } from "./types.js";

export interface StatsOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  limits: StatsLimits;
  render: StatsRenderer;
  /** `-e`: exit 1 for a result with is_error:true, 4 for a session cut off. Otherwise the report is the answer (exit 0). */
  exitStatus: boolean;
  /** Keep strings whole (json): the prompt, targets, commands and notes are not cut. */
  whole?: boolean;
}

/**
 * The driver's options for stats: the report is the answer, so a run cut off or failed, and what
 * the agent CLI said, are told in it, not on stderr.
 */
export function statsDriver(agent: string | undefined): DriverOptions {
  return { dialect: forcedDialect(agent), cutOff: "quiet", failed: false, said: false };
}

/**
 * What the driver tells, into one report per run: `report` gets each as its run ends and returns
 * what to write. A run whose lines go on after its result (goesOnAfterResult: Claude Code's
 * background tasks and subagents still running) is reported when the next run begins or its file
 * ends, with what those lines told (their calls, the tasks' ends). `report` gets the run too, for
 * what the report does not hold (`runs`: its agent, its start time, its failure message).
 */
export function statsSink(limits: StatsLimits, whole: boolean, report: (s: SessionStats, run: Run) => string | undefined): RunSink {
  let acc = new RunStats(limits, whole);
  /** The run ended with its result and goes on: reported later. */
  let held: Run | undefined;
  const release = (): string | undefined => {
    const run = held;
    held = undefined;
    return run === undefined ? undefined : report(acc.finish(run), run);
  };
  return {
    runStart() {
      const out = release();
      acc = new RunStats(limits, whole);
      return out;
    },
    callDone(call) {
      acc.done(call);
      return undefined;
    },
    backgroundEnd(end) {
      acc.backgroundEnd(end);
      return undefined;
    },
    line(rec, step) {
      // The prompt is the run's own: a subagent's user message is not.
      if (step.user !== undefined && step.parentId === undefined) acc.user(step.user);
      // A warning the agent CLI wrote into the stream: listed in the report, at its line.
      if (step.notice?.kind === "warning") acc.warning(rec.line, step.notice.severity, step.notice.text);
      return undefined;
    },
    runEnd(run) {
      if (run.result !== undefined && goesOnAfterResult(run)) {
        held = run;
        return undefined;
      }
      return report(acc.finish(run), run);
    },
    fileEnd: release,
  };
}

/**
 * `cursorlog stats`: a summary per session, written as soon as the session ends (its result, the
 * next init, the end of its file), so a live pipe shows each block without waiting for the input
 * to end; the total comes last. Memory: the current session's counters and capped lists.
 */
export function toStats(opts: StatsOptions, reporter: Reporter): Stage {
  const total = new StatsTotalAcc();
  const sink = statsSink(opts.limits, opts.whole === true, (report) => {
    total.add(report);
    if (opts.exitStatus && report.outcome === "error") reporter.raise(ExitCode.NEGATIVE);
    if (opts.exitStatus && report.outcome === "cut_off") reporter.raise(ExitCode.INCOMPLETE);
    return opts.render.session(report);
  });
  sink.finish = () => opts.render.total(total.report());
  return drive(sink, reporter, statsDriver(opts.agent));
}

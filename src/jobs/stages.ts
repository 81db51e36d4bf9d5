import pc from "picocolors";
import type { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { compilePredicate, rawSkipFor, toActionsText, toFilteredEvents, toResultJson, toTimelineCsv } from "../outputs/log-stages.js";
import { compileCallPredicate, compileLinePredicate, type PredicateSpec } from "../query/predicate.js";
import { parseWhere } from "../query/where-clause.js";
import type { TimelineColumn } from "../outputs/timeline/columns.js";
import type { RunsColumn } from "../outputs/runs/columns.js";
import type { RunsFormat } from "../outputs/runs/render.js";
import type { TimelineFormat } from "../outputs/timeline/lines.js";
import type { Stage } from "../stream/stage.js";
import { refuseOtherAgents } from "../stream/refuse-other-agents.js";
import type { FilterStage } from "../outputs/filter/index.js";
import { withFileNames } from "../outputs/shared/file-names.js";
import { escapeControls } from "../sanitize.js";
import type { OtlpOptions, SendOptions } from "../outputs/otlp/index.js";
import type { Writable } from "node:stream";
import { lazy } from "../lazy.js";

const runsOutput = lazy(() => import("../outputs/runs/index.js"));
const otlpOutput = lazy(() => import("../outputs/otlp/index.js"));

/**
 * The stages whose output for a file depends on that file alone, described by plain data
 * (command name and options, nothing but JSON values) so that a `--jobs` worker thread can build
 * the same stage as the command line did, from a message. The commands build their stage here
 * too, so a sequential run and a worker can never disagree on what the options mean.
 *
 * Not here, and so without `--jobs`: `stats` (a total over every file), `validate` (one summary,
 * --max-errors across files), `timeline --format html` and `export --format chrome-trace` (one
 * document for every input), `runs --sort` (its rows sorted over every file).
 */
export type StageSpec =
  | { command: "json"; options: { agent?: string | undefined; pretty: boolean; allowIncomplete: boolean; colors?: boolean; escape?: boolean; fileNames?: boolean } }
  | { command: "text"; options: { agent?: string | undefined; verbose: boolean; final: boolean; allowIncomplete: boolean; color: boolean; fileNames?: boolean } }
  | {
      command: "filter";
      options: {
        agent?: string | undefined;
        /** The predicates, `--where` clauses as written (compiled where the stage is built). */
        spec: Omit<PredicateSpec, "where"> & { where?: readonly string[] };
        since?: number | undefined;
        until?: number | undefined;
        pair: boolean;
        count: boolean;
        exitStatus: boolean;
        /** Standard output is a terminal: lines written with \uXXXX escapes (toFilteredEvents). */
        escape?: boolean;
        /** -v: the events the predicates reject. */
        invert?: boolean;
        /** -H: `FILE:` before each line, and with --count a count per file. */
        fileNames?: boolean;
      };
    }
  | {
      command: "timeline";
      options: {
        agent?: string | undefined;
        format: TimelineFormat;
        columns: readonly TimelineColumn[];
        safe: boolean;
        escape: boolean;
        header: boolean;
        allowIncomplete: boolean;
        /** CSV: line breaks inside cells written as they are (quoted), not as \n and \r. */
        multiline?: boolean;
      };
    }
  | {
      command: "runs";
      /** Without --sort (which holds the rows of every file: one thread). */
      options: {
        agent?: string | undefined;
        format: RunsFormat;
        columns: readonly RunsColumn[];
        header: boolean;
        escape: boolean;
        /** The table's colours on. */
        color: boolean;
        width: number;
        /** `--where` clauses as written (compiled where the stage is built). */
        where?: readonly string[] | undefined;
        exitStatus: boolean;
      };
    }
  | {
      command: "export";
      /**
       * OTLP/JSON, one document per run; with `send`, the runs' spans go over OTLP/HTTP instead,
       * each runner sending the runs of the files it reads (see buildFileStage).
       */
      options: OtlpOptions & { send?: SendOptions };
    };

/**
 * The stage a command runs over all its inputs (one run, one thread). Every command but `filter`
 * (which selects lines of any NDJSON) refuses a file that is another agent's log.
 */
export async function buildStage(spec: StageSpec, reporter: Reporter): Promise<Stage> {
  const stage = await buildBareStage(spec, reporter);
  return spec.command === "filter" ? stage : refuseOtherAgents(stage, reporter, spec.options.agent);
}

async function buildBareStage(spec: StageSpec, reporter: Reporter): Promise<Stage> {
  switch (spec.command) {
    case "json":
      return toResultJson(spec.options, reporter);
    case "text": {
      const { color, fileNames, ...rest } = spec.options;
      const colors = pc.createColors(color);
      const stage = toActionsText({ ...rest, colors }, reporter);
      // As grep colours them: the name magenta, the colon cyan; log text is always escaped here, names too.
      return fileNames === true ? withFileNames(stage, (file) => colors.magenta(escapeControls(file)) + colors.cyan(":")) : stage;
    }
    case "filter": {
      const o = spec.options;
      const predicates: PredicateSpec = { ...o.spec, where: o.spec.where?.map((w) => parseWhere(w)) };
      const names = o.fileNames === true;
      const calls = compileCallPredicate(predicates);
      const stage = toFilteredEvents(
        {
          test: compilePredicate(predicates),
          skip: rawSkipFor(predicates),
          skipFor: (d) => rawSkipFor(predicates, d),
          // A file whose calls span line types (Claude Code's) selects calls on the run model.
          model: calls === undefined ? undefined : { line: compileLinePredicate(predicates), calls },
          since: o.since,
          until: o.until,
          pair: o.pair,
          count: o.count,
          exitStatus: o.exitStatus,
          escape: o.escape === true,
          invert: o.invert === true,
          countPerFile: names && o.count,
          agent: o.agent,
        },
        reporter,
      );
      // The events stay as read; the name before them has its control characters escaped (one line each).
      return names ? Object.assign(withFileNames(stage, (file) => escapeControls(file) + ":"), { kept: stage.kept }) : stage;
    }
    case "timeline":
      return toTimelineCsv(spec.options, reporter);
    case "runs": {
      const { color, where, ...rest } = spec.options;
      const { toRuns } = await runsOutput();
      return toRuns({ ...rest, colors: rest.format === "table" ? pc.createColors(color) : undefined, where: where?.map((w) => parseWhere(w)) }, reporter);
    }
    case "export": {
      // The OpenTelemetry packages are a bundle of their own, loaded only by an export.
      const { send, ...options } = spec.options;
      if (send !== undefined) throw new Error("export --endpoint: the stage of a run that sends is built per task (buildFileStage)");
      const { toOtlpJson } = await otlpOutput();
      return toOtlpJson(options, reporter);
    }
  }
}

/** A stage whose output goes somewhere else than the task's output file, and what to do after it. */
export interface FileSink {
  out: Writable;
  /** After the stage: delivers what is left and lets go; rejects with the message of what failed. */
  end(): Promise<void>;
}

/**
 * One file of a `--jobs` run: the stage for file number `index`, and its tally for what is
 * written once after all files (see finishFiles). Concatenating the outputs of files 0..n-1 in order
 * and then finishFiles' text gives the bytes of the sequential run.
 */
export async function buildFileStage(
  spec: StageSpec,
  index: number,
  reporter: Reporter,
): Promise<{ stage: Stage; tally: () => number; sink?: FileSink }> {
  switch (spec.command) {
    case "timeline":
      // The header once, at the top of the first file's output.
      return { stage: await buildStage({ ...spec, options: { ...spec.options, header: spec.options.header && index === 0 } }, reporter), tally: () => 0 };
    case "runs":
      // Likewise (each file's table has the same widths: fixed before its first line).
      return { stage: await buildStage({ ...spec, options: { ...spec.options, header: spec.options.header && index === 0 } }, reporter), tally: () => 0 };
    case "export": {
      const { send, ...options } = spec.options;
      if (send === undefined) break;
      // Sending: this runner sends its task's runs itself, as `export --endpoint` does in one
      // thread (the sender's sink takes the stage's bytes as its cue), and waits for them to be
      // accepted before the task is done; nothing goes to the task's output file.
      const otlp = await otlpOutput();
      const sender = new otlp.OtlpSender(send);
      sender.warn = (message) => reporter.report({ severity: "warning", message, code: ExitCode.OK });
      await sender.open();
      const end = async () => {
        try {
          await sender.finish();
        } finally {
          await sender.close();
        }
      };
      return { stage: refuseOtherAgents(otlp.toOtlpQueue(options, reporter, sender.queue), reporter, options.agent), tally: () => 0, sink: { out: sender.sink(), end } };
    }
    case "filter": {
      // Counted per file; the count line and -e's status are decided over all files.
      const stage = (await buildStage({ ...spec, options: { ...spec.options, exitStatus: false } }, reporter)) as FilterStage;
      const finish = stage.finish?.bind(stage);
      const counted: Stage = {
        ...stage,
        // With --count the stage's last words are its count: written once for all files (finishFiles).
        finish: () => (spec.options.count ? undefined : finish?.()),
      };
      return { stage: counted, tally: () => stage.kept() };
    }
  }
  return { stage: await buildStage(spec, reporter), tally: () => 0 };
}

/**
 * After every file of a `--jobs` run: what the sequential stage's finish would have written, and
 * the status it would have raised, from the files' tallies.
 */
export function finishFiles(spec: StageSpec, tallies: readonly number[]): { text: string; code: ExitCode } {
  if (spec.command !== "filter") return { text: "", code: ExitCode.OK };
  const kept = tallies.reduce((a, b) => a + b, 0);
  return {
    // With -H the counts were written per file.
    text: spec.options.count && spec.options.fileNames !== true ? `${kept}\n` : "",
    code: spec.options.exitStatus && kept === 0 ? ExitCode.NEGATIVE : ExitCode.OK,
  };
}

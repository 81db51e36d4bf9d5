import pc from "picocolors";
import type { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { compilePredicate, rawSkipFor, toActionsText, toFilteredEvents, toResultJson, toTimelineCsv } from "../outputs/log-stages.js";
import type { PredicateSpec } from "../query/predicate.js";
import { parseWhere } from "../query/where-clause.js";
import type { TimelineColumn } from "../outputs/timeline/columns.js";
import type { TimelineFormat } from "../outputs/timeline/lines.js";
import type { Stage } from "../stream/stage.js";

/**
 * The stages whose output for a file depends on that file alone, described by plain data
 * (command name and options, nothing but JSON values) so that a `--jobs` worker thread can build
 * the same stage as the command line did, from a message. The commands build their stage here
 * too, so a sequential run and a worker can never disagree on what the options mean.
 *
 * Not here, and so without `--jobs`: `stats` (a total over every file), `validate` (one summary,
 * --max-errors across files) and `timeline --format html` (one page for every input).
 */
export type StageSpec =
  | { command: "json"; options: { pretty: boolean; allowIncomplete: boolean } }
  | { command: "text"; options: { verbose: boolean; final: boolean; allowIncomplete: boolean; color: boolean } }
  | {
      command: "filter";
      options: {
        /** The predicates, `--where` clauses as written (compiled where the stage is built). */
        spec: Omit<PredicateSpec, "where"> & { where?: readonly string[] };
        since?: number | undefined;
        until?: number | undefined;
        pair: boolean;
        count: boolean;
        exitStatus: boolean;
      };
    }
  | {
      command: "timeline";
      options: {
        format: TimelineFormat;
        columns: readonly TimelineColumn[];
        safe: boolean;
        escape: boolean;
        header: boolean;
        allowIncomplete: boolean;
      };
    };

/** The stage a command runs over all its inputs (one run, one thread). */
export function buildStage(spec: StageSpec, reporter: Reporter): Stage {
  switch (spec.command) {
    case "json":
      return toResultJson(spec.options, reporter);
    case "text": {
      const { color, ...rest } = spec.options;
      return toActionsText({ ...rest, colors: pc.createColors(color) }, reporter);
    }
    case "filter": {
      const o = spec.options;
      const predicates: PredicateSpec = { ...o.spec, where: o.spec.where?.map((w) => parseWhere(w)) };
      return toFilteredEvents(
        { test: compilePredicate(predicates), skip: rawSkipFor(predicates), since: o.since, until: o.until, pair: o.pair, count: o.count, exitStatus: o.exitStatus },
        reporter,
      );
    }
    case "timeline":
      return toTimelineCsv(spec.options, reporter);
  }
}

/**
 * One file of a `--jobs` run: the stage for file number `index`, and its tally for what is
 * written once after all files (see finishFiles). Concatenating the outputs of files 0..n-1 in order
 * and then finishFiles' text gives the bytes of the sequential run.
 */
export function buildFileStage(spec: StageSpec, index: number, reporter: Reporter): { stage: Stage; tally: () => number } {
  switch (spec.command) {
    case "timeline":
      // The header once, at the top of the first file's output.
      return { stage: buildStage({ ...spec, options: { ...spec.options, header: spec.options.header && index === 0 } }, reporter), tally: () => 0 };
    case "filter": {
      // Counted per file; the count line and -e's status are decided over all files.
      const stage = buildStage({ ...spec, options: { ...spec.options, exitStatus: false } }, reporter);
      let kept = 0;
      const record = stage.record.bind(stage);
      const finish = stage.finish?.bind(stage);
      const counted: Stage = {
        ...stage,
        record(rec) {
          const out = record(rec);
          if (out !== undefined && !spec.options.count) kept++;
          return out;
        },
        finish() {
          const out = finish?.();
          // With --count the stage's last words are its count: taken as the tally, not written.
          if (spec.options.count) {
            kept = Number(out ?? 0);
            return undefined;
          }
          return out;
        },
      };
      return { stage: counted, tally: () => kept };
    }
    default:
      return { stage: buildStage(spec, reporter), tally: () => 0 };
  }
}

/**
 * After every file of a `--jobs` run: what the sequential stage's finish would have written, and
 * the status it would have raised, from the files' tallies.
 */
export function finishFiles(spec: StageSpec, tallies: readonly number[]): { text: string; code: ExitCode } {
  if (spec.command !== "filter") return { text: "", code: ExitCode.OK };
  const kept = tallies.reduce((a, b) => a + b, 0);
  return {
    text: spec.options.count ? `${kept}\n` : "",
    code: spec.options.exitStatus && kept === 0 ? ExitCode.NEGATIVE : ExitCode.OK,
  };
}

import type { Colors } from "picocolors/types.js";
import type { Reporter } from "../../diagnostics.js";
import { forcedDialect } from "../../dialects/index.js";
import { drive } from "../../driver/driver.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonObject } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { statsSink } from "../stats/index.js";
import type { StatsLimits } from "../stats/limits.js";
import { ALL_RUNS_COLUMNS, type RunRow, type RunsColumn } from "./columns.js";
import { naturalWidths, runsWriter, type RunsFormat } from "./render.js";
import { runRow } from "./row.js";
import { rowOrder, type SortKey } from "./sort.js";

export { ALL_RUNS_COLUMNS, OPT_IN_RUNS_COLUMNS, RUNS_COLUMNS, TABLE_COLUMNS, type RunRow, type RunsColumn, type RunsOutcome } from "./columns.js";
export { runRow } from "./row.js";
export { runsWriter, tableCell, type RunsFormat, type RunsWriter } from "./render.js";

export interface RunsOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  format: RunsFormat;
  columns: readonly RunsColumn[];
  /** Write the header line (tsv, csv, table): false for the files after the first of a --jobs run. */
  header?: boolean;
  /** stdout is a terminal: control characters in tsv/csv/ndjson cells shown escaped. */
  escape?: boolean;
  /** The table's colours. */
  colors?: Colors;
  /** The table's width (0: no limit). */
  width?: number;
  /** `--where` tests on the row (all columns, absent values left out); all must hold. */
  where?: ReadonlyArray<(row: JsonObject) => boolean>;
  /** `--sort`: the rows are held (only they, not the runs) and written sorted at the end. */
  sort?: readonly SortKey[];
  reverse?: boolean;
  /** `-e`: exit 1 when a run written failed, 4 when one has no result (error, cut off). */
  exitStatus?: boolean;
}

/** No list is kept per run: `runs` reads counts only (memory does not grow with a run's calls). */
const NO_LISTS: StatsLimits = { slowest: 0, list: 0, files: 0 };

/** The row as --where sees it: every column, those the log does not hold left out (so `exists` means held). */
export function whereObject(row: RunRow): JsonObject {
  const o: JsonObject = {};
  for (const c of ALL_RUNS_COLUMNS) {
    const v = row[c];
    if (v !== undefined) o[c] = v;
  }
  return o;
}

/**
 * `cursorlog runs`: one line per run, written when the run ends (its result, the next run, the end
 * of its file), from stats' per-run summary (statsSink, with no lists kept) and the run model:
 * memory holds the run being read, never the rows written. With --sort the rows are held (the row
 * fields only) and written sorted when the input ends; a table is then sized to them.
 */
export function toRuns(opts: RunsOptions, reporter: Reporter): Stage {
  const machine = opts.format !== "table";
  const where = opts.where ?? [];
  const sort = opts.sort !== undefined && opts.sort.length > 0 ? opts.sort : undefined;
  const writerOpts = { format: opts.format, columns: opts.columns, escape: opts.escape, colors: opts.colors, width: opts.width };
  const writer = sort === undefined ? runsWriter(writerOpts) : undefined;
  let header = opts.header === false ? "" : (writer?.header ?? "");
  const held: RunRow[] = [];

  const take = (row: RunRow): boolean => {
    if (where.length > 0) {
      const o = whereObject(row);
      if (!where.every((t) => t(o))) return false;
    }
    if (opts.exitStatus === true) {
      if (row.outcome === "failed") reporter.raise(ExitCode.NEGATIVE);
      else if (row.outcome !== "finished") reporter.raise(ExitCode.INCOMPLETE);
    }
    return true;
  };

  // Machine formats keep strings whole (the prompt column); a table's are cut to fit.
  const sink = statsSink(NO_LISTS, machine, (s, run) => {
    const row = runRow(s, run);
    if (!take(row)) return undefined;
    if (writer === undefined) {
      held.push(row);
      return undefined;
    }
    const out = header + writer.line(row);
    header = "";
    return out;
  });
  sink.finish = () => {
    if (writer !== undefined) {
      const out = header;
      header = "";
      return out === "" ? undefined : out;
    }
    const order = rowOrder(sort!, opts.reverse === true);
    held.sort(order);
    const w = runsWriter({ ...writerOpts, natural: opts.format === "table" ? naturalWidths(opts.columns, held) : undefined });
    const rows = held.splice(0);
    return (function* () {
      if (opts.header !== false) yield w.header;
      for (const r of rows) yield w.line(r);
    })();
  };
  return drive(sink, reporter, {
    dialect: forcedDialect(opts.agent),
    // The outcome and the agent CLI's own text are in the row: not told again on stderr.
    cutOff: "accepted",
    failed: false,
    said: false,
  });
}

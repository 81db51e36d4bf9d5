import { Command, InvalidArgumentError, Option } from "commander";
import { ALL_RUNS_COLUMNS, RUNS_COLUMNS, TABLE_COLUMNS, type RunsColumn } from "../../outputs/runs/columns.js";
import { fitTableColumns, type RunsFormat } from "../../outputs/runs/render.js";
import type { SortKey } from "../../outputs/runs/sort.js";
import { FilterSyntaxError } from "../../query/syntax-error.js";
import { parseWhere } from "../../query/where-clause.js";
import type { CommandContext } from "../command-context.js";
import { colorsFor, resolveColor, type SharedRaw } from "../config.js";
import { runCommand, type StageSource } from "../run-command.js";
import { didYouMean } from "../suggest.js";
import { outputWidth, withFollowOption, withInputOptions, withJobsOption, withWidthOption } from "../shared-options.js";
import { lazy } from "../../lazy.js";

const logStages = lazy(() => import("../../outputs/log-stages.js"));

export const RUNS_EXAMPLES = `Examples:
  $ cursorlog runs logs/                       # a table on a terminal
  $ cursorlog runs --where 'outcome != finished' logs/
  $ cursorlog runs -e logs/ > runs.tsv   # CI: exit 1 or 4 if one did not finish
  $ cursorlog runs --sort -duration_ms --columns file,outcome,duration_ms logs/
  $ cursorlog runs --format ndjson logs/ | jq -c 'select(.failed_calls > 0)'
  $ cursorlog runs --format csv logs/ | mlr --icsv --opprint sort -nr cost_usd
`;

export const RUNS_HELP = `
Columns (--columns picks and orders them; tsv, csv and ndjson write all but the last five by
default, the table file, line, agent, model, started_at, outcome, duration_ms, calls,
failed_calls, input_tokens, output_tokens, cost_usd and message):
  file                the input the run is in (<stdin> for standard input)
  line                the line the run begins on (its first event)
  agent               cursor, claude, codex or gemini: whose log it is
  session_id          the run's session id (a resumed run keeps it: file and line tell runs apart)
  model               the model its log names
  started_at          ISO-8601 UTC: the earliest time the run's log gives (the table: to the
                      minute); empty when it gives none (2025 cursor-agent logs, Claude Code's
                      before mid-2026, Codex's)
  outcome             finished: its result says it succeeded; failed: its result says it failed
                      (is_error, a failed turn); error: no result, and the agent CLI wrote its own
                      text in the log (its stderr: why it stopped); cut_off: no result, nothing
                      said (crash, kill, a log still being written). The table writes "cut off".
  duration_ms         the result's own duration, else from the earliest to the latest time the
                      run's log gives; empty otherwise (never guessed)
  duration_source     result or timestamps: where duration_ms comes from (the table marks an
                      estimate from timestamps with ~)
  calls               tool calls, open ones included; failed_calls: those that failed (refused
                      calls and open ones are not failures: see refused_calls, open_calls)
  input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
                      the usage the run's result states, as stats reads it (never the agent's
                      per-message figures, which repeat); empty when the log states none
  usage_scope         run, or thread for Codex, whose usage is the thread's so far (cumulative:
                      never add a thread's runs together)
  cost_usd            Claude Code's total_cost_usd: the session's so far (never add the runs of a
                      session together); empty for the agents that state none
  message             a failed run's failure (its result text), else the agent CLI's own text in
                      the run (its first line of it); whole in tsv, csv and ndjson, shortened in
                      the table
  last_line           the run's last line                                   (only with --columns)
  ended_at            the latest time the run's log gives                  (only with --columns)
  refused_calls, open_calls   calls refused, and still open at the run's end (only with --columns)
  prompt              the run's first user message (the table: its first line)  (only with --columns)

Formats: table (the default on a terminal: aligned, coloured, fitting the width, log text escaped
and cut with …), tsv (the default in a pipe or a file, as mlr --itsv and cut -f read it), csv, and
ndjson (one object per run, keyed by column, numbers as numbers, null where the log holds nothing).
tsv, csv and ndjson keep every value whole; tsv writes TAB, LF, CR and \\ in a value as \\t \\n \\r \\\\,
csv quotes a field holding , or " and writes a line break as \\n (one record per line, as
timeline's csv). On a terminal, control characters in any format are shown escaped.

Width: the table fits --width, else COLUMNS, else the terminal's width, else 80. Without --sort a
line is written as each run ends, so widths are fixed before the first: each column has its usual
width, the message takes the rest; to fit, the session, model and file are cut first (the file
keeps its end), and on a narrow terminal the default table leaves out input_tokens,
output_tokens, model, cost_usd, started_at, line, failed_calls, calls, duration_ms and agent, in
this order, until the rest fits (--columns keeps what it names). --width 0: no cell is cut
(without --sort a long one pushes the rest of its line). With --sort the columns are as wide as
their widest cell, as fits.

Streaming and memory: a run's line is written when the run ends (its result, the next run, the end
of its file); memory holds the run being read, whatever the number of runs. --sort is the
exception: it holds every row (the row's fields only, not the runs) and writes them when the
input ends, the table sized to them; it reads in one thread (--jobs does not apply).

--sort COLUMN[,COLUMN...]: ascending; -COLUMN (or --reverse for every key) descending, as Miller's
sort -f / -nr. Numbers by value, text by code point; an empty cell sorts last either way; ties keep
the input order. Write --sort=-duration_ms or --sort -duration_ms.

--where 'COLUMN OP VALUE' (filter's grammar, over the run's columns, all of them whether written or
not; repeat to AND): OP is ==, !=, <, <=, >, >=, ~ (regex) or exists; VALUE is JSON when it parses
as JSON (10, "text"), else the rest as a string. A column the log does not hold is missing: exists
is false, != holds. E.g. 'outcome != finished', 'agent == claude', 'calls > 10', 'model ~ (?i)sonnet',
'cost_usd exists'.

Exit status: 0 when the lines are written, whatever the runs' outcomes. With -e, over the runs
written (after --where): 1 if one failed, 4 if one has no result (error or cut off: the status
every command gives a run without result), 4 winning over 1. As everywhere: 2 for an unreadable
file, 4 for a file that holds no run, 5 for a line that is not JSON (--lenient skips it).
`;

const FORMATS = ["table", "tsv", "csv", "ndjson"] as const;

interface RunsRaw extends SharedRaw {
  format?: RunsFormat;
  columns?: RunsColumn[];
  sort?: SortKey[];
  reverse?: boolean;
  where?: string[];
  width?: number;
  exitStatus?: boolean;
  header?: boolean;
}

const GROUP = "Report options:";

function columnName(name: string, what: string): RunsColumn {
  const valid = `valid columns: ${ALL_RUNS_COLUMNS.join(",")}`;
  if (name === "") throw new InvalidArgumentError(`empty column name in ${what}; ${valid}`);
  if (!(ALL_RUNS_COLUMNS as readonly string[]).includes(name)) {
    throw new InvalidArgumentError(`unknown column ${JSON.stringify(name)}${didYouMean(name, ALL_RUNS_COLUMNS)}; ${valid}`);
  }
  return name as RunsColumn;
}

/** --columns: timeline's parsing (comma-separated, each once, an unknown one with a suggestion). */
export function parseRunsColumns(value: string): RunsColumn[] {
  const names = value.split(",").map((s) => s.trim());
  const seen = new Set<string>();
  for (const name of names) {
    columnName(name, "--columns");
    if (seen.has(name)) throw new InvalidArgumentError(`column ${JSON.stringify(name)} given twice`);
    seen.add(name);
  }
  return names as RunsColumn[];
}

/** --sort: COLUMN or -COLUMN, comma-separated; repeating --sort adds keys. */
export function parseSort(value: string, prev: SortKey[] | undefined): SortKey[] {
  const keys = value.split(",").map((s) => s.trim());
  return [
    ...(prev ?? []),
    ...keys.map((k) => {
      const descending = k.startsWith("-");
      return { column: columnName(descending ? k.slice(1) : k.replace(/^\+/, ""), "--sort"), descending };
    }),
  ];
}

/** --where: filter's grammar; its path must begin with a column (a typo is told, not an empty table). */
function parseRunsWhere(value: string, prev: string[] | undefined): string[] {
  try {
    parseWhere(value);
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw new InvalidArgumentError(err.message);
    throw err;
  }
  const head = /^\s*"?([^\s."=!<>~[]*)/.exec(value)?.[1] ?? "";
  columnName(head, "--where");
  return [...(prev ?? []), value];
}

export function runsCommand(ctx: CommandContext): Command {
  const cmd = new Command("runs")
    .description("list the runs, one line each: file, agent, session, model, start, outcome, duration, calls, tokens, cost")
    .addHelpText("before", RUNS_EXAMPLES)
    .addHelpText("after", RUNS_HELP)
    .addOption(new Option("--format <format>", "table, tsv, csv or ndjson (default: table on a terminal, tsv otherwise)").choices(FORMATS).helpGroup(GROUP))
    .addOption(new Option("--columns <list>", "comma-separated columns to write, in this order (see Columns below)").argParser(parseRunsColumns).helpGroup(GROUP))
    .addOption(new Option("--sort <columns>", "sort by these columns (-COLUMN: descending); holds the rows until the input ends").argParser(parseSort).helpGroup(GROUP))
    .addOption(new Option("--reverse", "with --sort: descending (every key turned around)").helpGroup(GROUP))
    .addOption(
      new Option("--where <clause>", "'COLUMN OP VALUE': only the runs where it holds, e.g. 'outcome != finished' (repeat: AND)").argParser(parseRunsWhere).helpGroup(GROUP),
    )
    .addOption(new Option("--no-header", "do not write the header line (table, tsv, csv)").helpGroup(GROUP))
    .addOption(new Option("-e, --exit-status", "exit 1 if a run written failed, 4 if one has no result (error, cut off)").helpGroup(GROUP));
  withFollowOption(withJobsOption(withWidthOption(withInputOptions(cmd), "fit the table to this many columns (default: the terminal's, COLUMNS, 80 in a pipe; 0: no limit)"))).action(
    (files: string[], raw: RunsRaw) => {
      if (raw.reverse === true && raw.sort === undefined) cmd.error("error: --reverse needs --sort", { exitCode: 2 });
      ctx.setRun(async () => {
        const io = ctx.io;
        const format: RunsFormat = raw.format ?? (io.stdoutIsTTY ? "table" : "tsv");
        const width = format === "table" ? outputWidth(raw.width, io) : 0;
        const columns = raw.columns ?? (format === "table" ? fitTableColumns(TABLE_COLUMNS, width) : RUNS_COLUMNS);
        const base = {
          agent: raw.agent,
          format,
          columns,
          header: raw.header !== false,
          escape: io.stdoutIsTTY,
          width,
          where: raw.where,
          exitStatus: raw.exitStatus === true,
        };
        let source: StageSource;
        if (raw.sort === undefined) {
          // Described by data, so that --jobs can build it in its workers (jobs/stages.ts).
          source = { command: "runs", options: { ...base, color: format === "table" && resolveColor(raw.color, io.env, io.stdoutIsTTY) } };
        } else {
          const sort = raw.sort;
          const { toRuns } = await logStages();
          source = (reporter, color) =>
            toRuns({ ...base, colors: format === "table" ? colorsFor(color) : undefined, where: raw.where?.map((w) => parseWhere(w)), sort, reverse: raw.reverse === true }, reporter);
        }
        return runCommand(io, files, raw, source, "runs");
      });
    },
  );
  return cmd;
}

import { Command, InvalidArgumentError, Option } from "commander";
import { ALL_TIMELINE_COLUMNS, TIMELINE_COLUMNS, type TimelineColumn } from "../../outputs/timeline/columns.js";
import type { TimelineFormat } from "../../outputs/timeline/lines.js";
import { ExitCode } from "../../exit-codes.js";
import type { CommandContext } from "../command-context.js";
import type { SharedRaw } from "../config.js";
import { runCommand, type StageSource } from "../run-command.js";
import { didYouMean } from "../suggest.js";
import { withFilenameOption, withFollowOption, withInputOptions, withJobsOption } from "../shared-options.js";
import { lazy } from "../../lazy.js";

const timelineHtmlOutput = lazy(() => import("../../outputs/timeline-html/index.js"));

export const TIMELINE_EXAMPLES = `Examples:
  $ cursorlog timeline logs/*.ndjson.gz > calls.csv
  $ cursorlog timeline --columns seq,duration_ms,status,target run.ndjson |
      mlr --icsv --opprint sort -nr duration_ms
  $ cursorlog timeline --format ndjson run.ndjson |
      jq -c 'select(.status != "success")'
  $ cursorlog timeline -H --columns seq,status logs/   # each row's file first
  $ cursorlog timeline --format html -o run.html run.ndjson   # a Gantt chart
`;

export const TIMELINE_HELP = `
Columns (--columns picks and orders them; default: all but the last two, in this order):
  session_id      the session_id of the run (a resumed run keeps it: file and lines tell runs apart)
  call_id         the call's id as logged (OpenAI-style ids hold a newline: \\n in csv, see Formats)
  seq             1-based place of the call in its session, in the order calls started; a completion
                  that had no started event takes the next number when it arrives
  kind            short tool name: shell, read, edit, grep, ...
  tool            the raw key: shellToolCall, readToolCall, ... (the function name in 2025 logs)
  action          the label 'cursorlog text' prints: "Ran terminal command", "Read file", ...
  target          path, command, pattern, URL or query, as 'cursorlog text -v' shows it, unescaped
                  (but for its line breaks in csv: see Formats)
  started_at      ISO-8601 UTC with milliseconds: startedAtMs, else the started event's timestamp_ms
  completed_at    completedAtMs, else the completed event's timestamp_ms
  duration_ms     completedAtMs - startedAtMs when both are logged and in order, else the difference
                  of the two events' timestamp_ms, likewise; empty otherwise (never guessed, never
                  negative)
  status          the result: success, failure, rejected, error, timeout, ... as the log words it;
                  for Claude Code, which words none, ok or failed (is_error), and a refusal's word
                  (permission-rule, ...); "incomplete" when the session ended before the call
                  completed; empty when the completion has no result
  exit_code       shell calls: the exit code, when the result has one
  model_call_id   the model response that asked for the call
  file            the input it came from (<stdin> for standard input)
  started_line    line of the started event (empty for a completion without a start)
  completed_line  line of the completed event (empty when incomplete)
  background_end  a call that runs on in the background (a background shell, a background subagent
                  task): when it ended, the time of the system/task_notification whose task_id is
                  its shellId or agentId (empty until then)
  background_ms   from the call's start to that end, when in order (the call itself completes in a
                  second or two)
  time_source     where started_at, completed_at and duration_ms come from: call (the call's own
                  startedAtMs/completedAtMs), event (the times on the lines that started and
                  completed it: timestamp_ms, Claude Code's timestamp), call/event or event/call
                  when start and end come from different clocks (then no duration); empty when the
                  log gives the call no time (2025 logs, Claude Code before mid-2026). Only with
                  --columns
  parent_id       a subagent's call: the call_id of the task call that started the subagent (Claude
                  Code's parent_tool_use_id); empty for the session's own calls. Only with --columns

Order: one row per call, in the order the calls started. A row is written as soon as it and every
call started before it in its session have completed, so parallel calls that finish out of order
still come in start order, memory holds only the rows waiting behind a running call, and a live
pipe shows rows as the run proceeds. Calls still open when their session ends (its result, the next
init, the end of the file) are written then, as "incomplete". A background task's row waits for
its task_notification (or its session's end), as behind a running call. Several files make one
table; its file column names the file of each row (-H puts it first when --columns leaves it
out, --no-filename leaves it out).

Formats:
  csv     RFC 4180: a field is quoted when it holds , or ", with " doubled. One record per line,
          for head, wc -l, cut and column: a line break inside a value (OpenAI-style call ids hold
          one, as do multi-line commands) is written \\n (CR: \\r), as 'cursorlog text -v' shows
          it. Backslashes are left as they are, so a value that held the two characters \\n reads
          the same: for exact values, use --multiline (line breaks written as they are, inside the
          quotes: a record may then take several lines), tsv or ndjson. Records end in LF, not the
          RFC's CRLF, as with Miller, xsv and most Unix tools; CSV readers accept both.
  tsv     tab-separated; TAB, LF, CR and \\ inside a value are written \\t \\n \\r \\\\ (the
          convention of mlr --otsv and PostgreSQL's text format): one record per line, and the
          exact values once unescaped.
  ndjson  one JSON object per call, keyed by column name; numbers are numbers, empty cells null;
          no header.
  html    one self-contained page (no network, no external files) for all inputs: per session a
          summary (model, prompt, start, wall time, calls by status, result) and a Gantt chart of
          its calls on a time axis, one lane per parallel slot, coloured by status, details on
          hover, and a table of the calls. A chart needs the whole run, so the page is written
          when the input ends and memory holds one small record per call (csv/tsv/ndjson hold
          only the rows behind a running call); --columns, --no-header, --safe-csv, --multiline,
          -H, --no-filename, --follow and --jobs do not apply. A session whose log holds no time
          at all (2025 logs, Claude Code's before mid-2026, Codex's) gets no chart: its calls are
          listed in start order, and the page says why.
On a terminal, control characters and escape sequences in cells are shown escaped (\\u001b,
\\n), so a log's text cannot retitle or clear it; into a file or a pipe, cells are the data.

--safe-csv changes data: text cells starting with = + - @ TAB or CR get a leading ' so that
spreadsheets show them as text instead of evaluating them (a CR only with --multiline: otherwise
it is written \\r, which no spreadsheet evaluates). Use it for files people open in
Excel, LibreOffice or Google Sheets, not for data pipelines. It applies to csv and tsv only.

A session without a result (crash, kill, truncated log) still gets its rows; it is reported on
stderr with exit status 4 unless --allow-incomplete.
`;

interface TimelineRaw extends SharedRaw {
  format?: TimelineFormat | "html";
  header?: boolean;
  columns?: TimelineColumn[];
  safeCsv?: boolean;
  allowIncomplete?: boolean;
  multiline?: boolean;
  /** -H / --no-filename, the last one given (withFilenameOption). */
  fileNames?: boolean;
}

/**
 * The columns written: --columns, else all; -H puts `file` first when they leave it out, and
 * --no-filename takes it out.
 */
export function timelineColumns(columns: readonly TimelineColumn[] | undefined, fileNames: boolean | undefined): readonly TimelineColumn[] {
  const chosen = columns ?? TIMELINE_COLUMNS;
  if (fileNames === true && !chosen.includes("file")) return ["file", ...chosen];
  if (fileNames === false) return chosen.filter((c) => c !== "file");
  return chosen;
}

function parseColumns(value: string): TimelineColumn[] {
  const valid = `valid columns: ${ALL_TIMELINE_COLUMNS.join(",")}`;
  const names = value.split(",").map((s) => s.trim());
  const seen = new Set<string>();
  for (const name of names) {
    if (name === "") throw new InvalidArgumentError(`empty column name; ${valid}`);
    if (!(ALL_TIMELINE_COLUMNS as readonly string[]).includes(name)) {
      throw new InvalidArgumentError(`unknown column ${JSON.stringify(name)}${didYouMean(name, ALL_TIMELINE_COLUMNS)}; ${valid}`);
    }
    if (seen.has(name)) throw new InvalidArgumentError(`column ${JSON.stringify(name)} given twice`);
    seen.add(name);
  }
  return names as TimelineColumn[];
}

export function timelineCommand(ctx: CommandContext): Command {
  const cmd = new Command("timeline")
    .description("write one CSV row per tool call, in start order: what ran, when, how long, with what result")
    .addHelpText("before", TIMELINE_EXAMPLES)
    .addHelpText("after", TIMELINE_HELP)
    .addOption(new Option("--format <format>", "csv, tsv, ndjson or html").choices(["csv", "tsv", "ndjson", "html"]).default("csv"))
    .option("--no-header", "do not write the header line (csv and tsv only)")
    .addOption(
      new Option("--columns <list>", "comma-separated columns to write, in this order (see Columns below)").argParser(parseColumns),
    )
    .option("--safe-csv", "prefix text cells starting with = + - @ TAB or CR with ' (spreadsheet formula injection; csv and tsv only)")
    .option("--multiline", "csv: write line breaks inside a cell as they are, quoted (RFC 4180), not as \\n: exact values, but a record may take several lines")
    .option("--allow-incomplete", "a session without a result is not an error (exit 0); its open calls are still written");
  withFollowOption(withJobsOption(withInputOptions(withFilenameOption(cmd, "write the file column (it is by default), first when --columns leaves it out", "leave the file column out")))).action((files: string[], raw: TimelineRaw) => {
    const format = raw.format ?? "csv";
    if (format === "html") {
      const bad = [
        raw.columns && "--columns",
        raw.header === false && "--no-header",
        raw.safeCsv && "--safe-csv",
        raw.multiline && "--multiline",
        raw.fileNames !== undefined && (raw.fileNames ? "--with-filename" : "--no-filename"),
        raw.follow && "--follow",
        raw["follow=name"] && "--follow=name",
        (raw.jobs ?? 1) > 1 && "--jobs",
      ].filter(Boolean);
      if (bad.length > 0) cmd.error(`error: ${bad.join(", ")} cannot be used with --format html`, { exitCode: 2 });
    }
    if (format === "ndjson") {
      // NDJSON has no header, and is data for programs: no spreadsheet quoting changes its values.
      const bad = [raw.header === false && "--no-header", raw.safeCsv && "--safe-csv"].filter(Boolean);
      if (bad.length > 0) cmd.error(`error: ${bad.join(", ")} cannot be used with --format ndjson (csv and tsv only)`, { exitCode: 2 });
    }
    // TSV and NDJSON escape line breaks always: they are one record per line whatever --multiline says.
    if (raw.multiline && (format === "tsv" || format === "ndjson")) cmd.error(`error: --multiline cannot be used with --format ${format} (csv only)`, { exitCode: 2 });
    ctx.setRun(async () => {
      // As gzip refuses to write compressed data to a terminal: a page is for a browser, not a screen.
      if (format === "html" && ctx.io.stdoutIsTTY) {
        ctx.io.stderr.write(
          "cursorlog: error: not writing an HTML page to a terminal; write it to a file and open that:\n" +
            "  cursorlog timeline --format html -o run.html FILE...\n" +
            "(to see the HTML itself, pipe it: ... | less)\n",
        );
        return ExitCode.USAGE_OR_IO;
      }
      // Only the chosen format's code is loaded.
      let source: StageSource;
      if (format === "html") {
        const { toTimelineHtml } = await timelineHtmlOutput();
        source = (reporter) => toTimelineHtml({ allowIncomplete: raw.allowIncomplete === true, agent: raw.agent }, reporter);
      } else {
        const options = {
          format,
          columns: timelineColumns(raw.columns, raw.fileNames),
          safe: raw.safeCsv === true,
          escape: ctx.io.stdoutIsTTY,
          header: raw.header !== false,
          allowIncomplete: raw.allowIncomplete === true,
          multiline: raw.multiline === true,
          agent: raw.agent,
        };
        source = { command: "timeline", options };
      }
      return runCommand(ctx.io, files, raw, source, "timeline");
    });
  });
  return cmd;
}

import { Command, Option } from "commander";
import { DEFAULT_LIMITS } from "../../outputs/stats/limits.js";
import type { StatsRenderer } from "../../outputs/stats/types.js";
import type { CommandContext } from "../command-context.js";
import { colorsFor, type SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { parseCount, withFollowOption, withInputOptions } from "../shared-options.js";
import { lazy } from "../../lazy.js";

const logStages = lazy(() => import("../../outputs/log-stages.js"));

export const STATS_EXAMPLES = `Examples:
  $ cursorlog stats run.ndjson
  $ cursor-agent -p "fix the build" --output-format stream-json |
      tee run.ndjson | cursorlog stats
  $ cursorlog stats --format markdown logs/*.ndjson >> "$GITHUB_STEP_SUMMARY"
  $ cursorlog stats --format json logs/ |
      jq -c 'select(.type == "session" and .outcome != "finished")'
`;

export const STATS_HELP = `
What a session block holds:
  model (system/init), prompt (first line of the first user message, at most 100 characters;
  json: the message whole),
  wall duration, token usage, tool calls by kind and by status, failed calls (failure, error,
  timeout, ...) and rejected calls (rejected, permission denied) with their targets, the slowest
  calls, files read / created / edited / deleted, shell commands with a non-zero exit, and the
  outcome: finished (a result, is_error false), error (is_error true) or cut off (no result: the
  last line and the calls still open are named).

Numbers come from the log only, never invented:
  duration  result.duration_ms; without it, from the earliest to the latest time the session's
            log gives (its lines' timestamp_ms, its calls' startedAtMs / completedAtMs), marked as
            estimated; otherwise unknown. A call's duration: completedAtMs - startedAtMs when the
            end is not before the start, else the same of its started and completed events'
            timestamp_ms, else unknown, never negative (such calls are not ranked among the
            slowest). A background task's: from its call's start to the line that tells its end.
  tokens    result.usage {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens} only
            (inputTokens excludes cache reads: the four are never added together). Without it:
            "not in log" (json: null). The total sums the sessions that report usage, says how
            many did, and adds a (session_id, request_id) only once: the same request seen twice
            (a log passed twice) is reported as repeated, not counted again. Claude Code: the
            result's usage (snake_case), never the assistant lines' (repeated on each line).
            Codex: the last turn.completed's usage, the thread's so far (input: its input_tokens
            less the cached and cache-written tokens it holds): the total counts each thread
            once, at its run with the most tokens.
  cost      Claude Code only (cursor-agent states none): the result's total_cost_usd, which is
            the session's so far, and modelUsage by model (subagents and web tools included,
            also the session's so far). The total counts each session_id once, at the highest
            total_cost_usd its results state: never added across the results of one session.
            json: "cost" where stated; "terminal_reason" and "subagent_calls" likewise.
  files     successful calls, by args.path (from the started event when the completion has no
            args): read = readToolCall; created = writeToolCall and editToolCall creating its
            file (no beforeFullFileContent, a diff from /dev/null, "Wrote contents to");
            edited = other editToolCall; deleted = deleteToolCall.

Output: a block per session, written as soon as the session ends (its result, the next
system/init, the end of its file), so a live pipe shows each one without waiting; the total last
(text and markdown: only when there is not exactly one session; json: always). Sessions are split
as in every command: at system/init, after a result, and at the end of each file.
  text      aligned plain text; strings from the log escaped (no terminal control sequences);
            colour only on a terminal or with --color=always.
  markdown  GitHub-flavoured, a ### heading per session; log text escaped (| \` * _ < > ... get a
            backslash), so a command cannot break a table or inject HTML.
  json      NDJSON: {"type":"session",...} per session, then {"type":"total",...}; fixed key
            order, snake_case, numbers as numbers, null when the log does not say. Strings are
            whole: the prompt, targets, commands and notes are never cut with "…" (but for a
            target a call's start kept: see README, LIMITATIONS).

Memory is bounded per session: exact counts, and capped lists (--slowest, --max-list, --max-files;
"first N shown" / "+N more" say when a list was cut).

No --jobs: the total sums up every file (and counts a request seen in two files once). To spread
many files over cores, run one stats --format json per share of them and sum the sessions' lines.

Exit status: 0 when the report is written, even for sessions that ended in error or were cut off
(the report says so). With -e, 1 if a session's result has is_error:true, 4 if a session was cut
off. As everywhere: 2 for an unreadable file, 5 for a line that is not JSON (--lenient skips it).
`;

const FORMATS = ["text", "markdown", "json"] as const;
type StatsFormat = (typeof FORMATS)[number];

interface StatsRaw extends SharedRaw {
  format?: StatsFormat;
  slowest?: number;
  maxList?: number;
  maxFiles?: number;
  exitStatus?: boolean;
}

const GROUP = "Report options:";

export function statsCommand(ctx: CommandContext): Command {
  const cmd = new Command("stats")
    .description("summarize each session: model, prompt, duration, tokens, tool calls by kind and status, failures, slowest calls, files touched")
    .addHelpText("before", STATS_EXAMPLES)
    .addHelpText("after", STATS_HELP)
    .addOption(new Option("--format <format>", "text, markdown or json").choices(FORMATS).default("text").helpGroup(GROUP))
    .addOption(
      new Option("--slowest <n>", "how many of the slowest calls to list per session").argParser(parseCount).default(DEFAULT_LIMITS.slowest).helpGroup(GROUP),
    )
    .addOption(
      new Option("--max-list <n>", "list at most n failed, rejected and open calls and failing shell commands per session (counts stay exact)")
        .argParser(parseCount)
        .default(DEFAULT_LIMITS.list)
        .helpGroup(GROUP),
    )
    .addOption(
      new Option("--max-files <n>", "list at most n distinct paths per file list and session").argParser(parseCount).default(DEFAULT_LIMITS.files).helpGroup(GROUP),
    )
    .addOption(new Option("-e, --exit-status", "exit 1 if a result has is_error:true, 4 if a session was cut off (no result)").helpGroup(GROUP));
  withFollowOption(withInputOptions(cmd)).action((files: string[], raw: StatsRaw) => {
    ctx.setRun(async () => {
      const { toStats } = await logStages();
      const render = await rendererFor(raw.format ?? "text");
      return runCommand(
        ctx.io,
        files,
        raw,
        (reporter, color) =>
          toStats(
            {
              limits: { slowest: raw.slowest ?? DEFAULT_LIMITS.slowest, list: raw.maxList ?? DEFAULT_LIMITS.list, files: raw.maxFiles ?? DEFAULT_LIMITS.files },
              render: render(color),
              exitStatus: raw.exitStatus === true,
              // A machine format carries whole values: json's strings are never cut.
              whole: raw.format === "json",
              agent: raw.agent,
            },
            reporter,
          ),
        "stats",
      );
    });
  });
  return cmd;
}

/** The format's renderer; it is made once the output's colour is known. */
async function rendererFor(format: StatsFormat): Promise<(color: boolean) => StatsRenderer> {
  const { toStatsJson, toStatsMarkdown, toStatsText } = await logStages();
  switch (format) {
    case "json":
      return toStatsJson;
    case "markdown":
      return toStatsMarkdown;
    default:
      return (color) => toStatsText(colorsFor(color));
  }
}

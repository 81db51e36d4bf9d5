import { statSync } from "node:fs";
import { Command, Option } from "commander";
import { ExitCode } from "../../exit-codes.js";
import type { CommandContext } from "../command-context.js";
import { colorsFor, type SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { following, outputWidth, parseCount, withFollowOption, withInputOptions, withWidthOption } from "../shared-options.js";
import { lazy } from "../../lazy.js";

const logStages = lazy(() => import("../../outputs/log-stages.js"));
const htmlOutput = lazy(() => import("../../outputs/show/html/index.js"));

export const SHOW_EXAMPLES = `Examples:
  $ cursor-agent -p "fix the build" --output-format stream-json | cursorlog show
  $ cursorlog show run.ndjson | less -R
  $ cursorlog show --thinking --diff run.ndjson
  $ cursorlog show --format markdown run.ndjson >> "$GITHUB_STEP_SUMMARY"
  $ cursorlog show --format html -o run.html run.ndjson
  $ cursorlog show --format html -o pages/ logs/
`;

export const SHOW_HELP = `
What it shows, per session (run): a header (model, cwd, session id, start time, where in the log
it begins) and the prompt; the agent's messages as paragraphs (--stream-partial-output repeats
removed), wrapped to the width; a line per tool call when it completes: a mark (✓ ok, ✗ failed,
⊘ refused, ↗ went to the background), the action and its target, +added −removed for a file
write, the duration, the exit code, and for a call that did not succeed the reason and the last
lines of its stderr or error text (--lines). Background shells and subagent tasks are shown as
such, and their end (system/task_notification) when it comes; a plan (--mode plan) as a
paragraph, a request the CLI rejected, reconnections and retries as lines of their own. Then the final answer and a footer:
outcome, duration, tokens (result.usage only, never estimated), calls by status. A run without a
result ends with "the run did not finish", naming the calls still running. A line of the agent
CLI's own text among the events (its stderr in the log: how a failed run ends) is shown where it
occurs, escaped, and named in the footer.

Claude Code logs: a subagent's lines (its prompt, messages, calls; its thinking with --thinking)
are shown as they come, nested under a "↳ Subagent: <task>" line (text: a bar per level;
markdown: block quotes). A run's lines after its result (a background task's end, a background
subagent's calls) come before its footer, which is written when the next run begins or the log
ends. The footer names terminal_reason, and for a run ended in error whose result has no text
(max turns) its errors[].

Thinking is hidden unless --thinking. Text is held until the next event that is not text, then
written; every other line is written as soon as its event arrives. On a terminal reading a live
log (standard input, -f or -F), a call still running after a second shows as a "running" line
that its result line replaces in place; in a pipe or a CI log nothing is ever rewritten.

Width: --width, else COLUMNS, else the terminal's width, else 80; 0 turns wrapping off. Every
string from the log is escaped (no terminal control sequences); colour only on a terminal or
with --color=always (NO_COLOR respected).

--format markdown writes GitHub-flavoured Markdown for a pull-request comment or
$GITHUB_STEP_SUMMARY: each tool call its line, and one with more to show (a long target, output
lines, a diff) a collapsed <details> block holding it; log text escaped so that it cannot inject
Markdown or HTML. It is never wrapped.

--format html writes one self-contained page to open in a browser or attach to a pull request:
nothing fetched (inline style, one small script of its own that opens the folded blocks for
printing; its Content-Security-Policy allows nothing else). A section per run: its header (agent,
model, session id, cwd, start, where in the log), the prompt, the agent's Markdown rendered (raw
HTML shown as text, links to http, https and mailto only, images shown as links, never fetched);
a block per tool call with its mark, action, target, duration and exit code, an anchor to link to
it (#r<run>-c<call id>), the last lines of what a failed call said (--lines), and folded: its
arguments and output as logged (cut past 8 KiB and 32 KiB, the cut said) and an edit's diff,
coloured; subagents nested, background tasks and their end, the outcome, tokens and calls as in
the text footer. Every value from the log is escaped, its control, bidi and zero-width characters
shown as \\u escapes. Readable on a phone, printable (folded blocks print open). Written as the
log is read, as the text is; -o FILE replaces FILE when it is whole.

With -o DIR (an existing folder, or a name ending in / that is created), --format html writes a
page per run, named after its input file (run.ndjson's runs: run-1.html, run-2.html, …; the number
is the session's), and index.html: a row per run (file, agent, session, model, start, outcome,
duration, calls, failed, tokens, cost) linking to its page. Each file is written under a temporary
name and renamed into place when whole (a page when its run ends, index.html when every input is
read); a name that holds a link, a folder or a device is left as it is (status 2). Nothing is
written on stdout.

Exit status: 0 when the transcript is written, even for a run that failed or did not finish (it
says so). With -e, 1 if a result has is_error:true, 4 if a run has no result. As everywhere: 4
for a file with no session at all (empty, or only the agent CLI's text), 2 for an unreadable
file or another agent's log, 5 for a line that is not JSON (--lenient skips it and goes on).
`;

const FORMATS = ["text", "markdown", "html"] as const;

/** `-o PATH` names a folder (for --format html's pages): an existing directory, or a name ending in `/`. */
function isFolder(path: string): boolean {
  if (path.endsWith("/")) return true;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface ShowRaw extends SharedRaw {
  format?: (typeof FORMATS)[number];
  thinking?: boolean;
  diff?: boolean;
  lines?: number;
  width?: number;
  exitStatus?: boolean;
  /** -o (every command's): with --format html, a folder for a page per run. */
  output?: string;
}

const GROUP = "Transcript options:";

export function showCommand(ctx: CommandContext): Command {
  const cmd = new Command("show")
    .description("print a readable transcript of each run: prompt, messages, a line per tool call, final answer, outcome")
    .addHelpText("before", SHOW_EXAMPLES)
    .addHelpText("after", SHOW_HELP)
    .addOption(new Option("--format <format>", "text, markdown or html").choices(FORMATS).default("text").helpGroup(GROUP))
    .addOption(new Option("--thinking", "show the model's thinking, dimmed").helpGroup(GROUP))
    .addOption(new Option("--diff", "show each edit's diff below its line").helpGroup(GROUP))
    .addOption(new Option("--lines <n>", "last lines of stderr or error text shown for a call that did not succeed").argParser(parseCount).default(5).helpGroup(GROUP))
    .addOption(new Option("-e, --exit-status", "exit 1 if a result has is_error:true, 4 if a run has no result").helpGroup(GROUP));
  withFollowOption(withWidthOption(withInputOptions(cmd), "wrap text to this many columns (default: the terminal's, COLUMNS, 80 in a pipe; 0: never)")).action(
    (files: string[], raw: ShowRaw) => {
      // --format html -o DIR (a folder): a page per run and index.html in it, written by the pages'
      // renderer (show/html/dir.ts), not through -o FILE; nothing on stdout.
      const dir = raw.format === "html" && raw.output !== undefined && raw.output !== "-" && isFolder(raw.output) ? raw.output : undefined;
      if (dir !== undefined) cmd.setOptionValue("output", undefined);
      ctx.setRun(async () => {
        const { toShow } = await logStages();
        const io = ctx.io;
        let html: ReturnType<typeof import("../../outputs/show/html/index.js").htmlShow> | undefined;
        if (raw.format === "html") {
          const { htmlShow, PageDir } = await htmlOutput();
          let pages: ReturnType<typeof PageDir.open> | undefined;
          if (dir !== undefined) {
            try {
              pages = PageDir.open(dir);
            } catch (err) {
              io.stderr.write(`cursorlog: error: cannot write pages into ${dir}: ${(err as Error).message}\n`);
              return ExitCode.USAGE_OR_IO;
            }
          }
          html = htmlShow(pages);
        }
        const markdown = raw.format === "markdown" || html !== undefined;
        const fromStdin = files.length === 0 || files.includes("-");
        return runCommand(
          io,
          files,
          raw,
          (reporter, color) =>
            toShow(
              {
                format: html !== undefined ? "html" : markdown ? "markdown" : "text",
                ...html,
                colors: colorsFor(color && !markdown),
                width: markdown ? 0 : outputWidth(raw.width, io),
                terminalColumns: outputWidth(undefined, { ...io, env: {} }),
                thinking: raw.thinking === true,
                lines: raw.lines ?? 5,
                // The page always holds each edit's diff (folded).
                diff: raw.diff === true || html !== undefined,
                exitStatus: raw.exitStatus === true,
                agent: raw.agent,
                live: !markdown && io.stdoutIsTTY && io.env.TERM !== "dumb" && (fromStdin || following(raw)),
              },
              reporter,
            ),
          "show",
        );
      });
    },
  );
  return cmd;
}

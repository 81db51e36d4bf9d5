import { Command, Option } from "commander";
import type { CommandContext } from "../command-context.js";
import { colorsFor, type SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { outputWidth, withFollowOption, withInputOptions, withWidthOption } from "../shared-options.js";
import { lazy } from "../../lazy.js";

const logStages = lazy(() => import("../../outputs/log-stages.js"));

export const DIFF_EXAMPLES = `Examples:
  $ cursorlog diff run.ndjson > run.patch && git apply --check run.patch
  $ cursorlog diff --stat run.ndjson
  $ cursorlog diff --name-only logs/*.ndjson.gz | sort -u
`;

export const DIFF_HELP = `
What the patch holds: per run (session), a unified diff per file its successful edits, creations
and deletions changed (cursor-agent's editToolCall, 2025's writeToolCall, deleteToolCall; Claude
Code's Write, Edit and NotebookEdit), in the order the files were first changed, with a/ and b/
paths relative to the run's cwd (system/init). Several changes of one file are one diff, from the
whole file before the first change (beforeFullFileContent; Claude Code's originalFile; nothing for
a creation) to the whole file after the last (afterFullFileContent, the created content; Claude
Code's Write content, or its Edit's structuredPatch applied to originalFile when every hunk
matches; nothing after a deletion), so 'git apply' takes it against the tree the run started from.
A file the run created and deleted again is left out; so is an edit that changed nothing.

When the log lacks a whole file (an edit with only its diffString or structuredPatch), that file
gets a section per change with the diff as logged, and a warning says it may not apply; an edit
with no content at all is only counted (--stat, --name-only) and named on stderr, and one whose
line counts the log lacks too (Claude Code before mid-2026 logs no tool_use_result) shows ? in
--stat. Failed, rejected and refused writes changed nothing: they are left out and listed on
stderr. Files changed by shell commands leave no trace in the log. A file outside the run's cwd
is left out of the patch (warned).

A Codex log names each file a run changed and how (file_change: add, update, delete), never its
content: its patch is refused with one line saying so (exit 2); --stat shows ? with (created) or
(deleted), and --stat and --name-only give the paths as logged (Codex logs no cwd).

A run's patch is written when the run is over: the next run begins (the next system/init), or its
file ends; lines after a run's result still belong to it (a Claude Code background subagent's
edits). Memory: for each file a run changed, the whole file before its first change and after its
last. To a terminal, control characters in file contents are shown escaped and lines coloured; to
a pipe or file the contents are written as they were (the patch must apply).

Exit status: 0 when the patch is written, whatever the runs did; 4 for a file with no session at
all (empty, or only the agent CLI's text); 2 for an unreadable file, the log of an agent cursorlog
does not read (Gemini CLI) or a patch of a Codex run; 5 for a line that is not JSON (--lenient
skips it).
`;

interface DiffRaw extends SharedRaw {
  stat?: boolean;
  nameOnly?: boolean;
  width?: number;
}

const GROUP = "Diff options:";

export function diffCommand(ctx: CommandContext): Command {
  const cmd = new Command("diff")
    .description("print the changes a run made to files as a unified diff that git apply accepts")
    .addHelpText("before", DIFF_EXAMPLES)
    .addHelpText("after", DIFF_HELP)
    .addOption(new Option("--stat", "per file the lines added and removed, like git diff --stat").conflicts("nameOnly").helpGroup(GROUP))
    .addOption(new Option("--name-only", "only the paths of the files changed, one a line").helpGroup(GROUP));
  withFollowOption(withWidthOption(withInputOptions(cmd), "--stat's width in columns (default: the terminal's, COLUMNS, 80 in a pipe)")).action(
    (files: string[], raw: DiffRaw) => {
      ctx.setRun(async () => {
        const { toDiff } = await logStages();
        return runCommand(
          ctx.io,
          files,
          raw,
          (reporter, color) =>
            toDiff(
              {
                mode: raw.stat === true ? "stat" : raw.nameOnly === true ? "names" : "patch",
                colors: colorsFor(color),
                escape: ctx.io.stdoutIsTTY,
                width: outputWidth(raw.width, ctx.io) || 80,
                agent: raw.agent,
              },
              reporter,
            ),
          "diff",
        );
      });
    },
  );
  return cmd;
}

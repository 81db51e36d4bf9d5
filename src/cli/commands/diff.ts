import { Command, Option } from "commander";
import type { CommandContext } from "../command-context.js";
import { colorsFor, type SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { outputWidth, withFollowOption, withInputOptions, withWidthOption } from "../shared-options.js";

export const DIFF_EXAMPLES = `Examples:
  $ cursorlog diff run.ndjson > run.patch && git apply --check run.patch
  $ cursorlog diff --stat run.ndjson
  $ cursorlog diff --name-only logs/*.ndjson.gz | sort -u
`;

export const DIFF_HELP = `
What the patch holds: per run (session), a unified diff per file its successful edits, creations
and deletions changed (editToolCall, 2025's writeToolCall, deleteToolCall), in the order the files
were first changed, with a/ and b/ paths relative to the run's cwd (system/init). Several changes
of one file are one diff, from the whole file before the first change (beforeFullFileContent;
nothing for a creation) to the whole file after the last (afterFullFileContent, the created
content, nothing after a deletion), so 'git apply' takes it against the tree the run started
from. A file the run created and deleted again is left out; so is an edit that changed nothing.

When the log lacks a whole file (an edit with only its diffString), that file gets a section per
change with the diff as logged, and a warning says it may not apply; an edit with no content at
all is only counted (--stat, --name-only) and named on stderr. Failed, rejected and refused
writes changed nothing: they are left out and listed on stderr. Paths outside the run's cwd are shown without their leading / (warned).

A run's patch is written when it ends (its result, the next system/init, the end of its file).
Memory: for each file a run changed, the whole file before its first change and after its last.
To a terminal, control characters in file contents are shown escaped and lines coloured; to a
pipe or file the contents are written as they were (the patch must apply).

Exit status: 0 when the patch is written, whatever the runs did; 4 for a file with no session at
all (empty, or only the agent CLI's text); 2 for an unreadable file or another agent's log; 5 for
a line that is not JSON (--lenient skips it).
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
        const { toDiff } = await import("../../outputs/log-stages.js");
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

import { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { resolveColor, type SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { withFilenameOption, withFollowOption, withInputOptions, withJobsOption } from "../shared-options.js";

export const TEXT_EXAMPLES = `Examples:
  $ cursor-agent -p "add a test" --output-format stream-json | cursorlog text
  $ cursorlog text -v examples/session.ndjson
  $ cursorlog text --final run.ndjson          # just the last assistant message
  $ cursorlog text -F run.ndjson          # as it is written (tail -F)
  $ cursorlog text -H logs/ | grep 'failed'   # with the file of each line
`;

export const TEXT_HELP = `
A Claude Code subagent's own calls get their lines too, marked as the subagent's: [subagent
"<task>"] before the action, the task's description as a JSON string (outer > inner for a
subagent's subagent). The run's own lines start with the action. --final prints the run's own
last message, never a subagent's.

Codex logs: a line per call item in the same words (command_execution "Ran terminal command", its
command without the login shell's wrapper; file_change a line per file, "Created new file",
"Edited file", "Deleted file"; mcp_tool_call, web_search, todo_list, collab_tool_call "Ran
subagent task"); --final prints the run's last agent_message.
`;

interface TextRaw extends SharedRaw {
  verbose?: boolean;
  final?: boolean;
  allowIncomplete?: boolean;
  /** -H / --no-filename, the last one given (withFilenameOption). */
  fileNames?: boolean;
}

export function textCommand(ctx: CommandContext): Command {
  const cmd = new Command("text")
    .description('print an action line per tool call ("Read file", "Edited file", "Ran terminal command", …) as each completes')
    .addHelpText("before", TEXT_EXAMPLES)
    .addHelpText("after", TEXT_HELP)
    .option("-v, --verbose", "add the target of each action: path, command, pattern, URL")
    .option("--final", "print only each session's final assistant message, as the 2026 CLI's text format does")
    .option("--allow-incomplete", "a session without a result is not an error (exit 0); with --final its last text is printed");
  withFollowOption(withJobsOption(withInputOptions(withFilenameOption(cmd, "write FILE: before each line, the file it came from (as grep -H)")))).action((files: string[], raw: TextRaw) => {
    ctx.setRun(async () => {
      const options = {
        agent: raw.agent,
        verbose: raw.verbose === true,
        final: raw.final === true,
        allowIncomplete: raw.allowIncomplete === true,
        color: resolveColor(raw.color, ctx.io.env, ctx.io.stdoutIsTTY),
        fileNames: raw.fileNames === true,
      };
      return runCommand(ctx.io, files, raw, { command: "text", options }, "text");
    });
  });
  return cmd;
}

import { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { resolveColor, type SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { withFilenameOption, withInputOptions, withJobsOption } from "../shared-options.js";

export const JSON_EXAMPLES = `Examples:
  $ cursor-agent -p "fix the tests" --output-format stream-json | cursorlog json
  $ cursorlog json --pretty examples/session.ndjson
  $ cursorlog json logs/*.ndjson.gz | jq -r .result
  $ cursorlog json --allow-incomplete crashed.ndjson
  $ cursorlog json -H logs/ | jq -r 'select(.is_error) | .file'
`;

export const JSON_HELP = `
Claude Code: its result line as written. Codex (codex exec --json writes no result line): an
object built from the stream in cursor-agent's keys, type, subtype (success, or error for
turn.failed), is_error, result (the last agent_message's text), session_id (the thread id), usage
(the last turn.completed's as logged: the thread's total so far, Codex's names); nothing the stream
lacks (no duration, no request id).
`;

interface JsonRaw extends SharedRaw {
  pretty?: boolean;
  allowIncomplete?: boolean;
  /** -H / --no-filename, the last one given (withFilenameOption). */
  fileNames?: boolean;
}

export function jsonCommand(ctx: CommandContext): Command {
  const cmd = new Command("json")
    .description("print the result object that --output-format json would have printed, one per session")
    .addHelpText("before", JSON_EXAMPLES)
    .addHelpText("after", JSON_HELP)
    .option("-p, --pretty", "indent the JSON (default: one compact line per session)")
    .option("--allow-incomplete", 'print a synthesized {"subtype":"incomplete","is_error":true} object for a session that has no result, and exit 0');
  withJobsOption(withInputOptions(withFilenameOption(cmd, 'end each object with a member "file", the input it came from (jq: .file)'))).action((files: string[], raw: JsonRaw) => {
    ctx.setRun(async () => {
      // The stage is built from this description (src/jobs/stages.ts), here or in --jobs workers.
      // Coloured as jq colours JSON, and escaped for the terminal, when standard output is one
      // (decided here, after -o, which makes it a file).
      const options = {
        agent: raw.agent,
        pretty: raw.pretty === true,
        allowIncomplete: raw.allowIncomplete === true,
        colors: resolveColor(raw.color, ctx.io.env, ctx.io.stdoutIsTTY),
        escape: ctx.io.stdoutIsTTY,
        fileNames: raw.fileNames === true,
      };
      return runCommand(ctx.io, files, raw, { command: "json", options }, "json");
    });
  });
  return cmd;
}

import { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { filterCommand } from "./commands/filter.js";
import { jsonCommand } from "./commands/json.js";
import { schemaCommand } from "./commands/schema.js";
import { statsCommand } from "./commands/stats.js";
import { textCommand } from "./commands/text.js";
import { timelineCommand } from "./commands/timeline.js";
import { validateCommand } from "./commands/validate.js";
import { completionCommand, manCommand } from "./commands/completion.js";
import { outputOption } from "./output-file.js";
import { globalOptions } from "./shared-options.js";
import { diffCommand } from "./commands/diff.js";
import { showCommand } from "./commands/show.js";
import { exportCommand } from "./commands/export.js";
import { runsCommand } from "./commands/runs.js";

export const PROGRAM_EXAMPLES = `Examples:
  $ cursor-agent -p "fix the build" --output-format stream-json | cursorlog show
  $ cursorlog diff run.ndjson | git apply   # the change the run made
  $ cursorlog json run.ndjson               # the --output-format json result
  $ cursorlog filter --exclude-type thinking run.ndjson > small.ndjson
  $ cursorlog timeline logs/*.ndjson.gz > calls.csv
  $ cursorlog export --endpoint http://localhost:4318 logs/  # OpenTelemetry
`;

/**
 * The command table: each verb's name and the function that makes it, one file each under
 * commands/; a new conversion (filter, timeline, validate, …) adds its line here. The name is
 * there to make the one command a run names without the others (buildProgram's `only`); a test
 * holds it to the name the command gives itself (test/help.test.ts).
 */
export const COMMANDS: ReadonlyArray<readonly [name: string, make: (ctx: CommandContext) => Command]> = [
  ["show", showCommand],
  ["diff", diffCommand],
  ["json", jsonCommand],
  ["text", textCommand],
  ["filter", filterCommand],
  ["timeline", timelineCommand],
  ["stats", statsCommand],
  ["runs", runsCommand],
  ["export", exportCommand],
  ["validate", validateCommand],
  ["schema", schemaCommand],
  ["completion", completionCommand],
];

/**
 * The program: its options and commands. With `only`, the command of that name and none of the
 * others (nor the hidden `man`): a run that names its command needs no other, and making every
 * command (some 300 options) was ~1 ms of each run.
 */
export function buildProgram(ctx: CommandContext, version: string, only?: string): Command {
  const program = new Command("cursorlog")
    .description("Turn cursor-agent stream-json logs (NDJSON) into results, action lines, filtered events, CSV timelines, validation reports and traces (OpenTelemetry, Perfetto).")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .addHelpText("before", PROGRAM_EXAMPLES)
    .addHelpText(
      "after",
      "\nExit status: 0 ok, 1 negative answer (invalid lines, no match, is_error result),\n" +
        "2 usage or I/O error, 3 schema does not compile or recurses, 4 a session has no\n" +
        "result, 5 a line is not a JSON object.\n" +
        "Run 'cursorlog help COMMAND' for a command's options and examples.",
    )
    .helpCommand("help [command]", "show help for a command")
    .showSuggestionAfterError(true)
    .enablePositionalOptions(); // options before the command are the program's (global) ones
  for (const o of globalOptions()) program.addOption(o);
  for (const [name, make] of COMMANDS) if (only === undefined || name === only) program.addCommand(make(ctx).addOption(outputOption()));
  if (only === undefined) program.addCommand(manCommand(ctx, version), { hidden: true });
  return program;
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { ExitCode } from "../../exit-codes.js";
import { escapeControls } from "../../sanitize.js";
import type { CommandContext } from "../command-context.js";

export const SCHEMA_EXAMPLES = `Examples:
  $ cursorlog schema tool_call | jq '.["$defs"] | keys'
  $ mkdir my && for t in $(cursorlog schema --list); do
      cursorlog schema $t > my/$t.schema.json; done     # copies to edit
  $ cursorlog validate --schema my/ run.ndjson
`;

export const SCHEMA_HELP = `
Prints the schema file exactly as bundled (JSON Schema 2020-12). Without TYPE (or with
cursor-agent-event): the entry schema, which sends each event to its type's schema. The files
$ref each other by their $id (https://cursorlog.dev/schemas/<name>.schema.json): give another
validator all of them (the type's file and defs at least). A directory holding them all, as the
loop above writes it, is what 'cursorlog validate --schema DIR' reads, so edited copies can be
tried at once.
`;

export function schemaCommand(ctx: CommandContext): Command {
  return new Command("schema")
    .description("print the bundled JSON Schema for cursor-agent events (the entry schema, or one type's)")
    .addHelpText("before", SCHEMA_EXAMPLES)
    .addHelpText("after", SCHEMA_HELP)
    .argument("[type]", "an event type (system, user, thinking, assistant, tool_call, result, …), defs, or cursor-agent-event (the entry)")
    .option("--list", "print the names TYPE accepts, one per line: the entry, each type, defs")
    .action((type: string | undefined, raw: { list?: boolean }) => {
      ctx.setRun(async () => {
        const io = ctx.io;
        const { BUNDLED_SCHEMA_DIR, bundledSchemaNames, ENTRY_FILE } = await import("../../validate/bundled-schemas.js");
        const names = bundledSchemaNames();
        if (raw.list) {
          io.stdout.write(names.join("\n") + "\n");
          return ExitCode.OK;
        }
        if (type !== undefined && !names.includes(type)) {
          io.stderr.write(
            `cursorlog: error: unknown schema ${escapeControls(JSON.stringify(type))}: choose one of ${names.join(", ")} (or none for the entry schema)\n` +
              `Run 'cursorlog schema --help' for usage.\n`,
          );
          return ExitCode.USAGE_OR_IO;
        }
        const file = type === undefined ? ENTRY_FILE : `${type}.schema.json`; // the entry's name gives ENTRY_FILE too
        io.stdout.write(readFileSync(join(BUNDLED_SCHEMA_DIR, file)));
        return ExitCode.OK;
      });
    });
}

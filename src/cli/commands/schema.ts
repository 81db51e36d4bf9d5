import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "commander";
import { AGENTS, DEFAULT_DIALECT, forcedDialect } from "../../dialects/index.js";
import { ExitCode } from "../../exit-codes.js";
import { escapeControls } from "../../sanitize.js";
import type { CommandContext } from "../command-context.js";
import { lazy } from "../../lazy.js";

const bundledSchemas = lazy(() => import("../../validate/bundled-schemas.js"));

export const SCHEMA_EXAMPLES = `Examples:
  $ cursorlog schema tool_call | jq '.["$defs"] | keys'
  $ mkdir my && for t in $(cursorlog schema --list); do
      cursorlog schema $t > my/$t.schema.json; done     # copies to edit
  $ cursorlog validate --schema my/ run.ndjson
  $ cursorlog schema --agent claude --list               # Claude Code's
  $ cursorlog schema --agent codex --list                # Codex's
`;

export const SCHEMA_HELP = `
Prints the schema file exactly as bundled (JSON Schema 2020-12). Without TYPE (or with
cursor-agent-event): the entry schema, which sends each event to its type's schema. The files
$ref each other by their $id (https://cursorlog.dev/schemas/<name>.schema.json): give another
validator all of them (the type's file and defs at least). A directory holding them all, as the
loop above writes it, is what 'cursorlog validate --schema DIR' reads, so edited copies can be
tried at once.

--agent claude: Claude Code's stream-json schemas instead (schemas/claude-code/, $ids
https://cursorlog.dev/schemas/claude-code/<name>.schema.json), the entry claude-code-event; the
same loop with --agent claude in both commands copies them, and validate --schema reads that
directory. --agent codex: Codex's exec --json schemas (schemas/codex/, entry codex-event).
validate checks each log against its own agent's set either way.
`;

export function schemaCommand(ctx: CommandContext): Command {
  return new Command("schema")
    .description("print the bundled JSON Schema for cursor-agent events (the entry schema, or one type's), or Claude Code's")
    .addHelpText("before", SCHEMA_EXAMPLES)
    .addHelpText("after", SCHEMA_HELP)
    .argument("[type]", "an event type (system, user, thinking, assistant, tool_call, result, …), defs, or cursor-agent-event (the entry)")
    .option("--list", "print the names TYPE accepts, one per line: the entry, each type, defs")
    .addOption(new Option("--agent <name>", `the agent whose schemas: ${AGENTS.join(", ")} (default: cursor)`).choices([...AGENTS]))
    .action((type: string | undefined, raw: { list?: boolean; agent?: string }) => {
      ctx.setRun(async () => {
        const io = ctx.io;
        const { bundledSchemaNames, bundledSchemaSetInfo } = await bundledSchemas();
        const set = bundledSchemaSetInfo((forcedDialect(raw.agent) ?? DEFAULT_DIALECT).schemaEntryId);
        const names = bundledSchemaNames(set.entryId);
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
        const file = type === undefined ? set.entryFile : `${type}.schema.json`; // the entry's name gives its file too
        io.stdout.write(readFileSync(join(set.dir, file)));
        return ExitCode.OK;
      });
    });
}

import { Command, Option } from "commander";
import type { FormatName } from "../../validate/diagnostic-format.js";
import type { CommandContext } from "../command-context.js";
import type { ValidateRaw } from "../run-validate.js";
import { parseCount, withInputOptions } from "../shared-options.js";
import { lazy } from "../../lazy.js";

const runValidateModule = lazy(() => import("../run-validate.js"));

const FORMATS: FormatName[] = ["text", "json", "github"];

export const VALIDATE_EXAMPLES = `Examples:
  $ cursorlog validate run.ndjson
  $ cursor-agent -p "fix the build" --output-format stream-json |
      tee run.ndjson | cursorlog validate
  $ cursorlog validate --format github logs/    # annotations in GitHub Actions
  $ cursorlog validate --strict --format json run.ndjson |
      jq -r 'select(.severity == "error") | .message'
  $ cursorlog validate --allow-empty logs/      # an empty log is not an error
`;

export const VALIDATE_HELP = `
Output (stdout): one diagnostic per problem, grep style, then a summary line:
  run.ndjson:17: /tool_call/shellToolCall/args/command: must be string (type)
  run.ndjson:40: warning: /tool_call: unknown tool kind "gizmoToolCall" (unknown-kind)
  checked 51 lines in 1 file: 50 valid, 1 invalid; 1 error, 1 warning
In parentheses: the JSON Schema keyword that failed, or the check below. A line that is not JSON is
reported the same way (parse) and validation goes on. Text from the log is shown escaped. Fatal
errors (an unreadable input file or schema, a directory without logs, a schema that does not
compile or recurses without end) go to stderr as "cursorlog: error ..."; the summary counts only the files read.

Checks:
  (keyword)            each line against its type's schema: the bundled ones of the file's own
                       agent (cursor-agent's, or Claude Code's, schemas/claude-code: each file is
                       read as its first event says, or as --agent says; 'cursorlog schema
                       [--agent claude]' prints them) or --schema's; the event's type picks one
  parse                the line is not a JSON object
  utf8                 the line is not valid UTF-8 (other commands read the bad bytes as U+FFFD)
  duplicate-key        a key repeated in one object: a warning, an error with --strict (every
                       command uses the last value, as JSON.parse and jq do)
  unknown-type         a type no schema knows: a warning, an error with --strict
  unknown-kind         a tool kind (…ToolCall key of a cursor-agent line) no schema knows: a
                       warning, an error with --strict
  unknown-field        --strict only: a field no schema names, to catch format drift early
  agent-message        warning: a line that does not begin like JSON (no {, [ or " first) is the
                       agent CLI's own text, its stderr merged into the log (2>&1); a failed run
                       ends with one, e.g. RetriableError: …, and no-result quotes it
Lifecycle, per session (a session starts at each system/init, after a result, and with each file;
a Claude Code session keeps the lines after its result that are still its own: a background
task's end, a subagent's last lines); --no-lifecycle turns these off:
  no-session           a file holds no session at all (empty, blank lines, only the agent CLI's
                       text): the agent never started; --allow-empty accepts it
  no-init              the session does not start with system/init (lines that tell nothing, as
                       Claude Code's hooks and command lists, may come before it)
  no-result            the session ends without a result (crash, kill, truncated log)
  unfinished-call      a started tool call never completes (a warning for a Codex command its turn
                       completed without: Codex reaps a command left running in the background)
  duplicate-start      a call id starts again while its call is open
  double-completion    a call completes a second time
  kind-mismatch        a call completes as another tool kind than it started as
  session-id-change    session_id changes within the session
  orphan-completion    warning: a completion without a started event (cursor-agent does this when
                       it rejects a task call's arguments)
  timestamp-backwards  warning: timestamp_ms earlier than the previous event's
Each lifecycle diagnostic names the other lines involved.

Formats:
  text    as above (colour on a terminal)
  json    one object per line: {"type":"diagnostic","file","line","severity","rule","keyword","path",
          "message","schemaPath","related"}, keyword and schemaPath null unless rule is "schema",
          related the other lines; last {"type":"summary","files","lines","valid","invalid",
          "errors","warnings","stoppedAfter"}
  github  GitHub Actions annotations, ::error file=F,line=N,title=cursorlog validate::MESSAGE
          (::warning for warnings), then the summary line; name the logs by repository-relative paths

--schema PATH: a JSON Schema 2020-12 file, used alone, or a directory of *.json schemas that $ref
each other by $id or file name, whose entry is cursor-agent-event.schema.json or
claude-code-event.schema.json or codex-event.schema.json (or the only file); it checks every file,
whatever its agent.
Every event goes to the entry; known types and tool kinds are read from its if/then dispatch.
Schemas are compiled before any input is read. Their patterns run in linear time (re2js, with
JavaScript's meaning), so a value cannot make a pattern hang the run; a pattern with lookaround or a
backreference runs on JavaScript's RegExp, with a warning. A schema that recurses without end
({"$ref":"#"}) is reported once, at the first line that sets it off, with exit status 3.

No --jobs: the summary and --max-errors span every file. To spread many files over cores, run one
validate per share of them (xargs -P); each gives its own summary and status.

Exit status: 0 no errors (warnings allowed), 1 an error found (invalid line, lifecycle error),
2 usage error or an input or schema that cannot be read, 3 a schema that does not compile or
recurses without end.
`;

export function validateCommand(ctx: CommandContext): Command {
  const group = "Validation options:";
  const cmd = new Command("validate")
    .description("check every line against the stream-json JSON Schemas and each session's lifecycle; report what is wrong, where")
    .addHelpText("before", VALIDATE_EXAMPLES)
    .addHelpText("after", VALIDATE_HELP)
    .addOption(new Option("--strict", "unknown event types and tool kinds are errors; also report fields no schema names").helpGroup(group))
    .addOption(new Option("--no-lifecycle", "check each line on its own only: no session, call-pairing or ordering checks").helpGroup(group))
    .addOption(new Option("--allow-empty", "an input without any session (empty, blank, only the agent CLI's text) is not an error").helpGroup(group))
    .addOption(new Option("--schema <path>", "validate against your JSON Schema file or directory instead of the bundled schemas").helpGroup(group))
    .addOption(
      new Option("--max-errors <n>", "stop after N errors (warnings do not count; 0: no limit); exit status still 1")
        .argParser(parseCount)
        .helpGroup(group),
    )
    .addOption(
      new Option("--format <format>", "text, json (one NDJSON diagnostic per line) or github (Actions annotations)")
        .choices(FORMATS)
        .default("text")
        .helpGroup("Output options:"),
    );
  withInputOptions(cmd);
  // validate always goes on past bad lines (they are diagnostics): --lenient is accepted, and changes nothing.
  cmd.options.find((o) => o.long === "--lenient")?.hideHelp();
  // The validation machinery loads only when this command runs: the other commands never pay for it.
  cmd.action((files: string[], raw: ValidateRaw) =>
    ctx.setRun(async () => (await runValidateModule()).runValidate(ctx.io, files, raw)),
  );
  return cmd;
}

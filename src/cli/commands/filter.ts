import { Command, InvalidArgumentError, Option } from "commander";
import { FilterSyntaxError } from "../../query/syntax-error.js";
import { STEP_SLACK, STEPS_PER_CHAR } from "../../regex/budget.js";
import { MAX_PROGRAM } from "../../regex/program.js";
import { MAX_NESTING, MAX_REPEAT } from "../../regex/syntax.js";
import { parseTimeArg } from "../../query/time-arg.js";
import { parseWhere } from "../../query/where-clause.js";
import { resolveStatuses, resolveTools, resolveTypes, type Resolved } from "../../query/filter-words.js";
import { escapeControls } from "../../sanitize.js";
import type { CommandContext } from "../command-context.js";
import type { SharedRaw } from "../config.js";
import { runCommand } from "../run-command.js";
import { withFilenameOption, withFollowOption, withInputOptions, withJobsOption } from "../shared-options.js";

export const FILTER_EXAMPLES = `Examples:
  $ cursorlog filter --exclude-type thinking run.ndjson > small.ndjson
  $ cursorlog filter --tool shell --status failure run.ndjson |
      jq -r '.tool_call.shellToolCall.result.failure.stderr'
  $ cursorlog filter --tool Shell --status failed --type tool run.ndjson
  $ cursorlog filter -c --where 'tool_call.*.result.error exists' logs/
  $ cursorlog filter -c -H --status failure logs/     # failed calls per file
  $ cursorlog filter -v --tool read --tool grep run.ndjson   # but reads, greps
  $ cursorlog filter --type tool_call --pair --since 2026-01-01T09:00Z \\
      --until 2026-01-01T10:00Z run.ndjson
`;

const NOTES = `
Events are written as the lines they were read from (LF line ends; a value that spanned several
lines, or shared one, is written as compact JSON). Repeating a predicate ORs its values; different
predicates AND together. With no predicate every JSON line is written. --type, --tool and --status
take any case and the words cursorlog prints or Cursor uses: --type tool is tool_call; --tool Shell
or bash is shell, Write is edit or write, StrReplace is edit; --status failed is failure, refused
is rejected or a permission denial. A value none of them knows is matched as written, with a
warning naming the known ones. Sessions pass through as
they are: one without a result is not an error here (exit status: 0, 1 with -e and no match, 2, 5).

--where 'PATH OP VALUE' (one argument): PATH is a jq-style path, a.b.c, a[0], a[-1], a.*.c (any
key or element), a."key.with dots"; OP is ==, !=, <, <=, >, >=, ~ (regex) or exists; VALUE is JSON
when it parses as JSON (0, true, null, "text"), else the rest of the argument as a string. With a
* the clause holds when some value matches; != is "not ==". ~ takes JavaScript regex syntax without
backreferences or lookaround (prefix (?i) to ignore case) and runs in linear time on strings: a
lazy DFA, one table lookup per character once its states are cached. Its guards: counts up to
{${MAX_REPEAT}}, at most ${MAX_PROGRAM} steps once repeats are expanded (else exit status 2), and at most ${STEPS_PER_CHAR} steps of
work per character tested, plus 2^${Math.log2(STEP_SLACK)} per line; a line that needs more (only a pattern whose
automaton is too large to cache, e.g. [ab]*a[ab]{600}c on random a and b, comes near it) is
reported like an invalid line: exit status 5, or skipped with --lenient. Groups nested more than
${MAX_NESTING} deep are refused too (exit status 2).

--since/--until: [since, until) on timestamp_ms, ISO-8601 (UTC unless an offset is given) or epoch
ms. An event without timestamp_ms takes the last timestamp before it in its file; before the first
one it is kept only when there is no --since.

--pair: a kept completion brings out its started event (written just before it, so it appears when
the call completes), and a kept started event brings out its completion.

-v: the events the predicates and --since/--until do not select, as grep -v: filter X and
filter -v X split a log's events in two (--pair then completes the calls either cut in half). A
line that is not an event (the agent CLI's own text, its stderr in the log) is written by neither:
it is told once per run on stderr, at the first such line, and not at all with -c.

Claude Code logs (each file is read in its own agent's format, from its first event, or as
--agent says): --type is the line's own type (system, assistant, user, result, stream_event, …).
A call starts in an assistant line (its tool_use) and completes in a user line (its tool_result),
so --tool, --status and --call-id select the lines that start or complete a matching call, as
cursorlog reads them: --tool shell keeps the assistant line holding a Bash call and the user line
holding its result, --tool also takes Claude Code's names (Bash, Read, Agent, mcp__server__tool).
Claude Code words no outcome but its refusals', so --status matches by the call's status: success
is ok, failure and error are failed (is_error), rejected and the permission denials are refused,
timeout and spawnError match none; a refusal's own word (permission-rule) matches as written.
--since/--until use its lines' timestamp (a log from before mid-2026 has none: --since then
keeps no line of it, --until every line).
A line holding several calls (2.1.15's) is kept, and with --pair held, once.

Codex logs likewise: --type is the line's own (thread.started, item.completed, turn.completed, …);
--tool, --status and --call-id select the item.started and item.completed lines of a matching
call item (--tool also takes Codex's item types, command_execution, file_change, web_search, …;
--status its words, completed, failed, declined). A file_change line holds a call per file.
Codex logs no time: --since keeps none of its lines, --until every one.

-H: FILE: before each event (the name as given, control characters escaped), as grep -H; with -c,
a count per file, FILE:N. Off by default, for several files too: the output is NDJSON for jq or
another filter, and a name before each line would make it something else.
`;

interface FilterRaw extends SharedRaw {
  type?: string[];
  subtype?: string[];
  excludeType?: string[];
  tool?: string[];
  status?: string[];
  session?: string[];
  callId?: string[];
  modelCallId?: string[];
  /** The clauses as written: checked when parsed, compiled where the stage is built. */
  where?: string[];
  since?: number;
  until?: number;
  pair?: boolean;
  count?: boolean;
  exitStatus?: boolean;
  invertMatch?: boolean;
  /** -H / --no-filename, the last one given (withFilenameOption). */
  fileNames?: boolean;
}

/** A predicate error becomes commander's "argument … is invalid." usage error (exit 2). */
function usage<T>(parse: (v: string) => T): (v: string) => T {
  return (v) => {
    try {
      return parse(v);
    } catch (err) {
      if (err instanceof FilterSyntaxError) throw new InvalidArgumentError(err.message);
      throw err;
    }
  };
}

function predicate(flags: string, description: string, parse?: (v: string) => unknown): Option {
  const collect = (v: string, prev: unknown[] | undefined): unknown[] => [...(prev ?? []), parse ? parse(v) : v];
  return new Option(flags, description).argParser(collect).helpGroup("Predicates:");
}

export function filterCommand(ctx: CommandContext): Command {
  const cmd = new Command("filter")
    .description("write the events that match, byte for byte as they were in the input (NDJSON)")
    .addHelpText("before", FILTER_EXAMPLES)
    .addHelpText("after", NOTES)
    .addOption(predicate("--type <type>", "events of this type: tool_call (or tool), assistant, thinking, result, …; any case"))
    .addOption(predicate("--subtype <subtype>", "events of this subtype: started, completed, delta, init, …"))
    .addOption(predicate("--exclude-type <type>", "drop events of this type (e.g. thinking, to shrink a log)"))
    .addOption(predicate("--tool <kind>", "tool calls of this kind: shell, read, edit, … or its key (shellToolCall), or Cursor's name (Shell, Read, Write, Grep, Delete, Task; bash); any case"))
    .addOption(predicate("--status <arm>", "completed tool calls with this result: success, failure (or failed), rejected, error, timeout, … (refused, denied); any case"))
    .addOption(predicate("--session <id>", "events with this session_id"))
    .addOption(predicate("--call-id <id>", "tool calls with this exact call_id (newlines included)"))
    .addOption(predicate("--model-call-id <id>", "events with this model_call_id"))
    .addOption(
      predicate(
        "--where <clause>",
        "'PATH OP VALUE' in one argument, e.g. 'tool_call.shellToolCall.result.failure.exitCode > 0'",
        usage((v) => (parseWhere(v), v)),
      ),
    )
    .addOption(new Option("--since <time>", "events at or after this time (ISO-8601 or epoch ms)").argParser(usage(parseTimeArg)).helpGroup("Predicates:"))
    .addOption(new Option("--until <time>", "events before this time (ISO-8601 or epoch ms)").argParser(usage(parseTimeArg)).helpGroup("Predicates:"))
    .addOption(new Option("--pair", "never cut a tool call in half: a kept started or completed event brings out the other").helpGroup("Output options:"))
    .addOption(
      new Option("-v, --invert-match", "write the events the predicates (and --since/--until) reject, as grep -v; never the agent CLI's text").helpGroup(
        "Predicates:",
      ),
    )
    .addOption(new Option("-c, --count", "print only the number of events that would be written (with -H: per file, FILE:N)").helpGroup("Output options:"))
    .addOption(new Option("-e, --exit-status", "exit 1 when no event was written (input errors keep their own status)").helpGroup("Output options:"));
  withFollowOption(withJobsOption(withInputOptions(withFilenameOption(cmd, "write FILE: before each event, the file it came from (as grep -H); with -c, a count per file"))));
  // The events are written byte for byte as read, on a terminal too (jq would recolour them; pipe
  // into `jq -C .` for that): --color is for the messages on stderr.
  const color = cmd.options.find((o) => o.long === "--color");
  if (color) color.description = "colour the messages on stderr: auto, always or never (the events are written as read, never coloured)";
  cmd.action((files: string[], raw: FilterRaw) => {
    if (raw.since !== undefined && raw.until !== undefined && raw.since >= raw.until) {
      cmd.error(`error: --since (${new Date(raw.since).toISOString()}) must be earlier than --until (${new Date(raw.until).toISOString()})`, {
        exitCode: 2,
        code: "cursorlog.usage",
      });
    }
    // The words people type (Shell, bash, failed, tool…) are mapped to the log's; an unknown one is told.
    const words = (values: string[] | undefined, resolve: (v: string[]) => Resolved): string[] | undefined => {
      if (values === undefined) return undefined;
      const r = resolve(values);
      if (r.unknown !== undefined) ctx.io.stderr.write(`cursorlog: warning: ${escapeControls(r.unknown)}\n`);
      return r.values;
    };
    const spec = {
      types: words(raw.type, resolveTypes),
      subtypes: raw.subtype,
      excludeTypes: words(raw.excludeType, resolveTypes),
      tools: words(raw.tool, resolveTools),
      statuses: words(raw.status, resolveStatuses),
      sessions: raw.session,
      callIds: raw.callId,
      modelCallIds: raw.modelCallId,
      where: raw.where,
    };
    ctx.setRun(() => {
      // Escaped for a terminal when standard output is one (decided here, after -o).
      const options = {
        agent: raw.agent,
        spec,
        since: raw.since,
        until: raw.until,
        pair: raw.pair === true,
        count: raw.count === true,
        exitStatus: raw.exitStatus === true,
        escape: ctx.io.stdoutIsTTY,
        invert: raw.invertMatch === true,
        fileNames: raw.fileNames === true,
      };
      return runCommand(ctx.io, files, raw, { command: "filter", options }, "filter");
    });
  });
  return cmd;
}

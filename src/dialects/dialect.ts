import type { RawSkip } from "../input/raw-skip.js";
import type { JsonObject, JsonRecord } from "../input/record.js";
import type { AgentId, AgentSaid, Run, Step } from "../model/run.js";

/**
 * A dialect: one agent CLI's log format, read in one place. It is where that agent's field names
 * live; above it, the driver and the outputs see only the run model (src/model/).
 *
 * Designed against the four formats of ../shared/FORMAT.md and ../shared/AGENTS.md, so that a new
 * agent is a new module here, not a rewrite:
 *
 * - times: per call and per line (Cursor), per line on some versions only (Claude Code), none
 *   (Codex), batched (Gemini CLI): a dialect gives each time it has with its source and leaves the
 *   rest absent (model/time.ts);
 * - usage: per run (Cursor's result), per message with repeats (Claude Code, whose result totals
 *   it), cumulative per thread (Codex): a dialect states it once per run, with its scope;
 * - the final text: a result field, the last message, or deltas joined;
 * - tool calls: events (Cursor: started/completed pairs by call_id), blocks inside messages
 *   (Claude Code: tool_use answered by tool_result), items (Codex: item.started/completed by id),
 *   events (Gemini: tool_use/tool_result by tool_id): a dialect pairs them and gives Calls;
 * - a run that goes on after its result (Claude Code's lines after `result`): the dialect decides
 *   which run a line belongs to.
 */
export interface Dialect {
  readonly agent: AgentId;
  /** The format's name, as messages say it: "cursor-agent stream-json". */
  readonly name: string;
  /** The command line that writes the format, as messages say it: "cursor-agent --print --output-format stream-json". */
  readonly writtenBy: string;
  /**
   * Whether a file's first events are this format's: true, false, or undefined while it cannot
   * tell yet (Claude Code's hook events may come before its init).
   */
  recognise(ev: JsonObject): boolean | undefined;
  /** A reader of one input, its files in order. */
  reader(opts: ReaderOptions): DialectReader;
  /**
   * The members of a tool call's arguments and result this dialect's Calls read in full: the
   * input layer may shorten every other long string (input/raw-skip.ts shortenToolCalls). What
   * Call.fileChange and Call.failureText read is not among them: an output that reads those
   * parses tool calls whole.
   */
  readonly fieldsRead: ReadonlySet<string>;
  /**
   * The members Call.fileChange reads in full (the contents of a write): an output that reads file
   * changes may let the input layer shorten every long string of a tool call but these and
   * fieldsRead. Undefined: it reads more than can be named, and such an output parses tool calls whole.
   */
  readonly fileFieldsRead?: ReadonlySet<string>;
  /**
   * The lines an output may leave undecoded and unparsed (input/raw-skip.ts) when it needs none of
   * what they hold: the agent's thinking, the user's messages, the agent's text, each unless
   * `needs` says the output reads it. Undefined when every line is needed.
   */
  skipUnread(needs: { thinking?: boolean; user?: boolean; text?: boolean }): RawSkip | undefined;
  /**
   * The key order of the object the agent CLI's `--output-format json` prints, where it differs
   * from its stream's result line (cursor-agent's); undefined: that object is the result line as
   * written (Claude Code's). Known keys first in this order, then the rest as written.
   */
  readonly jsonKeyOrder?: readonly string[];
  /**
   * A run's lines may go on after its result (Claude Code: a background task's end, a background
   * subagent's lines: Step.run is the run the result ended, and Run.lastLine grows). The driver
   * tells them after the run's `runEnd`; an output that shows them with their run holds what it
   * writes at the run's end until the next run begins or the file ends. Undefined: the run ends
   * with its result (cursor-agent's: the next line begins a new run).
   */
  readonly linesAfterResult?: boolean;
  /**
   * The types of the lines that tell tool calls, when each start and each completion is told whole
   * by one line of these types (cursor-agent's `tool_call`): filter's --tool and --status may then
   * select lines by type before parsing them, and test the line itself. Undefined when a call is
   * told across lines of several types (Claude Code: started in an `assistant` line, completed in a
   * `user` line, refused by a `system` one): such lines are never skipped by type, and calls are
   * selected through the run model (Step.calls), every line the reader needs read.
   */
  readonly callLineTypes: readonly string[] | undefined;
  /**
   * The agent as OpenTelemetry's GenAI semantic conventions name it (the trace exports): `agent`,
   * its own name (`gen_ai.agent.name`, and the default `service.name`: `cursor-agent`,
   * `claude-code`); `provider`, whose models it runs (`gen_ai.provider.name`: one of the
   * conventions' well-known values where there is one, `anthropic`; else the agent's maker, `cursor`).
   */
  readonly genAi: { readonly agent: string; readonly provider: string };
  /**
   * The `$id` of the entry schema of this format's bundled JSON Schemas (schemas/, schemas/<agent>/:
   * src/validate/bundled-schemas.ts BUNDLED_SETS): `validate` checks each file against its own
   * dialect's set.
   */
  readonly schemaEntryId: string;
  /**
   * Keys the agent CLI itself writes twice in one object, as `<JSON pointer of the object> <key>`
   * (Codex's web_search item: `/item id`, its own id flattened into the item's): `validate` does
   * not report them as duplicate keys. Undefined: every repeated key is reported.
   */
  readonly repeatedKeys?: ReadonlySet<string>;
  /**
   * Why no log of this format can give a patch, in words, when it never can (Codex: it names the
   * files a run changed and how, never their content): `diff` refuses the patch of such a run with
   * this reason (its --stat and --name-only still list the files). Undefined: the log may hold
   * contents, and diff makes what it can of each change.
   */
  readonly patchRefusal?: string;
  /**
   * The `type`s of the events that end a run (cursor-agent's, Claude Code's, Gemini CLI's
   * `result`; Codex's `turn.completed` and `turn.failed`): `--follow` (input/read-inputs.ts) stops
   * reading a file of this format once the last event read is one of them and nothing after it is
   * begun. An event of another format's end type (a cursor-agent line of type `turn.completed`)
   * does not end it.
   */
  readonly runEndTypes: readonly string[];
  /**
   * Why a command (a call of kind `shell`) may be left open in a run that finished with no fault
   * of the log, in words (Codex: a command launched in the background is never completed, codex
   * reaps it when it exits, and turn.completed still follows: AGENTS.md §2.3): `validate` tells
   * such a call as a warning giving this reason, not an error. Undefined: a call left open is an
   * error whatever the run's end.
   */
  readonly reapedAtExit?: string;
}

export interface ReaderOptions {
  /**
   * Keep at most this many open calls per run (default: all). Past it, starts are only counted:
   * memory stays bounded whatever the log, for an output that needs open calls only for a count
   * and a few names (json).
   */
  maxOpen?: number;
  /** A completion without a start takes the next seq when it arrives (timeline numbers its rows). */
  numberUnstarted?: boolean;
  /**
   * Whether a time as logged is one the output can hold (the OTLP exports: 64-bit nanoseconds).
   * A time refused is absent from the model, as an unreadable one is: from the run's start and
   * end, its calls' timings, its background ends, the line's own time. Asked once per time, in
   * line order; `field` names the time as the log does (for a message), `run` is the line's run.
   */
  acceptTime?: (ms: number, field: string, line: number, run: Run) => boolean;
  /**
   * The number (Run.index) of the next run of the whole input: an input of several dialects
   * (a folder of Cursor and Claude Code logs) numbers its runs across them. Default: the reader
   * counts its own from 1.
   */
  nextRunIndex?: () => number;
}

export interface DialectReader {
  /** One parsed line: what it did to the runs. */
  read(rec: JsonRecord): Step;
  /** A line of the agent CLI's own text: the run it joined, if one (else it waits for the next run of this file). */
  said(file: string, line: number, text: string): Run | undefined;
  /** The end of a file: the run in progress ends with it, at the file's last line. */
  endFile(lastLine: number): Run | undefined;
  /** The CLI's text that no run took (a file of text alone, text after the last result); then forgotten. */
  unclaimed(): AgentSaid | undefined;
}

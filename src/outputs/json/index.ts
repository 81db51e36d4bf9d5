import type { Reporter } from "../../diagnostics.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import { dialectOf, forcedDialect } from "../../dialects/index.js";
import { drive, type RunSink } from "../../driver/driver.js";
import { reportSaid } from "../../driver/report.js";
import type { JsonObject, JsonRecord } from "../../input/record.js";
import type { Run, Step } from "../../model/run.js";
import { RunText } from "../../model/text.js";
import type { Stage } from "../../stream/stage.js";
import { shortenToolCalls, skipCompletionBodies } from "../../input/raw-skip.js";
import { escapeJsonForTerminal } from "../../sanitize.js";
import { colorizeJson } from "./colorize.js";
import { member, parseRaw, RawObject, stringifyRaw, type RawValue } from "./raw-value.js";

export interface ResultJsonOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  pretty: boolean;
  allowIncomplete: boolean;
  /** jq's colours (a terminal, or --color always). */
  colors?: boolean;
  /** Standard output is a terminal: controls, C1 and bidi characters written as \uXXXX (the same JSON). */
  escape?: boolean;
  /** `-H`: each object ends with a member `"file"`, the input it came from (see withFileMember). */
  fileNames?: boolean;
}

/** Key order of `cursor-agent --print --output-format json` (the stream's result line differs). */
const KEY_ORDER = cursorDialect.jsonKeyOrder!;

/** The result object as cursor-agent's `--output-format json` prints it: known keys first, then the rest, values untouched. */
export function toJsonResult(result: JsonObject): JsonObject {
  const out: JsonObject = {};
  // Defined, not assigned: a `__proto__` key of the result line is data, as JSON.parse made it.
  const copy = (k: string) => Object.defineProperty(out, k, { value: result[k], enumerable: true, writable: true, configurable: true });
  for (const k of KEY_ORDER) if (Object.hasOwn(result, k)) copy(k);
  for (const k of Object.keys(result)) if (!Object.hasOwn(out, k)) copy(k);
  return out;
}

/**
 * The result line as `--output-format json` prints it, from the line's text: known keys first,
 * then the rest in the order written, every value as written (numbers keep their spelling:
 * `1e400`, `12345678901234567890`, `1.0`, `-0`; strings their escapes). A repeated key keeps its
 * first place and its last value (JSON.parse's and jq's rule).
 */
export function rawJsonResult(text: string, pretty: boolean, order: readonly string[] = KEY_ORDER): string {
  const result = parseRaw(text);
  if (!(result instanceof RawObject)) throw new TypeError("a result line is an object");
  const out = new RawObject();
  for (const k of order) {
    const m = result.members.get(k);
    if (m !== undefined) out.members.set(k, m);
  }
  for (const [k, m] of result.members) if (!out.members.has(k)) out.members.set(k, m);
  return stringifyRaw(out, pretty);
}

/**
 * `-H` for an object: `"file": NAME` as its last member (JSON text of an object that has members,
 * compact or indented as stringifyRaw writes it). Last, so that `.file` in jq is ours even for a
 * result line that had a `file` of its own (cursor-agent's have none): that one is kept, before it.
 */
export function withFileMember(text: string, file: string, pretty: boolean): string {
  const value = JSON.stringify(file);
  return pretty ? `${text.slice(0, -2)},\n  "file": ${value}\n}` : `${text.slice(0, -1)},"file":${value}}`;
}

/** Open calls json keeps per run (the rest are counted): see ReaderOptions.maxOpen. */
export const MAX_OPEN_KEPT = 1000;

/**
 * `cursorlog json`: for each run, the object `--output-format json` would have printed, written
 * as soon as the run's result arrives. A run without a result is reported on stderr (exit 4), or
 * with `allowIncomplete` printed as a synthesized, clearly marked object.
 */
export function toResultJson(opts: ResultJsonOptions, reporter: Reporter): Stage {
  /** The run's text (a synthesized object's `result`). */
  let text = new RunText();
  /** The run's session id as the line that gave it wrote it (a synthesized object repeats it so). */
  let sessionIdText: string | undefined;

  /** The synthesized object of a run cut off (--allow-incomplete). */
  function incomplete(run: Run): string {
    // Computed values are written as JSON.stringify writes them; the session id as it was written.
    const o = new RawObject();
    const set = (k: string, v: RawValue) => o.members.set(k, { keyText: JSON.stringify(k), value: v });
    set("type", '"result"');
    set("subtype", '"incomplete"');
    set("is_error", "true"); // as written: the key of the CLI's result object, which this one stands in for
    // The run's span: model/run.ts is the rule for its start and end.
    if (run.start !== undefined && run.end !== undefined) set("duration_ms", JSON.stringify(run.end.ms - run.start.ms));
    set("result", JSON.stringify(text.text()));
    if (run.sessionId !== undefined) set("session_id", sessionIdText ?? JSON.stringify(run.sessionId)); // as written: the CLI's result key
    const where: JsonObject = { file: run.file, first_line: run.startLine, last_line: run.lastLine, open_tool_calls: run.openCount };
    // Why the run failed, in the agent CLI's words (its stderr merged into the log), quoted whole.
    if (run.said !== undefined) {
      where.agent_message = run.said.text;
      where.agent_message_line = run.said.line;
    }
    set("incomplete", parseRaw(JSON.stringify(where)));
    return paint(named(stringifyRaw(o, opts.pretty), run.file)) + "\n";
  }

  const named = (text: string, file: string): string => (opts.fileNames === true ? withFileMember(text, file, opts.pretty) : text);

  const paint = (text: string): string => {
    const json = opts.escape === true ? escapeJsonForTerminal(text) : text;
    return opts.colors === true ? colorizeJson(json) : json;
  };

  const sink: RunSink = {
    runEnd(run: Run) {
      const result = run.result;
      if (result !== undefined) {
        // The CLI's text in a run that ended is a warning (the driver tells a failed run first).
        if (run.said !== undefined) reportSaid(reporter, run.file, run.said);
        // The object the dialect built in cursor-agent's key set (Gemini CLI's), else the agent CLI's
        // json object: its dialect's key order, or the result line as written.
        const built = run.resultObject;
        if (built !== undefined) return paint(named(stringifyRaw(parseRaw(JSON.stringify(built)), opts.pretty), result.file)) + "\n";
        return paint(named(rawJsonResult(result.text, opts.pretty, dialectOf(run.agent)?.jsonKeyOrder ?? []), result.file)) + "\n";
      }
      // Cut off: told by the driver (exit 4), or with --allow-incomplete this object, which quotes the CLI's text.
      return opts.allowIncomplete && run.outcome === "cut-off" ? incomplete(run) : undefined;
    },
  };
  if (opts.allowIncomplete) {
    sink.runStart = () => {
      text = new RunText();
      sessionIdText = undefined;
      return undefined;
    };
    sink.line = (rec: JsonRecord, step: Step) => {
      text.observe(step);
      // The first line that names the run's session gave it its id: as written there (a skipped line, a stand-in, never does).
      if (sessionIdText === undefined && step.run.sessionId !== undefined && rec.text !== "") {
        // As the log spelled it, in the member its agent writes it in (Run.words: `session_id`, Codex's `thread_id`).
        const v = member(parseRaw(rec.text), step.run.words.sessionId);
        if (typeof v === "string" && JSON.parse(v) === step.run.sessionId) sessionIdText = v;
      }
      return undefined;
    };
  }

  return drive(sink, reporter, {
    dialect: forcedDialect(opts.agent),
    // Open calls only make a count and the first few names of the message: memory stays bounded.
    reader: { maxOpen: MAX_OPEN_KEPT },
    cutOff: opts.allowIncomplete ? "quiet" : "error",
    // The CLI's text: in a run cut off, the cut-off message or the synthesized object quotes it; in a run that ended, runEnd tells it.
    said: false,
    warnings: true,
    // Thinking and the prompt never matter here; a synthesized result needs assistant text and timestamps.
    // A completion only closes its call here: its result body is never parsed.
    // A started call is read for the open-calls message: its label and target.
    // (cursor-agent's tool_call completions; a dialect whose calls are in other lines skips by its own rule.)
    skip: (d) => {
      const unread = d.skipUnread({ thinking: opts.allowIncomplete, text: opts.allowIncomplete });
      return d === cursorDialect ? shortenToolCalls(skipCompletionBodies(unread), d.fieldsRead) : unread;
    },
  });
}

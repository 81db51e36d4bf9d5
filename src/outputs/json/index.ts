import type { Reporter } from "../../diagnostics.js";
import { AssistantText } from "../../dialects/cursor/assistant-text.js";
import { openCount, SessionTracker, type Session } from "../../dialects/cursor/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonObject, JsonRecord, Problem } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { shortenToolCalls, skipCompletionBodies, skipTypes } from "../../input/raw-skip.js";
import { FIELDS_READ } from "../../dialects/cursor/action.js";
import { reportFileEnd, reportFinished, reportIncomplete } from "../shared/incomplete.js";
import { escapeJsonForTerminal } from "../../sanitize.js";
import { colorizeJson } from "./colorize.js";
import { member, parseRaw, RawObject, stringifyRaw, type RawValue } from "./raw-value.js";

export interface ResultJsonOptions {
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
const KEY_ORDER = ["type", "subtype", "is_error", "duration_ms", "duration_api_ms", "result", "session_id", "request_id", "usage"];

/** The result object as `--output-format json` prints it: known keys first, then the rest, values untouched. */
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
export function rawJsonResult(text: string, pretty: boolean): string {
  const result = parseRaw(text);
  if (!(result instanceof RawObject)) throw new TypeError("a result line is an object");
  const out = new RawObject();
  for (const k of KEY_ORDER) {
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

/** Open calls json keeps per session (the rest are counted): see TrackerOptions.maxOpen. */
export const MAX_OPEN_KEPT = 1000;

interface Span {
  first?: number;
  last?: number;
}

/**
 * `cursorlog json`: for each session, the object `--output-format json` would have printed,
 * written as soon as the session's result arrives. A session without a result is reported on
 * stderr (exit 4), or with `allowIncomplete` printed as a synthesized, clearly marked object.
 */
export function toResultJson(opts: ResultJsonOptions, reporter: Reporter): Stage {
  // Open calls only make a count and the first few names of the message: memory stays bounded.
  const tracker = new SessionTracker({ maxOpen: MAX_OPEN_KEPT });
  /** The current session's session_id as the line that gave it wrote it. */
  let sessionIdText: string | undefined;
  let text = new AssistantText();
  let span: Span = {};

  function ended(s: Session | undefined): string | undefined {
    if (s === undefined || s.result !== undefined) return undefined;
    if (!opts.allowIncomplete) {
      reportIncomplete(reporter, s);
      return undefined;
    }
    // Computed values are written as JSON.stringify writes them; the session id as it was written.
    const o = new RawObject();
    const set = (k: string, v: RawValue) => o.members.set(k, { keyText: JSON.stringify(k), value: v });
    set("type", '"result"');
    set("subtype", '"incomplete"');
    set("is_error", "true");
    if (span.first !== undefined && span.last !== undefined) set("duration_ms", JSON.stringify(span.last - span.first));
    set("result", JSON.stringify(text.text()));
    if (s.sessionId !== undefined) set("session_id", sessionIdText ?? JSON.stringify(s.sessionId));
    const where: JsonObject = { file: s.file, first_line: s.startLine, last_line: s.lastLine, open_tool_calls: openCount(s) };
    // Why the run failed, in the agent CLI's words (its stderr merged into the log), quoted whole.
    if (s.said !== undefined) {
      where.agent_message = s.said.text;
      where.agent_message_line = s.said.line;
    }
    set("incomplete", parseRaw(JSON.stringify(where)));
    return paint(named(stringifyRaw(o, opts.pretty), s.file)) + "\n";
  }

  const named = (text: string, file: string): string => (opts.fileNames === true ? withFileMember(text, file, opts.pretty) : text);

  const paint = (text: string): string => {
    const json = opts.escape === true ? escapeJsonForTerminal(text) : text;
    return opts.colors === true ? colorizeJson(json) : json;
  };

  return {
    // Thinking and the prompt never matter here; a synthesized result needs assistant text and timestamps.
    // A completion only closes its call here: its result body is never parsed.
    // A started call is read for the open-calls message: its label and target.
    skip: shortenToolCalls(skipCompletionBodies(skipTypes(opts.allowIncomplete ? ["user"] : ["thinking", "user", "assistant"])), FIELDS_READ),
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      let out = step.ended ? ended(step.ended) : undefined;
      if (step.ended) {
        text = new AssistantText();
        span = {};
        sessionIdText = undefined;
      }
      const ev = rec.value;
      if (opts.allowIncomplete) {
        // The first line with a session_id gave the session its id (a skipped line, a stand-in, never does).
        if (sessionIdText === undefined && typeof ev.session_id === "string" && ev.session_id === step.session.sessionId && rec.text !== "") {
          const v = member(parseRaw(rec.text), "session_id");
          if (typeof v === "string") sessionIdText = v;
        }
        text.observe(ev);
        if (typeof ev.timestamp_ms === "number") {
          span.first ??= ev.timestamp_ms;
          span.last = ev.timestamp_ms;
        }
      }
      if (step.session.result === rec) {
        reportFinished(reporter, step.session);
        out = (out ?? "") + paint(named(rawJsonResult(rec.text, opts.pretty), rec.file)) + "\n";
      }
      return out;
    },
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      return undefined;
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const last = tracker.endFile(lastLine);
      const out = ended(last);
      reportFileEnd(reporter, file, last, tracker.unclaimed(), unreadable);
      text = new AssistantText();
      span = {};
      sessionIdText = undefined;
      return out;
    },
  };
}

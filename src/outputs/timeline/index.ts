import type { Reporter } from "../../diagnostics.js";
import { SessionTracker, type CompletedCall, type OpenCall, type Session } from "../../events/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls, skipTypes } from "../../input/raw-skip.js";
import { FIELDS_READ } from "../../events/action.js";
import type { JsonRecord } from "../../input/record.js";
import { joinPieces, type Stage } from "../../stream/stage.js";
import { incompleteMessage } from "../shared/incomplete.js";
import { isoTimeFormatter } from "../shared/iso-time.js";
import { StartOrderQueue } from "./start-order-queue.js";
import { timelineCells } from "./cells.js";
import { timelineLines, type TimelineLineOptions } from "./lines.js";

export interface TimelineOptions extends TimelineLineOptions {
  /** Write the header line first (CSV, TSV). */
  header: boolean;
  /** A session without a result is not an error (its open calls are `incomplete` rows either way). */
  allowIncomplete: boolean;
}

/**
 * `cursorlog timeline`: one row per tool call, in the order the calls started. A row is written as
 * soon as it and every call started before it in its session have completed, so memory holds only
 * the rows behind a call still running, and a live pipe shows rows as the run proceeds. Calls still
 * open when their session ends (its result, the next session, the end of the file) are written
 * then with status `incomplete`. The header is written once, before anything else.
 */
export function toTimelineCsv(opts: TimelineOptions, reporter: Reporter): Stage {
  const lines = timelineLines(opts);
  const tracker = new SessionTracker();
  const queue = new StartOrderQueue<OpenCall>();
  const iso = isoTimeFormatter();
  let header = opts.header ? lines.header : "";

  function takeHeader(): string {
    const h = header;
    header = "";
    return h;
  }

  function completed(s: Session, done: CompletedCall): string {
    const start = done.started;
    const render = (seq: number) =>
      lines.line(timelineCells({ sessionId: s.sessionId, callId: done.callId, seq, call: done.call, file: s.file, start, end: done.rec }, iso));
    return start === undefined ? queue.completeUnstarted(render) : queue.complete(start, render);
  }

  /** The session's rows still held, as pieces (a million open calls are never one string). */
  function flush(s: Session): string | Iterable<string> {
    return queue.end((open, seq) =>
      lines.line(timelineCells({ sessionId: s.sessionId, callId: open.callId, seq, call: open, file: s.file, start: open, end: undefined }, iso)),
    );
  }

  function ended(s: Session | undefined): Iterable<string> | string {
    if (s === undefined) return "";
    const out = flush(s);
    if (s.result === undefined && !opts.allowIncomplete) {
      reporter.report({ severity: "error", file: s.file, line: s.lastLine, message: incompleteMessage(s), code: ExitCode.INCOMPLETE });
    }
    return out;
  }

  return {
    // Only tool calls, inits and results matter; skipped lines still reach the tracker as {type} stubs,
    // and of a tool call only what the cells read is parsed in full.
    skip: shortenToolCalls(skipTypes(["thinking", "user", "assistant"]), FIELDS_READ),
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      const out: Array<string | Iterable<string>> = [header === "" ? "" : takeHeader()];
      if (step.ended) out.push(ended(step.ended));
      if (rec.value.type === "tool_call") {
        if (step.started) queue.start(step.started);
        else if (step.completed) out.push(completed(step.session, step.completed));
      } else if (step.session.result === rec) {
        // After its result a session completes nothing more: write every row it still holds.
        if (rec.value.is_error === true) reporter.raise(ExitCode.NEGATIVE);
        out.push(flush(step.session));
      }
      const text = joinPieces(out);
      return text === "" ? undefined : text;
    },
    fileEnd(_file: string, lastLine: number) {
      const text = joinPieces([takeHeader(), ended(tracker.endFile(lastLine))]);
      return text === "" ? undefined : text;
    },
    finish() {
      const out = takeHeader();
      return out === "" ? undefined : out;
    },
  };
}

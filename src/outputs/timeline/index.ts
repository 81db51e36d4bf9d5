import type { Reporter } from "../../diagnostics.js";
import { SessionTracker, type CompletedCall, type OpenCall, type Session } from "../../dialects/cursor/sessions.js";
import { BackgroundTasks, isTaskNotification, type BackgroundEnd } from "../../dialects/cursor/background.js";
import { ExitCode } from "../../exit-codes.js";
import { shortenToolCalls, skipTypes } from "../../input/raw-skip.js";
import { FIELDS_READ } from "../../dialects/cursor/action.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import { joinPieces, type Stage } from "../../stream/stage.js";
import { reportFileEnd, reportFinished, reportIncomplete } from "../shared/incomplete.js";
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
 * then with status `incomplete`. A background shell counts as running until its task_notification
 * (background_end, background_ms) or its session's end. The header is written once, first.
 */
export function toTimelineCsv(opts: TimelineOptions, reporter: Reporter): Stage {
  const lines = timelineLines(opts);
  // The tracker numbers completions without a start too: an open call's seq is its place in the queue.
  const tracker = new SessionTracker({ numberUnstarted: true });
  const queue = new StartOrderQueue<OpenCall>();
  const iso = isoTimeFormatter();
  let header = opts.header ? lines.header : "";

  function takeHeader(): string {
    const h = header;
    header = "";
    return h;
  }

  /** Background shells of the session; their rows wait for their end (task_notification) or the session's. */
  const background = new BackgroundTasks();
  const waiting = new Map<string, CompletedCall>();
  const waitingByStart = new Map<OpenCall, CompletedCall>();

  function render(s: Session, done: CompletedCall, seq: number, end?: BackgroundEnd): string {
    const cells = { sessionId: s.sessionId, callId: done.callId, seq, call: done.call, file: s.file, start: done.started, end: done.rec };
    return lines.line(timelineCells(end === undefined ? cells : { ...cells, background: end }, iso));
  }

  function completed(s: Session, done: CompletedCall): string {
    const start = done.started;
    const task = background.completed(done);
    if (task !== undefined && start !== undefined) {
      // Its row keeps its place until the task ends: the rows after it wait, as behind a running call.
      waiting.set(task.taskId, done);
      waitingByStart.set(start, done);
      return "";
    }
    return start === undefined ? queue.completeUnstarted((seq) => render(s, done, seq)) : queue.complete(start.seq, (seq) => render(s, done, seq));
  }

  function notified(s: Session, rec: JsonRecord): string {
    const end = background.notified(rec);
    const done = end?.task === undefined ? undefined : waiting.get(end.taskId);
    if (end === undefined || done?.started === undefined) return "";
    waiting.delete(end.taskId);
    waitingByStart.delete(done.started);
    return queue.complete(done.started.seq, (seq) => render(s, done, seq, end));
  }

  /** The session's rows still held, as pieces (a million open calls are never one string). */
  function flush(s: Session): string | Iterable<string> {
    // The rows render lazily (pieces): the background shells still waiting are handed over, not cleared.
    const held = waitingByStart.size === 0 ? undefined : new Map(waitingByStart);
    waiting.clear();
    waitingByStart.clear();
    background.endSession();
    return queue.end((open, seq) => {
      const done = held?.get(open);
      if (done !== undefined) return render(s, done, seq);
      return lines.line(timelineCells({ sessionId: s.sessionId, callId: open.callId, seq, call: open, file: s.file, start: open, end: undefined }, iso));
    });
  }

  function ended(s: Session | undefined): Iterable<string> | string {
    if (s === undefined) return "";
    const out = flush(s);
    if (s.result === undefined && !opts.allowIncomplete) {
      reportIncomplete(reporter, s);
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
      } else if (isTaskNotification(rec.value)) {
        out.push(notified(step.session, rec));
      } else if (step.session.result === rec) {
        // After its result a session completes nothing more: write every row it still holds.
        reportFinished(reporter, step.session);
        out.push(flush(step.session));
      }
      const text = joinPieces(out);
      return text === "" ? undefined : text;
    },
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      return undefined;
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const last = tracker.endFile(lastLine);
      const text = joinPieces([takeHeader(), ended(last)]);
      reportFileEnd(reporter, file, last, tracker.unclaimed(), unreadable);
      return text === "" ? undefined : text;
    },
    finish() {
      const out = takeHeader();
      return out === "" ? undefined : out;
    },
  };
}

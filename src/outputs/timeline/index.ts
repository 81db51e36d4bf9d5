import type { Reporter } from "../../diagnostics.js";
import { dialectOf, forcedDialect } from "../../dialects/index.js";
import { drive, type Out } from "../../driver/driver.js";
import { shortenToolCalls } from "../../input/raw-skip.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";
import { joinPieces, type Stage } from "../../stream/stage.js";
import { isoTimeFormatter } from "../shared/iso-time.js";
import { StartOrderQueue } from "./start-order-queue.js";
import { timelineCells } from "./cells.js";
import { timelineLines, type TimelineLineOptions } from "./lines.js";

export interface TimelineOptions extends TimelineLineOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  /** Write the header line first (CSV, TSV). */
  header: boolean;
  /** A session without a result is not an error (its open calls are `incomplete` rows either way). */
  allowIncomplete: boolean;
}

/** The queue's key of every call still running: one object for all (a place is found by its seq). */
const RUNNING = {};

/**
 * `cursorlog timeline`: one row per tool call, in the order the calls started. A row is written as
 * soon as it and every call started before it in its session have completed, so memory holds only
 * the rows behind a call still running, and a live pipe shows rows as the run proceeds. Calls still
 * open when their session ends (its result, the next session, the end of the file) are written
 * then with status `incomplete`. A call that runs on in the background (Call.backgroundTask)
 * counts as running until its task's end (background_end, background_ms) or its session's end.
 * The header is written once, first. Every fact comes from the run model (the driver hands it).
 *
 * A run's lines may go on after its result (Dialect.linesAfterResult, Claude Code's: a subagent's
 * calls answered, a background task's end; the driver tells them in the run after its runEnd). Such
 * a run that ends with its result while a subagent's call is open (Call.parentId) or a background
 * task runs keeps its rows until the next run begins or its file ends, so that what those lines
 * tell reaches its rows; any other run's rows are all written at its end.
 */
export function toTimelineCsv(opts: TimelineOptions, reporter: Reporter): Stage {
  const lines = timelineLines(opts);
  const queue = new StartOrderQueue<object>();
  const iso = isoTimeFormatter();
  let header = opts.header ? lines.header : "";
  /** Calls of the run that completed and run on in the background, by seq: their rows wait for the task's end. */
  let waiting = new Map<number, Call>();
  /** The run's subagent calls (Call.parentId) still open: lines after its result may complete them. */
  let subagentOpen = 0;
  /** A run past its result whose rows wait for the lines after it (see above). */
  let held: Run | undefined;

  /** `out`, after the header when it is not written yet. */
  function emit(out: string | Iterable<string>): Out {
    if (header !== "") {
      out = joinPieces([header, out]);
      header = "";
    }
    return out === "" ? undefined : out;
  }

  function render(call: Call, run: Run, seq: number, end?: BackgroundEnd): string {
    return lines.line(timelineCells(call, run, seq, iso, end));
  }

  /** The run's rows still held, as pieces (a million open calls are never one string). */
  function flush(run: Run): string | Iterable<string> {
    // The rows render lazily (pieces): the calls still waiting are handed over, not cleared.
    const rest = waiting;
    waiting = new Map();
    subagentOpen = 0;
    // The queue's running places and the run's open calls are both in start order: one walk of each.
    const open = (run.eachOpenCall?.() ?? run.openCalls())[Symbol.iterator]();
    return queue.end((_key, seq) => {
      const done = rest.get(seq);
      if (done !== undefined) return render(done, run, seq);
      for (let next = open.next(); !next.done; next = open.next()) {
        if (next.value.seq === seq) return render(next.value, run, seq);
      }
      return "";
    });
  }

  /** The rows of the run held past its result, now that no line of it can follow. */
  function release(): string | Iterable<string> {
    const run = held;
    if (run === undefined) return "";
    held = undefined;
    return flush(run);
  }

  return drive(
    {
      runStart: () => emit(release()),
      callStarted(call: Call) {
        queue.start(RUNNING);
        if (call.parentId !== undefined) subagentOpen++;
        return undefined;
      },
      callDone(call: Call, run: Run) {
        if (call.parentId !== undefined && call.startLine !== undefined && subagentOpen > 0) subagentOpen--;
        if (call.startLine === undefined) return emit(queue.completeUnstarted((seq) => render(call, run, seq)));
        if (call.backgroundTask !== undefined) {
          // Its row keeps its place until the task ends: the rows after it wait, as behind a running call.
          waiting.set(call.seq, call);
          return undefined;
        }
        return emit(queue.complete(call.seq, (seq) => render(call, run, seq)));
      },
      backgroundEnd(end: BackgroundEnd, run: Run) {
        const call = end.call;
        if (call === undefined || waiting.get(call.seq) !== call) return undefined;
        waiting.delete(call.seq);
        return emit(queue.complete(call.seq, (seq) => render(call, run, seq, end)));
      },
      // After its result (or its cut-off) a run completes nothing more, unless lines after its
      // result may still tell of it: every row it still holds, or, for such a run, later.
      runEnd(run: Run) {
        if (run.result !== undefined && (waiting.size > 0 || subagentOpen > 0) && dialectOf(run.agent)?.linesAfterResult === true) {
          held = run;
          return undefined;
        }
        return emit(flush(run));
      },
      fileEnd: () => emit(release()),
      finish: () => emit(release()),
    },
    reporter,
    {
      dialect: forcedDialect(opts.agent),
      // A completion without a start takes the next seq, as its row's number (the queue's too).
      reader: { numberUnstarted: true },
      cutOff: opts.allowIncomplete ? "accepted" : "error",
      warnings: true,
      // Only tool calls, inits and results matter; skipped lines still reach the reader as {type}
      // stubs, and of a tool call only what the cells read is parsed in full.
      skip: (d) => shortenToolCalls(d.skipUnread({}), d.fieldsRead),
    },
  );
}

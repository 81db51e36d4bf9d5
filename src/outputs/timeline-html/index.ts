import type { Reporter } from "../../diagnostics.js";
import { dialectOf, forcedDialect } from "../../dialects/index.js";
import { drive } from "../../driver/driver.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";
import type { Stage } from "../../stream/stage.js";
import { isoTimeFormatter } from "../shared/iso-time.js";
import { timelineHtmlPage } from "./page.js";
import { backgroundEndHtml, callHtml, finishHtmlSession, startHtmlSession, type HtmlSessionAcc } from "./session.js";
import type { HtmlSession } from "./types.js";

export interface TimelineHtmlOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  /** A session without a result is not an error (its open calls are drawn as incomplete either way). */
  allowIncomplete: boolean;
}

/**
 * `cursorlog timeline --format html`: one self-contained page for the whole run, a Gantt chart of
 * each session's tool calls. A chart needs the whole picture, so unlike csv this stage writes
 * nothing until the input ends: it holds one small record per tool call (the few fields drawn,
 * capped) and each session's run (the model's summary), never events. Every line is read: every
 * line's time widens its run's start and end (the axis), and the user's message is its prompt.
 */
export function toTimelineHtml(opts: TimelineHtmlOptions, reporter: Reporter): Stage {
  const iso = isoTimeFormatter();
  /** Sessions over, laid out when the page is written (a long layout pauses there for signals). */
  const closed: (HtmlSessionAcc | undefined)[] = [];
  let acc: HtmlSessionAcc | undefined;
  /**
   * A run that ended with its result but whose lines may go on after it (Dialect.linesAfterResult:
   * Claude Code's background task ends, a subagent's last calls): kept open until the next run
   * begins or its file ends, so that what they tell is drawn.
   */
  let after: HtmlSessionAcc | undefined;

  function* page(): Generator<string> {
    const sessions: HtmlSession[] = [];
    for (let i = 0; i < closed.length; i++) {
      sessions.push(yield* finishHtmlSession(closed[i]!, iso));
      closed[i] = undefined; // its call records, now laid out, can go
    }
    yield* timelineHtmlPage({ sessions });
  }

  /** The session is over: keep its page data. */
  function close(a: HtmlSessionAcc): void {
    // A call still open is drawn as the run's open calls tell it (what its start kept), as
    // every command tells it (show, the cut-off message), not as its start line wrote it.
    for (const c of a.run.eachOpenCall?.() ?? a.run.openCalls()) callHtml(a, c);
    closed.push(a);
  }

  function closeAfter(): undefined {
    if (after !== undefined) close(after);
    after = undefined;
    return undefined;
  }

  /** The session a call of `run` belongs to. */
  const accOf = (run: Run): HtmlSessionAcc | undefined => (acc?.run === run ? acc : after?.run === run ? after : undefined);

  return drive(
    {
      runStart(run: Run) {
        closeAfter();
        acc = startHtmlSession(run);
        return undefined;
      },
      callStarted(call: Call, run: Run) {
        const a = accOf(run);
        if (a !== undefined) callHtml(a, call);
        return undefined;
      },
      callDone(call: Call, run: Run) {
        const a = accOf(run);
        if (a !== undefined) callHtml(a, call);
        return undefined;
      },
      backgroundEnd(end: BackgroundEnd, run: Run) {
        const a = accOf(run);
        if (a !== undefined) backgroundEndHtml(a, end);
        return undefined;
      },
      // The session is over (its result, the next session, the end of its file): keep its page data.
      runEnd(run: Run) {
        if (acc !== undefined && acc.run === run) {
          if (run.result !== undefined && dialectOf(run.agent)?.linesAfterResult === true) after = acc;
          else close(acc);
        }
        acc = undefined;
        return undefined;
      },
      fileEnd: () => closeAfter(),
      finish() {
        closeAfter();
        return page();
      },
    },
    reporter,
    {
      dialect: forcedDialect(opts.agent),
      // A completion without a start takes the next seq: a run's calls are numbered without gaps.
      reader: { numberUnstarted: true },
      cutOff: opts.allowIncomplete ? "accepted" : "error",
      warnings: true,
    },
  );
}

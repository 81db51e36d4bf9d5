import type { Reporter } from "../../diagnostics.js";
import { forcedDialect } from "../../dialects/index.js";
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

  function* page(): Generator<string> {
    const sessions: HtmlSession[] = [];
    for (let i = 0; i < closed.length; i++) {
      sessions.push(yield* finishHtmlSession(closed[i]!, iso));
      closed[i] = undefined; // its call records, now laid out, can go
    }
    yield* timelineHtmlPage({ sessions });
  }

  return drive(
    {
      runStart(run: Run) {
        acc = startHtmlSession(run);
        return undefined;
      },
      callStarted(call: Call) {
        if (acc !== undefined) callHtml(acc, call);
        return undefined;
      },
      callDone(call: Call) {
        if (acc !== undefined) callHtml(acc, call);
        return undefined;
      },
      backgroundEnd(end: BackgroundEnd) {
        if (acc !== undefined) backgroundEndHtml(acc, end);
        return undefined;
      },
      // The session is over (its result, the next session, the end of its file): keep its page data.
      runEnd(run: Run) {
        if (acc !== undefined && acc.run === run) {
          // A call still open is drawn as the run's open calls tell it (what its start kept), as
          // every command tells it (show, the cut-off message), not as its start line wrote it.
          for (const c of run.eachOpenCall?.() ?? run.openCalls()) callHtml(acc, c);
          closed.push(acc);
        }
        acc = undefined;
        return undefined;
      },
      finish: () => page(),
    },
    reporter,
    {
      dialect: forcedDialect(opts.agent),
      // A completion without a start takes the next seq: a run's calls are numbered without gaps.
      reader: { numberUnstarted: true },
      cutOff: opts.allowIncomplete ? "accepted" : "error",
    },
  );
}

import type { Reporter } from "../../diagnostics.js";
import { SessionTracker, type Session } from "../../dialects/cursor/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { reportFileEnd, reportFinished, reportIncomplete } from "../shared/incomplete.js";
import { isoTimeFormatter } from "../shared/iso-time.js";
import { timelineHtmlPage } from "./page.js";
import { finishHtmlSession, observeHtml, startHtmlSession, type HtmlSessionAcc } from "./session.js";
import type { HtmlSession } from "./types.js";

export interface TimelineHtmlOptions {
  /** A session without a result is not an error (its open calls are drawn as incomplete either way). */
  allowIncomplete: boolean;
}

/**
 * `cursorlog timeline --format html`: one self-contained page for the whole run, a Gantt chart of
 * each session's tool calls. A chart needs the whole picture, so unlike csv this stage writes
 * nothing until the input ends: it holds one small record per tool call (the few fields drawn,
 * capped) and one summary per session, never events. Every line is read: thinking and assistant
 * events carry the times that start a session's axis, and the user event its prompt.
 */
export function toTimelineHtml(opts: TimelineHtmlOptions, reporter: Reporter): Stage {
  const tracker = new SessionTracker();
  const iso = isoTimeFormatter();
  /** Sessions over, laid out when the page is written (a long layout pauses there for signals). */
  const closed: (HtmlSessionAcc | undefined)[] = [];
  let acc: HtmlSessionAcc | undefined;

  /** The session is over (its result, the next session, the end of its file): keep its page data. */
  function close(s: Session): void {
    if (acc === undefined || acc.session !== s) return;
    acc.running.clear();
    closed.push(acc);
    acc = undefined;
  }

  function* page(): Generator<string> {
    const sessions: HtmlSession[] = [];
    for (let i = 0; i < closed.length; i++) {
      sessions.push(yield* finishHtmlSession(closed[i]!, iso));
      closed[i] = undefined; // its call records, now laid out, can go
    }
    yield* timelineHtmlPage({ sessions });
  }

  function ended(s: Session | undefined): void {
    if (s === undefined) return;
    close(s);
    if (s.result === undefined && !opts.allowIncomplete) {
      reportIncomplete(reporter, s);
    }
  }

  return {
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      if (step.ended) ended(step.ended);
      if (acc === undefined) acc = startHtmlSession(step.session);
      observeHtml(acc, step, rec);
      if (step.session.result === rec) {
        reportFinished(reporter, step.session);
        close(step.session);
      }
      return undefined;
    },
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      return undefined;
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const last = tracker.endFile(lastLine);
      ended(last);
      reportFileEnd(reporter, file, last, tracker.unclaimed(), unreadable);
      return undefined;
    },
    finish() {
      return page();
    },
  };
}

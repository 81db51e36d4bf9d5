/**
 * The data `cursorlog timeline --format html` embeds in its page: one small record per tool call
 * and one summary per session, nothing else from the log. Built by session.ts, drawn
 * by the page's inline script (script.ts). Strings are display-safe (control and bidi
 * characters shown escaped) and capped; the page inserts them with textContent only.
 */

/** How a bar is coloured: the model's status bin, its failed bin split in two (status.ts). */
export type HtmlStatusClass = "success" | "failure" | "refused" | "error" | "incomplete" | "none";

/** One tool call, placed on its session's axis. */
export interface HtmlCall {
  /** As the csv `seq` column: place in start order, from 1. */
  seq: number;
  /** The call's id as logged (capped at ID_MAX characters). */
  id: string;
  lane: number;
  kind: string;
  action: string;
  /** Paths relative to the session's cwd where they lie inside it. */
  target: string;
  /** Only when the target ends with a path (the table cuts it in its middle, keeping the file name). */
  path?: true;
  /**
   * As the csv `status`: the agent's word for the outcome, as written, else the model's (ok, failed:
   * Claude Code writes none); "" when the completion has none; "incomplete" for a call still open at the end.
   */
  status: string;
  cls: HtmlStatusClass;
  /** Where the bar starts and ends on the axis: ms since the session's start, or call units without times. */
  x0: number;
  x1: number;
  /** The csv `duration_ms`: only from two values of one clock, else null. */
  ms: number | null;
  exit: number | null;
  /** A completed call whose start or end time is not in the log (drawn dashed; `missing` says which). */
  approx: boolean;
  /**
   * Only on approx calls: "start" (drawn at its completion time, as the csv's completed_at), "end"
   * (drawn from its start with the least width), "both" (drawn at the start of the call before it).
   */
  missing?: "start" | "end" | "both";
  /** Line of the started event (of the completion for a call without one). */
  line: number;
  /** A call that ran on in the background, whose task's end the log has: where it ended on the axis, and the time from the call's start. */
  bg?: number;
  bgMs?: number | null;
  /** A subagent's call: the seq of the task call that started the subagent, in this session. */
  parent?: number;
}

export interface HtmlSession {
  index: number;
  file: string;
  firstLine: number;
  lastLine: number;
  sessionId: string | null;
  model: string | null;
  /** The run's folder (init's cwd), escaped and capped; null when not logged. Targets are relative to it. */
  cwd: string | null;
  /** The prompt's first non-blank line, capped. */
  prompt: string | null;
  /** ISO-8601 UTC of the axis origin (the session's first logged time); null without times. */
  startedAt: string | null;
  /** Wall time: the run's duration as its result states it (Run.statedDurationMs), else the axis's span; null when neither is known. */
  durationMs: number | null;
  durationSource: "result" | "timestamps" | null;
  /** The run's outcome (model/run.ts): finished; error (failed: its result says so); cut_off (no result). */
  outcome: "finished" | "error" | "cut_off";
  /** The agent's own words (model/run.ts AgentWords): how its log says a run failed, the result's duration field, the line that ends a background task; null where its format has none. */
  words: { failed: string; duration: string | null; taskEnd: string | null };
  resultSubtype: string | null;
  /** The agent CLI's own message in the session (its own text merged into the log), escaped and capped; null when none. */
  agentMessage: string | null;
  /**
   * "time": x0/x1 are ms since startedAt; "sequence": the log gives no time at all (no call's, no
   * line's): no chart is drawn, the calls are listed in start order (x0/x1 are seq - 1 and seq, one lane).
   */
  axis: "time" | "sequence";
  /** Length of the axis (ms, or units). */
  span: number;
  lanes: number;
  /** Calls per status ("" = no result), in legend order, then most frequent first. */
  byStatus: Array<[status: string, count: number]>;
  calls: HtmlCall[];
}

export interface HtmlRun {
  sessions: HtmlSession[];
}

import type { CallView, Mark } from "./call-view.js";

/** A session's header: what the log says of it. Strings are raw log text: renderers escape. */
export interface SessionHead {
  index: number;
  file: string;
  line: number;
  /** The agent whose log it is (model/run.ts AgentId); the text and Markdown headers do not show it. */
  agent?: string;
  sessionId?: string;
  model?: string;
  cwd?: string;
  /** ISO time of the first timestamp in the session. */
  started?: string;
}

export interface SessionFoot {
  outcome: "finished" | "error" | "unfinished";
  /** How the agent's log says a run failed, as written (model/run.ts AgentWords.failed: `is_error: true`, `turn.failed`). */
  failedAs: string;
  /** Why the run ended, in the agent's word (Claude Code's `terminal_reason`), when its result states it. */
  terminalReason?: string;
  /** For a run ended in error whose result holds no text of its own: why, as the result states it (Claude Code's `errors[]`). */
  failure?: string;
  file: string;
  lastLine: number;
  duration?: string;
  /** `1,234 in · 567 out · …` from result.usage; undefined when the log has none. */
  tokens?: string;
  /** The cost its result states, US dollars, the session's so far (model/run.ts Cost); undefined when none. The text and Markdown footers do not show it. */
  costUsd?: number;
  /** Completed calls by status bin (model/status.ts); a background task counts as one, whatever its bin. */
  calls: { ok: number; failed: number; refused: number; noResult: number; background: number };
  /** Calls started and never completed. */
  open: CallView[];
  /** Background shells and tasks whose end the log does not hold. */
  stillBackground: string[];
  /** The agent CLI's own text lines in the session (stderr merged into the log): the first one's line, how many. */
  said?: { line: number; count: number };
}

/** One output format of `show`. Each function returns whole lines. */
export interface Renderer {
  head(h: SessionHead, first: boolean): string;
  prompt(text: string): string;
  message(text: string, final: boolean): string;
  thinking(text: string): string;
  call(v: CallView): string;
  /** A line of its own: a background shell's end, a task notification; `tail`: last lines of its detail text. */
  event(mark: Mark, text: string, tail?: string[]): string;
  foot(f: SessionFoot): string;
  /**
   * The renderer for a subagent's lines, one level deeper (depth 1: a subagent of the run; 2: a
   * subagent's subagent): the same blocks, each line of them marked as nested under the line before
   * them that names the subagent. It shares the renderer's state (blank lines between blocks).
   */
  nested(depth: number): Renderer;
  /** The live line of a call still running (terminal only): one line, no newline (a newline before it when a blank line is due). */
  live?(v: CallView, elapsed: string, more: number): string;
  /** What closes the output after the last run (HTML: the page's end); "" when nothing was written. */
  end?(): string;
}

/**
 * The most levels of subagents' nesting a transcript draws (text's bars, Markdown's quotes): a
 * deeper level is drawn at this one. Each line carries its level's marks, so drawing every level
 * would make a chain of N nested subagents print N² characters (3,000 levels: 36 MB for a 3 MB
 * log); real runs nest a few levels.
 */
export const MAX_DRAWN_LEVELS = 16;

export const MARKS: Record<Mark, string> = {
  ok: "✓",
  failed: "✗",
  refused: "⊘",
  background: "↗",
  running: "…",
  ended: "■",
  subagent: "↳",
};

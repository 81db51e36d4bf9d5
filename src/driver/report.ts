import type { Reporter } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import type { AgentSaid, Notice, Run } from "../model/run.js";

/** What a run cut off (no result) tells on stderr: see DriverOptions.cutOff. */
export type CutOffReport = "error" | "warning" | "warning-if-open" | "quiet" | "accepted";

/** `session 3f2a…` or, without an id, `session #2`. */
export function runName(run: Run): string {
  return run.sessionId !== undefined ? `session ${run.sessionId}` : `session #${run.index}`;
}

/**
 * "session 3f2a… has no result: its lines end at line 57, 2 tool calls still open: …", or, when
 * the agent CLI said why (its stderr merged into the log), "session 7b71… has no result; the agent
 * CLI said: RetriableError: …" with its message quoted whole.
 */
export function cutOffMessage(run: Run): string {
  const who = runName(run);
  if (run.said !== undefined) return `${who} has no result; ${saidText(run.said)}`;
  const open = run.openCount;
  const msg = `${who} has no result: its lines end at line ${run.lastLine}`;
  if (open === 0) return msg + ", no tool call open";
  const shown = run.openCalls(3).map((c) => {
    const target = c.target;
    return `${c.label}${target ? ` ${JSON.stringify(target.length > 40 ? target.slice(0, 40) + "…" : target)}` : ""} (line ${c.startLine ?? 0})`;
  });
  return `${msg}, ${open} tool call${open === 1 ? "" : "s"} still open: ${shown.join(", ")}${open > 3 ? ", …" : ""}`;
}

/** The line a run cut off is reported at: where the agent CLI said why, else its last line. */
export function cutOffLine(run: Run): number {
  return run.said?.line ?? run.lastLine;
}

/** Reports a run cut off as `how` says; true when it did (its message quotes what the CLI said). */
export function reportCutOff(reporter: Reporter, run: Run, how: CutOffReport): boolean {
  if (how === "quiet" || how === "accepted" || (how === "warning-if-open" && run.openCount === 0)) return false;
  const error = how === "error";
  reporter.report({ severity: error ? "error" : "warning", file: run.file, line: cutOffLine(run), message: cutOffMessage(run), code: error ? ExitCode.INCOMPLETE : ExitCode.OK });
  return true;
}

/** `the agent CLI said: RetriableError: … (and 2 more lines)`. */
export function saidText(said: AgentSaid): string {
  const more = said.more === 0 ? "" : ` (and ${said.more} more line${said.more === 1 ? "" : "s"})`;
  return `the agent CLI said: ${said.text}${more}`;
}

export function reportSaid(reporter: Reporter, file: string, said: AgentSaid): void {
  reporter.report({ severity: "warning", file, line: said.line, message: saidText(said), code: ExitCode.OK });
}

/** A warning the agent CLI wrote into the stream, at its line, in show's words: `the agent CLI warned (warning): Loop detected, …`. */
export function reportWarning(reporter: Reporter, file: string, line: number, n: Extract<Notice, { kind: "warning" }>): void {
  const message = `the agent CLI warned${n.severity !== undefined ? ` (${n.severity})` : ""}: ${n.text}`;
  reporter.report({ severity: "warning", file, line, message, code: ExitCode.OK });
}

/** The failed run's message is shown up to this many characters in its one-line error. */
const FAILURE_TEXT_MAX = 100;

/**
 * A failed run: exit 1, one line naming the run, how its log says it failed in the agent's own
 * words (Run.words: `is_error: true, subtype error_during_execution`, `turn.failed`,
 * `status: "error"`), and its message (shortened).
 */
export function reportFailed(reporter: Reporter, run: Run): void {
  const result = run.result;
  const raw = (run.failure ?? "").replace(/\s+/g, " ").trim();
  const text = raw.length > FAILURE_TEXT_MAX ? raw.slice(0, FAILURE_TEXT_MAX - 1) + "…" : raw;
  // As written: the failure and, where the agent's result has one, its subtype.
  const words = run.words;
  const sub = run.stated?.subtype;
  const subtype = words.subtype !== undefined && typeof sub === "string" && sub !== "" ? `, ${words.subtype} ${sub}` : "";
  reporter.report({
    severity: "error",
    file: result?.file ?? run.file,
    line: result?.line ?? run.lastLine,
    message: `${runName(run)} ended with an error (${words.failed}${subtype})${text === "" ? "" : `: ${text}`}`,
    code: ExitCode.NEGATIVE,
  });
}

/**
 * What the end of a file tells beyond its runs: a file with no run at all (empty, blank, all
 * stderr text) is exit 4 "no session in the input" (with what the CLI said, when it said
 * something); the CLI's text that no run took (after the last result) is a warning.
 */
export function reportFileEnd(reporter: Reporter, file: string, hadRun: boolean, unclaimed: AgentSaid | undefined, unreadable: boolean): void {
  if (!hadRun) {
    if (unreadable) return; // "cannot read" said it
    const message = unclaimed === undefined ? "no session in the input" : `no session in the input; ${saidText(unclaimed)}`;
    reporter.report(unclaimed === undefined ? { severity: "error", file, message, code: ExitCode.INCOMPLETE } : { severity: "error", file, line: unclaimed.line, message, code: ExitCode.INCOMPLETE });
  } else if (unclaimed !== undefined) {
    reportSaid(reporter, file, unclaimed);
  }
}

import type { Reporter } from "../../diagnostics.js";
import { openCount, type AgentSaid, type Session } from "../../dialects/cursor/sessions.js";
import { actionLabel, actionTarget } from "../../dialects/cursor/action.js";
import { ExitCode } from "../../exit-codes.js";

/**
 * "session 3f2a… has no result: the log ends after line 57 with 2 tool calls still open (…)", or,
 * when the agent CLI said why (its stderr merged into the log), "session 7b71… has no result; the
 * agent CLI said: RetriableError: …" with its message quoted whole.
 */
export function incompleteMessage(s: Session): string {
  const who = s.sessionId !== undefined ? `session ${s.sessionId}` : `session #${s.index}`;
  if (s.said !== undefined) return `${who} has no result; ${saidText(s.said)}`;
  const open = openCount(s);
  let msg = `${who} has no result: its lines end at line ${s.lastLine}`;
  if (open === 0) return msg + ", no tool call open";
  msg += `, ${open} tool call${open === 1 ? "" : "s"} still open`;
  const shown: string[] = [];
  for (const c of s.open.values()) {
    if (shown.length === 3) break;
    const target = actionTarget(c);
    shown.push(`${actionLabel(c)}${target ? ` ${JSON.stringify(target.length > 40 ? target.slice(0, 40) + "…" : target)}` : ""} (line ${c.line})`);
  }
  return `${msg}: ${shown.join(", ")}${open > 3 ? ", …" : ""}`;
}

/** The line an incomplete session is reported at: where the agent CLI said why, else its last line. */
export function incompleteLine(s: Session): number {
  return s.said?.line ?? s.lastLine;
}

/** Reports a session without a result (exit 4, or a warning that leaves the status alone). */
export function reportIncomplete(reporter: Reporter, s: Session, severity: "error" | "warning" = "error"): void {
  reporter.report({ severity, file: s.file, line: incompleteLine(s), message: incompleteMessage(s), code: severity === "error" ? ExitCode.INCOMPLETE : ExitCode.OK });
}

/** `the agent CLI said: RetriableError: … (and 2 more lines)`. */
export function saidText(said: AgentSaid): string {
  const more = said.more === 0 ? "" : ` (and ${said.more} more line${said.more === 1 ? "" : "s"})`;
  return `the agent CLI said: ${said.text}${more}`;
}

/**
 * What the end of a file tells beyond its sessions: a file with no session at all (empty, blank,
 * all stderr text) is a run that never started, exit 4 "no session in the input" (with what the
 * CLI said, when it said something); the CLI's text that no session took (after the last result)
 * is a warning. `last`: the session the file ended with (undefined when it had none).
 */
export function reportFileEnd(reporter: Reporter, file: string, last: Session | undefined, unclaimed: AgentSaid | undefined, unreadable = false): void {
  if (last === undefined) {
    if (unreadable) return; // "cannot read" said it
    const message = unclaimed === undefined ? "no session in the input" : `no session in the input; ${saidText(unclaimed)}`;
    reporter.report(unclaimed === undefined ? { severity: "error", file, message, code: ExitCode.INCOMPLETE } : { severity: "error", file, line: unclaimed.line, message, code: ExitCode.INCOMPLETE });
  } else if (unclaimed !== undefined) {
    reporter.report({ severity: "warning", file, line: unclaimed.line, message: saidText(unclaimed), code: ExitCode.OK });
  }
}

/** The result's text is shown up to this many characters in the one-line is_error message. */
const RESULT_TEXT_MAX = 100;

/**
 * What a session that did end tells on stderr: a result with is_error: true is exit 1 with one
 * line naming the session and its result text (shortened); the agent CLI's text in a session that
 * still finished is a warning.
 */
export function reportFinished(reporter: Reporter, s: Session): void {
  const result = s.result;
  if (result !== undefined && result.value.is_error === true) {
    const who = s.sessionId !== undefined ? `session ${s.sessionId}` : `session #${s.index}`;
    const raw = typeof result.value.result === "string" ? result.value.result.replace(/\s+/g, " ").trim() : "";
    const text = raw.length > RESULT_TEXT_MAX ? raw.slice(0, RESULT_TEXT_MAX - 1) + "…" : raw;
    const subtype = typeof result.value.subtype === "string" && result.value.subtype !== "" ? `, subtype ${result.value.subtype}` : "";
    reporter.report({
      severity: "error",
      file: result.file,
      line: result.line,
      message: `${who} ended with an error (is_error: true${subtype})${text === "" ? "" : `: ${text}`}`,
      code: ExitCode.NEGATIVE,
    });
  }
  if (s.said !== undefined) reporter.report({ severity: "warning", file: s.file, line: s.said.line, message: saidText(s.said), code: ExitCode.OK });
}

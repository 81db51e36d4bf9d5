import type { Colors } from "picocolors/types.js";
import type { Reporter } from "../../diagnostics.js";
import { actionLabel, actionTarget, FIELDS_READ, statusNote, statusTone } from "../../events/action.js";
import { AssistantText } from "../../events/assistant-text.js";
import { openCount, SessionTracker, type CompletedCall, type Session } from "../../events/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonRecord } from "../../input/record.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { shortenToolCalls, skipTypes } from "../../input/raw-skip.js";
import { incompleteMessage } from "../shared/incomplete.js";

export interface ActionsTextOptions {
  verbose: boolean;
  /** Print only each session's final assistant message, as the 2026 CLI's text format does. */
  final: boolean;
  allowIncomplete: boolean;
  colors: Colors;
}

/** One action line: `Ran terminal command: npm test (failed, exit 1)`. Always a single, escaped line. */
export function formatAction(done: CompletedCall, verbose: boolean, c: Colors): string {
  const call = done.call;
  // The label names the tool kind (the key inside tool_call, a function name, a tool.case): log text too.
  let line = c.bold(escapeControls(actionLabel(call)));
  if (verbose) {
    const target = actionTarget(call);
    if (target !== "") line += ": " + c.cyan(escapeControls(target));
  }
  const note = statusNote(call);
  if (note !== "") {
    const tone = statusTone(call);
    line += " " + (tone === "refused" ? c.yellow : c.red)(`(${escapeControls(note)})`);
  }
  return line + "\n";
}

/**
 * `cursorlog text`: an action line per tool call, written when the call completes (calls that
 * never complete get none; the end-of-session message names them). Thinking is never printed.
 */
export function toActionsText(opts: ActionsTextOptions, reporter: Reporter): Stage {
  const tracker = new SessionTracker();
  let text = new AssistantText();

  function ended(s: Session | undefined): string | undefined {
    if (s === undefined || s.result !== undefined) return undefined;
    if (opts.allowIncomplete) {
      if (opts.final) return finalMessage();
      if (openCount(s) > 0) reporter.report({ severity: "warning", file: s.file, line: s.lastLine, message: incompleteMessage(s), code: ExitCode.OK });
      return undefined;
    }
    reporter.report({ severity: "error", file: s.file, line: s.lastLine, message: incompleteMessage(s), code: ExitCode.INCOMPLETE });
    return undefined;
  }

  function finalMessage(): string | undefined {
    const msg = text.finalMessage();
    return msg === "" ? undefined : escapeControlsKeepLines(msg) + (msg.endsWith("\n") ? "" : "\n");
  }

  return {
    // Thinking is never printed; assistant text only with --final.
    // Of a tool call, only what labels, targets and statuses read is parsed in full.
    skip: shortenToolCalls(skipTypes(opts.final ? ["thinking", "user"] : ["thinking", "user", "assistant"]), FIELDS_READ),
    record(rec: JsonRecord) {
      const step = tracker.observe(rec);
      let out = step.ended ? ended(step.ended) : undefined;
      if (step.ended) text = new AssistantText();
      if (opts.final) {
        text.observe(rec.value);
        if (step.session.result === rec) {
          if (rec.value.is_error === true) reporter.raise(ExitCode.NEGATIVE);
          const msg = finalMessage();
          if (msg !== undefined) out = (out ?? "") + msg;
        }
        return out;
      }
      if (step.completed) out = (out ?? "") + formatAction(step.completed, opts.verbose, opts.colors);
      else if (step.session.result === rec && rec.value.is_error === true) reporter.raise(ExitCode.NEGATIVE);
      return out;
    },
    fileEnd(_file: string, lastLine: number) {
      const out = ended(tracker.endFile(lastLine));
      text = new AssistantText();
      return out;
    },
  };
}

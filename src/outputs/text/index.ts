import type { Colors } from "picocolors/types.js";
import { colorsOf, type ColorsOption } from "../shared/colors.js";
import type { Reporter } from "../../diagnostics.js";
import { actionLabel, actionTarget, FIELDS_READ, statusNote, statusTone } from "../../events/action.js";
import { AssistantText } from "../../events/assistant-text.js";
import { BackgroundTasks, isTaskNotification } from "../../events/background.js";
import { backgroundEndText } from "../shared/background-end.js";
import { openCount, SessionTracker, type CompletedCall, type Session } from "../../events/sessions.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { shortenToolCalls, skipTypes } from "../../input/raw-skip.js";
import { reportFileEnd, reportFinished, reportIncomplete } from "../shared/incomplete.js";

export interface ActionsTextOptions {
  /** `-v`: the target of each action and its outcome (default false). */
  verbose?: boolean;
  /** Print only each session's final assistant message, as the 2026 CLI's text format does. */
  final?: boolean;
  /** A session without a result is a warning, not an error (exit code 4) (default false). */
  allowIncomplete?: boolean;
  /** picocolors' functions, or true for ANSI colours; none by default. */
  colors?: ColorsOption;
}

/**
 * One action line: `Ran terminal command: npm test (failed, exit 1)`. Always a single, escaped line.
 * `detail` (verbose): what follows the target, e.g. `in background, task 41`.
 */
export function formatAction(done: CompletedCall, verbose: boolean, c: Colors, detail?: string): string {
  const call = done.call;
  // The label names the tool kind (the key inside tool_call, a function name, a tool.case): log text too.
  let line = c.bold(escapeControls(actionLabel(call)));
  if (verbose) {
    const target = actionTarget(call);
    if (target !== "") line += ": " + c.cyan(escapeControls(target));
    if (detail !== undefined) line += c.dim(` (${escapeControls(detail)})`);
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
export function toActionsText(options: ActionsTextOptions, reporter: Reporter): Stage {
  const opts = { verbose: options.verbose === true, final: options.final === true, allowIncomplete: options.allowIncomplete === true, colors: colorsOf(options.colors) };
  const tracker = new SessionTracker();
  let text = new AssistantText();

  function ended(s: Session | undefined): string | undefined {
    if (s === undefined || s.result !== undefined) return undefined;
    if (opts.allowIncomplete) {
      if (opts.final) return finalMessage();
      if (openCount(s) > 0) reportIncomplete(reporter, s, "warning");
      return undefined;
    }
    reportIncomplete(reporter, s);
    return undefined;
  }

  /** Background shells of the session (-v): linked to their end and to the awaits naming them. */
  const background = new BackgroundTasks();

  /** `in background, task 41` for a background shell; `npm run test:slow` for an await naming one. */
  function backgroundDetail(done: CompletedCall): string | undefined {
    const task = background.completed(done);
    if (task !== undefined) return `in background, task ${task.taskId}`;
    if (done.call.kind !== "await") return undefined;
    const waited = background.get(actionTarget(done.call));
    return waited === undefined ? undefined : waited.command;
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
          reportFinished(reporter, step.session);
          const msg = finalMessage();
          if (msg !== undefined) out = (out ?? "") + msg;
        }
        return out;
      }
      if (step.ended) background.endSession();
      if (step.completed) out = (out ?? "") + formatAction(step.completed, opts.verbose, opts.colors, opts.verbose ? backgroundDetail(step.completed) : undefined);
      else if (opts.verbose && isTaskNotification(rec.value)) {
        // A background shell's command ended (-v): where it happened, among the action lines.
        const end = background.notified(rec);
        if (end !== undefined) out = (out ?? "") + opts.colors.bold(escapeControls(backgroundEndText(end))) + "\n";
      }
      // The CLI's text was printed where it occurred: only is_error is told on stderr.
      else if (step.session.result === rec && rec.value.is_error === true) reportFinished(reporter, { ...step.session, said: undefined });
      return out;
    },
    said(p: Problem) {
      tracker.said(p.file, p.line ?? 0, p.message);
      // Where it occurred, among the action lines (not with --final: that prints the final message only).
      if (opts.final) return undefined;
      return opts.colors.red(`The agent CLI said: ${escapeControls(p.message)}`) + "\n";
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const last = tracker.endFile(lastLine);
      const out = ended(last);
      reportFileEnd(reporter, file, last, tracker.unclaimed(), unreadable);
      text = new AssistantText();
      background.endSession();
      return out;
    },
  };
}

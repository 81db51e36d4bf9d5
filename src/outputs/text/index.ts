import type { Colors } from "picocolors/types.js";
import { colorsOf, type ColorsOption } from "../shared/colors.js";
import type { Reporter } from "../../diagnostics.js";
import { forcedDialect } from "../../dialects/index.js";
import { drive } from "../../driver/driver.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Run, Step } from "../../model/run.js";
import { RunText } from "../../model/text.js";
import { escapeControls, escapeControlsKeepLines } from "../../sanitize.js";
import type { Stage } from "../../stream/stage.js";
import { shortenToolCalls } from "../../input/raw-skip.js";
import { backgroundEndText } from "../shared/background-end.js";

export interface ActionsTextOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
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
export function formatAction(call: Call, verbose: boolean, c: Colors, detail?: string): string {
  // The label names the tool kind (the key inside tool_call, a function name, a tool.case): log text too.
  let line = c.bold(escapeControls(call.label));
  if (verbose) {
    const target = call.target;
    if (target !== "") line += ": " + c.cyan(escapeControls(target));
    if (detail !== undefined) line += c.dim(` (${escapeControls(detail)})`);
  }
  const note = call.note();
  if (note !== "") line += " " + (call.status === "refused" ? c.yellow : c.red)(`(${escapeControls(note)})`);
  return line + "\n";
}

/**
 * `cursorlog text`: an action line per tool call, written when the call completes (calls that
 * never complete get none; the end-of-session message names them). Thinking is never printed.
 */
export function toActionsText(options: ActionsTextOptions, reporter: Reporter): Stage {
  const opts = { verbose: options.verbose === true, final: options.final === true, allowIncomplete: options.allowIncomplete === true, colors: colorsOf(options.colors) };
  /** The run's text (--final prints its last message). */
  let text = new RunText();
  /** Background tasks of the run in progress (-v): an await names the one it waits on. */
  const running = new Map<string, Call>();

  /** `in background, task 41` for a background task; the waited task's command for an await naming one. */
  function backgroundDetail(call: Call): string | undefined {
    if (call.backgroundTask !== undefined) {
      running.set(call.backgroundTask, call);
      return `in background, task ${call.backgroundTask}`;
    }
    if (call.kind !== "await") return undefined;
    return running.get(call.target)?.target;
  }

  function finalMessage(): string | undefined {
    const msg = text.finalMessage();
    return msg === "" ? undefined : escapeControlsKeepLines(msg) + (msg.endsWith("\n") ? "" : "\n");
  }

  const stage = drive(
    {
      runStart() {
        text = new RunText();
        running.clear();
        return undefined;
      },
      callDone: opts.final ? undefined : (call: Call) => formatAction(call, opts.verbose, opts.colors, opts.verbose ? backgroundDetail(call) : undefined),
      backgroundEnd:
        opts.verbose && !opts.final
          ? (end: BackgroundEnd) => {
              // A background task ended (-v): where it happened, among the action lines.
              running.delete(end.taskId);
              return opts.colors.bold(escapeControls(backgroundEndText(end))) + "\n";
            }
          : undefined,
      line: opts.final ? (_rec: JsonRecord, step: Step) => void text.observe(step) : undefined,
      said: opts.final
        ? undefined
        : // Where it occurred, among the action lines: told there, not again at the run's end.
          (p: Problem) => opts.colors.red(`The agent CLI said: ${escapeControls(p.message)}`) + "\n",
      runEnd(run: Run) {
        if (!opts.final) return undefined;
        if (run.outcome === "cut-off" && !opts.allowIncomplete) return undefined;
        return finalMessage();
      },
    },
    reporter,
    {
      dialect: forcedDialect(options.agent),
      cutOff: opts.allowIncomplete ? (opts.final ? "accepted" : "warning-if-open") : "error",
      // Thinking is never printed; assistant text only with --final. Of a tool call, only what
      // labels, targets and statuses read is parsed in full.
      skip: (d) => shortenToolCalls(d.skipUnread({ text: opts.final }), d.fieldsRead),
    },
  );
  return stage;
}

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
import { SubagentTitles } from "../shared/subagents.js";

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
 * The mark of a subagent's action line, before it: `[subagent "Find config loading"] `, the titles
 * of its task (SubagentTitles: outermost first, `>` between) as JSON strings, escaped, so that
 * where the mark ends is never in doubt. The run's own lines start with their label, never `[`.
 */
export function subagentMark(titles: readonly string[], c: Colors): string {
  return c.dim(`[subagent ${titles.map((t) => escapeControls(JSON.stringify(t))).join(" > ")}]`) + " ";
}

/**
 * One action line: `Ran terminal command: npm test (failed, exit 1)`. Always a single, escaped line.
 * `detail` (verbose): what follows the target, e.g. `in background, task 41`. `subagent`: the
 * titles of the subagent whose call it is (subagentMark), for a subagent's call.
 */
export function formatAction(call: Call, verbose: boolean, c: Colors, detail?: string, subagent?: readonly string[]): string {
  // The label names the tool kind (the key inside tool_call, a function name, a tool.case): log text too.
  let line = (subagent !== undefined ? subagentMark(subagent, c) : "") + c.bold(escapeControls(call.label));
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
 * A subagent's own calls (Call.parentId: Claude Code's) get their lines too, marked as the
 * subagent's (subagentMark); --final prints the run's own last message, never a subagent's.
 */
export function toActionsText(options: ActionsTextOptions, reporter: Reporter): Stage {
  const opts = { verbose: options.verbose === true, final: options.final === true, allowIncomplete: options.allowIncomplete === true, colors: colorsOf(options.colors) };
  /** The run's text (--final prints its last message). */
  let text = new RunText();
  /** Background tasks of the run in progress (-v): an await names the one it waits on. */
  const running = new Map<string, Call>();
  /** The run's subagents, by their task call: a subagent's call's line names its task. */
  const subagents = new SubagentTitles();

  function action(call: Call): string {
    const line = formatAction(call, opts.verbose, opts.colors, opts.verbose ? backgroundDetail(call) : undefined, call.parentId !== undefined ? subagents.chain(call.parentId) : undefined);
    subagents.done(call);
    return line;
  }

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
        subagents.clear();
        return undefined;
      },
      callStarted: opts.final ? undefined : (call: Call) => void subagents.started(call),
      callDone: opts.final ? undefined : action,
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
      warnings: true,
      cutOff: opts.allowIncomplete ? (opts.final ? "accepted" : "warning-if-open") : "error",
      // Thinking is never printed; assistant text only with --final. Of a tool call, only what
      // labels, targets and statuses read is parsed in full.
      skip: (d) => shortenToolCalls(d.skipUnread({ text: opts.final }), d.fieldsRead),
    },
  );
  return stage;
}

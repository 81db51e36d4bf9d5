import { colorsOf, type ColorsOption } from "../shared/colors.js";
import type { Reporter } from "../../diagnostics.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import { forcedDialect } from "../../dialects/index.js";
import { drive, type RunSink } from "../../driver/driver.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import type { BackgroundEnd, Call } from "../../model/call.js";
import type { Notice, Run, Step, Usage } from "../../model/run.js";
import { RunText } from "../../model/text.js";
import type { Stage } from "../../stream/stage.js";
import { isoTimeFormatter, type IsoTime } from "../shared/iso-time.js";
import { thinkingTimes } from "../../dialects/cursor/thinking-times.js";
import { backgroundLabel, formatDuration, labelOf, viewOf, type CallView } from "./call-view.js";
import { readable, type ContentBudget, type Shown } from "./html/content.js";
import { markdownRenderer } from "./markdown.js";
import { SaidLines } from "./said-lines.js";
import { goesOnAfterResult, MAX_TITLES, SubagentTitles } from "../shared/subagents.js";
import type { Renderer, SessionFoot, SessionHead } from "./render.js";
import { textRenderer } from "./text.js";

export interface ShowOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  format: "text" | "markdown" | "html";
  /** The renderer to use instead of text or markdown's (show/html/, loaded by the command only for --format html). */
  renderer?: Renderer;
  /** Each call's id, arguments and outcome in its view, cut to this budget (show --format html). */
  content?: ContentBudget;
  /** picocolors' functions, or true for ANSI colours; none by default. */
  colors?: ColorsOption;
  /** Columns to wrap text to; 0: no wrapping. */
  width: number;
  /** The terminal's columns, for the live line when `width` is 0 (it must fit one row). */
  terminalColumns?: number;
  thinking: boolean;
  /** Lines of stderr / error text shown under a call that did not succeed. */
  lines: number;
  /** Each edit's diff under its line. */
  diff: boolean;
  /** Exit 1 for a failed run (its result says so), 4 for a run without a result. */
  exitStatus: boolean;
  /**
   * A terminal reading a live log: a call still running after LIVE_AFTER_MS shows as a line that
   * its result line then replaces in place. Never in a pipe: nothing is ever rewritten there.
   */
  live: boolean;
}

/** How long a call runs before the live line shows it. */
export const LIVE_AFTER_MS = 1000;
/** Carriage return and erase-line: the live line goes, what follows takes its place. */
const ERASE = "\r\u001b[2K";

/** What one run has shown so far, and what waits to be shown. */
class RunView {
  headShown = false;
  /** The user's messages that came before the header, shown under it. */
  prompt = "";
  /** The agent's message since the last thing shown (model/text.ts: deltas and whole messages). */
  message = new RunText();
  /** The thinking of the current phase. */
  thinking = "";
  readonly calls: SessionFoot["calls"] = { ok: 0, failed: 0, refused: 0, noResult: 0, background: 0 };
  /** Wall-clock time each open call was first seen (live line). */
  readonly seenAt = new Map<string, number>();
  /** The agent CLI's text lines that came before the run's header, shown after it (the first and last few). */
  saidBefore?: SaidLines | undefined;
  /** The run's subagents, by their task call (their header names the task). */
  readonly subagents = new SubagentTitles();
  /** The subagent whose lines are being shown (its task call's id), nested; undefined: the run's own. */
  nest: string | undefined;
  /** That subagent's message since the last thing shown (its deltas, until its whole message comes). */
  nestText = new RunText();
  /** Subagents whose header was shown (again: `continued`); at most MAX_TITLES. */
  readonly entered = new Set<string>();
  /** The run ended with its result but goes on (goesOnAfterResult): its footer waits for the next run or its file's end. */
  footHeld = false;
  /** With content: the arguments of each open call as its start logged them, readable and cut (a completion may log none). */
  readonly startArgs = new Map<string, Shown>();

  constructor(readonly run: Run) {}
}

/**
 * `cursorlog show` as the driver's sink (driver/driver.ts): per run a header and the prompt, the
 * agent's messages as paragraphs, a line per tool call as it completes, the final answer and a
 * footer. Text waits for the next thing that is not text (the model joins its pieces); everything
 * else is written as it arrives. Every fact comes from the run model; this only renders.
 */
class ShowSink implements RunSink {
  /** The run being shown (after its result, until the next run or the end of its file: the live line reads it). */
  view: RunView | undefined;
  private shownAny = false;
  private readonly iso: IsoTime = isoTimeFormatter();
  /**
   * The agent CLI's text lines that came when no run was in progress, by file: the next run that
   * begins in the file takes them. Only the first and last few are kept (SaidLines).
   */
  private readonly pending = new Map<string, SaidLines>();

  constructor(
    private readonly opts: ShowOptions,
    private readonly reporter: Reporter,
    readonly r: Renderer,
  ) {}

  runStart(run: Run): string {
    // The run before, held after its result: its footer now (model: its lines have all come).
    const out = this.releaseFoot();
    const v = (this.view = new RunView(run));
    const q = this.pending.get(run.file);
    if (q !== undefined) {
      this.pending.delete(run.file);
      v.saidBefore = q;
    }
    return out;
  }

  callStarted(call: Call, run: Run): string {
    const v = this.viewOf(run);
    v.seenAt.set(call.id, Date.now());
    v.subagents.started(call);
    const content = this.opts.content;
    // Many calls open at once (a log that never completes them): each kept smaller, memory stays bounded.
    if (content !== undefined && call.args !== undefined) v.startArgs.set(call.id, readable(call.args, v.startArgs.size < 1000 ? content.args : 256));
    return this.beforeStart(v, call.parentId);
  }

  callRestarted(call: Call, run: Run): string {
    return this.beforeStart(this.viewOf(run), call.parentId);
  }

  /** A call starts: the text so far is shown (a live log shows it before the call runs), but a subagent's header waits for something of its own to show. */
  private beforeStart(v: RunView, parent: string | undefined): string {
    return parent === undefined || v.nest === parent ? this.before(v, parent) : this.head(v);
  }

  callDone(call: Call, run: Run): string {
    const v = this.viewOf(run);
    const out = this.before(v, call.parentId);
    v.seenAt.delete(call.id);
    this.count(v, call);
    const content = this.opts.content;
    const startArgs = v.startArgs.get(call.id);
    v.startArgs.delete(call.id);
    const view = viewOf(call, {
      lines: this.opts.lines,
      diff: this.opts.diff,
      cwd: run.cwd,
      content: content === undefined ? undefined : { args: content.args, output: content.output, startArgs },
    });
    if (content !== undefined) content.spend((view.args?.text.length ?? 0) + (view.output?.text.length ?? 0));
    const line = this.rendererOf(v, call.parentId).call(view);
    v.subagents.done(call);
    return out + line;
  }

  backgroundEnd(end: BackgroundEnd, run: Run): string {
    const v = this.viewOf(run);
    return this.before(v) + this.ended(end, run);
  }

  /**
   * What a line tells besides its calls: the user's and the agent's text, thinking, notices, the
   * result. A line that tells none of these (an init, a line of the agent CLI's own bookkeeping)
   * shows nothing, not even the header: the header comes with the first thing shown, when the run's
   * init (which may follow other lines: Claude Code's hooks) has named it. A subagent's line is shown
   * nested under its task (subagentLine).
   */
  line(_rec: JsonRecord, step: Step): string {
    const v = this.viewOf(step.run);
    if (step.init === true) return "";
    if (step.parentId !== undefined) return this.subagentLine(v, step, step.parentId);
    if (step.user !== undefined) {
      if (v.headShown) return this.flushText(v, false) + this.leave(v) + this.r.prompt(step.user);
      v.prompt += step.user;
      return "";
    }
    if (step.text === undefined && step.thinking === undefined && step.notice === undefined && step.result !== true) return "";
    let out = this.head(v);
    if (step.text !== undefined) {
      v.message.observe(step);
      return out + this.flushThinking(v);
    }
    if (step.thinking !== undefined) {
      v.thinking += step.thinking.text;
      out += this.flushMessage(v, false);
      return step.thinking.done ? out + this.flushText(v, false) : out;
    }
    out += this.flushText(v, step.result === true);
    if (step.notice !== undefined) out += this.leave(v) + this.notice(step.notice);
    return out;
  }

  /**
   * A subagent's line (Step.parentId): its prompt, its text (a whole message is shown at once, its
   * deltas wait for it) and, with --thinking, its thinking, nested under its task's header.
   */
  private subagentLine(v: RunView, step: Step, parent: string): string {
    const r = this.rendererOf(v, parent);
    if (step.user !== undefined) return step.user === "" ? "" : this.before(v, parent) + r.prompt(step.user);
    if (step.text !== undefined) {
      if (step.text.delta) {
        if (v.nest !== parent) {
          // Chunks of another subagent's message than the one shown: it comes first.
          const out = this.before(v, parent);
          v.nestText.piece(step.text.text, true);
          return out;
        }
        v.nestText.piece(step.text.text, true);
        return "";
      }
      const out = this.before(v, parent, false);
      v.nestText.piece(step.text.text, false);
      return out + this.flushNest(v);
    }
    if (step.thinking !== undefined && this.opts.thinking && step.thinking.text !== "") return this.before(v, parent) + r.thinking(step.thinking.text);
    return "";
  }

  /**
   * A line of the agent CLI's own text among the events (its stderr merged into the log; a failed
   * run ends with one): shown where it occurs, counted in the footer. Before a run's header it
   * waits for the header; one no run takes is shown at the end of its file.
   */
  said(p: Problem, run: Run | undefined): string {
    const v = this.view;
    if (run !== undefined && v !== undefined && v.run === run) {
      if (v.headShown) return this.flushText(v, false) + this.leave(v) + this.saidLine(p);
      (v.saidBefore ??= new SaidLines(p.file)).push(p);
      return "";
    }
    let q = this.pending.get(p.file);
    if (q === undefined) this.pending.set(p.file, (q = new SaidLines(p.file)));
    q.push(p);
    return "";
  }

  runEnd(run: Run): string {
    const v = this.viewOf(run);
    if (this.opts.exitStatus) {
      if (run.outcome === "failed") this.reporter.raise(ExitCode.NEGATIVE);
      else if (run.outcome === "cut-off") this.reporter.raise(ExitCode.INCOMPLETE);
    }
    const out = this.head(v) + this.flushText(v, false) + this.leave(v);
    // Its lines go on after its result (a background task's end, a subagent's lines): they are
    // shown as they come, then its footer, when the next run begins or its file ends.
    if (run.result !== undefined && goesOnAfterResult(run)) {
      v.footHeld = true;
      return out;
    }
    return out + this.r.foot(this.foot(v));
  }

  fileEnd(file: string, _lastLine: number, last: Run | undefined): string {
    const foot = this.releaseFoot();
    this.view = undefined;
    const q = this.pending.get(file);
    if (q === undefined) return foot;
    this.pending.delete(file);
    // No run in the file: the driver said so ("no session in the input"), quoting this text.
    return last === undefined ? foot : foot + this.saidLines(q, true);
  }

  /** The footer of a run held after its result (RunView.footHeld), once. */
  private releaseFoot(): string {
    const v = this.view;
    if (v === undefined || !v.footHeld) return "";
    v.footHeld = false;
    return this.flushText(v, false) + this.leave(v) + this.r.foot(this.foot(v));
  }

  /** The view of `run` (the run in progress: runStart made it). */
  private viewOf(run: Run): RunView {
    if (this.view === undefined || this.view.run !== run) this.runStart(run);
    return this.view!;
  }

  /**
   * What comes before anything but text: the header, once, and the text so far. For a subagent's
   * thing (`parent`: its task call's id), the run's own text so far, then that subagent's header
   * when its lines were not the last shown, then (`flush`) its own text so far; for the run's own,
   * the subagent's text so far, then the run's.
   */
  private before(v: RunView, parent?: string, flush = true): string {
    let out = this.head(v);
    if (parent === undefined) return out + this.leave(v) + this.flushText(v, false);
    if (v.nest === parent) return flush ? out + this.flushNest(v) : out;
    // The subagents shown so far and those of this thing, outermost first: a header for each level
    // below the ones they share (none, back from a subagent's subagent to the subagent).
    const from = v.nest === undefined ? [] : v.subagents.ids(v.nest);
    out += this.flushText(v, false) + this.leave(v);
    const ids = v.subagents.ids(parent);
    const titles = v.subagents.chain(parent);
    let same = 0;
    while (same < from.length && same < ids.length && from[same] === ids[same]) same++;
    for (let d = same; d < ids.length; d++) {
      const id = ids[d]!;
      const again = v.entered.has(id);
      if (!again && v.entered.size < MAX_TITLES) v.entered.add(id);
      out += this.r.nested(d).event("subagent", `Subagent: ${titles[d]!}${again ? " (continued)" : ""}`);
    }
    v.nest = parent;
    return out;
  }

  /** The renderer of the lines of the subagent of task call `parent` (one level per task above it), or the run's own. */
  private rendererOf(v: RunView, parent: string | undefined): Renderer {
    return parent === undefined ? this.r : this.r.nested(v.subagents.chain(parent).length);
  }

  /** The shown subagent's text so far, nested. */
  private flushNest(v: RunView): string {
    if (v.nest === undefined) return "";
    v.nestText.end();
    const text = v.nestText.text();
    v.nestText = new RunText();
    return text === "" ? "" : this.rendererOf(v, v.nest).message(text, false);
  }

  /** Back to the run's own lines: the shown subagent's text so far first. */
  private leave(v: RunView): string {
    if (v.nest === undefined) return "";
    const out = this.flushNest(v);
    v.nest = undefined;
    return out;
  }

  private head(v: RunView): string {
    if (v.headShown) return "";
    v.headShown = true;
    const run = v.run;
    const h: SessionHead = { index: run.index, file: run.file, line: run.startLine, agent: run.agent };
    if (run.sessionId !== undefined) h.sessionId = run.sessionId;
    if (run.model !== undefined) h.model = run.model;
    if (run.cwd !== undefined) h.cwd = run.cwd;
    const started = this.iso(run.start?.ms);
    if (started !== undefined) h.started = started;
    let out = this.r.head(h, !this.shownAny);
    this.shownAny = true;
    if (v.prompt !== "") out += this.r.prompt(v.prompt);
    v.prompt = "";
    if (v.saidBefore !== undefined) out += this.saidLines(v.saidBefore, false);
    v.saidBefore = undefined;
    return out;
  }

  private flushThinking(v: RunView): string {
    if (v.thinking === "") return "";
    const t = v.thinking;
    v.thinking = "";
    return this.opts.thinking ? this.leave(v) + this.r.thinking(t) : "";
  }

  private flushMessage(v: RunView, final: boolean): string {
    const text = v.message.text();
    if (text === "") return "";
    v.message = new RunText();
    return this.leave(v) + this.r.message(text, final);
  }

  private flushText(v: RunView, final: boolean): string {
    return this.flushThinking(v) + this.flushMessage(v, final);
  }

  /** The footer's call counts: a background task is its own, the others by status bin. */
  private count(v: RunView, call: Call): void {
    const c = v.calls;
    if (call.backgroundTask !== undefined) c.background++;
    else if (call.status === "ok") c.ok++;
    else if (call.status === "refused") c.refused++;
    else if (call.status === "no-result") c.noResult++;
    else c.failed++;
  }

  private foot(v: RunView): SessionFoot {
    const run = v.run;
    const cwd = run.cwd;
    const f: SessionFoot = {
      outcome: run.outcome === "finished" ? "finished" : run.outcome === "failed" ? "error" : "unfinished",
      failedAs: run.words.failed,
      file: run.file,
      lastLine: run.lastLine,
      calls: v.calls,
      open: run.openCalls().map((c) => openView(c, cwd, this.opts.content !== undefined)),
      stillBackground: (run.backgroundRunning?.() ?? []).map((c) => {
        const target = labelOf(c, cwd).target;
        return `${backgroundLabel(c)}${target ? ": " + target : ""}`;
      }),
    };
    if (run.said !== undefined) f.said = { line: run.said.line, count: run.said.more + 1 };
    const stated = run.stated;
    if (stated?.terminalReason !== undefined) f.terminalReason = stated.terminalReason;
    // Why it failed, when its result holds no text of its own (a text, shown as its final answer, says it).
    if (run.outcome === "failed" && stated?.text === undefined && run.failure !== undefined) f.failure = run.failure;
    if (run.statedDurationMs !== undefined) f.duration = formatDuration(run.statedDurationMs);
    else if (run.start !== undefined && run.end !== undefined && run.end.ms > run.start.ms) f.duration = `about ${formatDuration(run.end.ms - run.start.ms)}`;
    const tokens = run.usage === undefined ? undefined : tokensOf(run.usage);
    if (tokens !== undefined) f.tokens = tokens;
    if (run.cost !== undefined) f.costUsd = run.cost.usd;
    return f;
  }

  /** A background task's end: what it was, how it ended, how long it ran (from its call's start: BackgroundEnd). */
  private ended(end: BackgroundEnd, run: Run): string {
    const call = end.call;
    const status = end.status ?? "ended";
    const title = end.title ?? (end.taskId !== "" ? `task ${end.taskId}` : "");
    let what: string;
    if (call !== undefined) {
      const target = labelOf(call, run.cwd).target;
      what = `${backgroundLabel(call)} ended${target ? ": " + target : ""}`;
    } else what = `Background task ended${title ? ": " + title : ""}`;
    const after = end.durationMs !== undefined ? ` · after ${formatDuration(end.durationMs)}` : "";
    // Why it did not succeed, in its own words (raw text), as a failed call's last lines.
    const detail = !end.ok && end.detail !== undefined && this.opts.lines > 0 ? end.detail.replace(/\s+$/, "").split(/\r?\n/).slice(-this.opts.lines) : [];
    return this.r.event(end.ok ? "ended" : "failed", `${what} · ${status}${after}`, detail.length === 1 && detail[0] === "" ? [] : detail);
  }

  /** What the agent CLI told of the run itself: the connection, a retry, a plan to approve, a request rejected, a warning. */
  private notice(n: Notice): string {
    const attempt = (a: number | undefined): string => (a !== undefined ? ` (attempt ${a})` : "");
    switch (n.kind) {
      case "reconnecting":
        return this.r.event("running", `connection lost, reconnecting${attempt(n.attempt)}`);
      case "reconnected":
        return this.r.event("running", "reconnected");
      case "retrying":
        return this.r.event("running", `retrying the request${attempt(n.attempt)}`);
      case "resuming":
        return this.r.event("running", "resuming the run");
      case "plan":
        return this.r.message(`Plan:\n${n.text}`, false);
      case "rejected":
        return this.r.event("refused", `${n.what || "request"} request rejected${n.reason !== undefined ? `: ${n.reason}` : ""}`);
      case "warning":
        return this.r.event("failed", `the agent CLI warned${n.severity !== undefined ? ` (${n.severity})` : ""}: ${n.text}`);
    }
  }

  private saidLine(p: Problem, where = false): string {
    return this.r.event("failed", `${where ? `${p.file}${p.line !== undefined ? ":" + p.line : ""}: ` : ""}the agent CLI said: ${p.message}`);
  }

  /** The lines a SaidLines kept, and one line in their middle for those it left out. */
  private saidLines(q: SaidLines, where: boolean): string {
    let out = "";
    for (const p of q.head) out += this.saidLine(p, where);
    if (q.skipped > 0) {
      const n = q.skipped;
      out += this.r.event("failed", `${where ? `${q.file}: ` : ""}the agent CLI said ${n} more line${n === 1 ? "" : "s"} here (lines ${q.firstSkipped}–${q.lastSkipped}), not shown`);
    }
    for (const p of q.last()) out += this.saidLine(p, where);
    return out;
  }
}

function openView(c: Call, cwd: string | undefined, content = false): CallView {
  const v: CallView = { mark: "running", ...labelOf(c, cwd), tail: [] };
  if (content) v.id = c.id;
  return v;
}

/**
 * The live line (a terminal reading a live log): the oldest call still running, once it has run
 * LIVE_AFTER_MS, redrawn each second; whatever is written next erases it and takes its place.
 */
class LiveLine {
  push: ((text: string) => void) | undefined;
  private shown = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly sink: ShowSink) {}

  /** `out` with the live line erased before it, when it is shown. */
  erase(out: string): string {
    if (!this.shown || out === "") return out;
    this.shown = false;
    return ERASE + out;
  }

  /** After each line: the timer runs while the run has a call open. */
  after(): void {
    if (this.push === undefined) return;
    const v = this.sink.view;
    if (v !== undefined && v.run.openCount > 0) {
      if (this.timer === undefined) this.arm(LIVE_AFTER_MS);
    } else if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  stop(): string {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.shown) return "";
    this.shown = false;
    return ERASE;
  }

  private draw(): void {
    this.timer = undefined;
    const v = this.sink.view;
    if (this.push === undefined || v === undefined) return;
    const oldest = v.run.openCalls(1)[0];
    if (oldest === undefined) return;
    const since = v.seenAt.get(oldest.id) ?? Date.now();
    const elapsed = Math.max(0, Date.now() - since);
    const r = this.sink.r;
    if (elapsed >= LIVE_AFTER_MS && r.live) {
      this.push(ERASE + r.live(openView(oldest, v.run.cwd), liveElapsed(elapsed), v.run.openCount - 1));
      this.shown = true;
    }
    this.arm(elapsed >= LIVE_AFTER_MS ? 1000 - (elapsed % 1000) : LIVE_AFTER_MS - elapsed);
  }

  private arm(delay: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), Math.max(10, delay));
    this.timer.unref?.();
  }
}

/** A Stage that also takes the agent CLI's own text lines (Stage.said where the input layer gives them). */
export type ShowStage = Stage & { said(p: Problem): string | undefined };

/** `cursorlog show`: the transcript of a run, for a person (ShowSink), with its live line on a terminal. */
export function toShow(opts: ShowOptions, reporter: Reporter): ShowStage {
  const r: Renderer =
    opts.renderer ?? (opts.format === "markdown" ? markdownRenderer() : textRenderer(colorsOf(opts.colors), opts.width, opts.terminalColumns));
  const sink = new ShowSink(opts, reporter, r);
  const live = new LiveLine(sink);
  const inner = drive(sink, reporter, {
    dialect: forcedDialect(opts.agent),
    // What a run's end, a failed run and the CLI's text tell is in the transcript; -e sets the status.
    cutOff: "quiet",
    failed: false,
    unclaimed: false,
    // Tool calls are read whole (their output's last lines and diffs are shown). Without
    // --thinking a thinking line (most of a log) is read for its time alone, never parsed: it
    // stands in as a thinking line with a time and no text, which still dates the run and ends a message.
    skip: (d) => (d !== cursorDialect ? d.skipUnread({ thinking: opts.thinking, user: true, text: true }) : opts.thinking ? undefined : thinkingTimes()),
  });
  const done = (out: string | Buffer | Iterable<string> | undefined): string | undefined => {
    const s = live.erase(typeof out === "string" ? out : out === undefined ? "" : [...(out as Iterable<string>)].join(""));
    live.after();
    return s === "" ? undefined : s;
  };
  const stage: ShowStage = {
    record: (rec) => done(inner.record(rec)),
    // The agent CLI's own text line (a Problem of kind "said" from the input layer): never fatal.
    said: (p) => done(inner.said!(p)),
    fileEnd: (file, lastLine, unreadable) => done(inner.fileEnd!(file, lastLine, unreadable)),
    finish() {
      const out = live.stop() + (r.end?.() ?? "");
      return out === "" ? undefined : out;
    },
    attach(p) {
      if (opts.live) live.push = p;
    },
  };
  if (inner.skip !== undefined) stage.skip = inner.skip;
  return stage;
}

/** `1,234 in · 567 out · 10 cache read · 0 cache write`: the counts the run's usage states. */
function tokensOf(usage: Usage): string | undefined {
  const parts: string[] = [];
  const add = (n: number | undefined, name: string): void => {
    if (n !== undefined) parts.push(`${n.toLocaleString("en-US")} ${name}`);
  };
  add(usage.inputTokens, "in");
  add(usage.outputTokens, "out");
  add(usage.cacheReadTokens, "cache read");
  add(usage.cacheWriteTokens, "cache write");
  return parts.length === 0 ? undefined : parts.join(" · ");
}

/** Time a call has been running, in whole seconds: `1s`, `59s`, `1m 0s`. */
function liveElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : formatDuration(s * 1000);
}

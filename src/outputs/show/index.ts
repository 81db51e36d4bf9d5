import { colorsOf, type ColorsOption } from "../shared/colors.js";
import type { Reporter } from "../../diagnostics.js";
import { SessionTracker, type OpenCall, type Session } from "../../dialects/cursor/sessions.js";
import { isInit, isPlainObject, isResult, messageText, type UserEvent } from "../../dialects/cursor/types.js";
import { ExitCode } from "../../exit-codes.js";
import type { JsonObject, JsonRecord, Problem } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { isoTimeFormatter } from "../shared/iso-time.js";
import { thinkingTimes } from "../shared/thinking-times.js";
import { reportFileEnd } from "../shared/incomplete.js";
import { backgroundId, formatDuration, labelOf, viewOf, type CallView } from "./call-view.js";
import { markdownRenderer } from "./markdown.js";
import { MessageBuffer, ThinkingBuffer } from "./message-buffer.js";
import { SaidLines } from "./said-lines.js";
import type { Renderer, SessionFoot, SessionHead } from "./render.js";
import { textRenderer } from "./text.js";

export interface ShowOptions {
  format: "text" | "markdown";
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
  /** Exit 1 for a result with is_error, 4 for a run without a result. */
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

interface Background {
  label: string;
  target: string;
  /** Log time it went to the background, for how long it ran. */
  startMs?: number;
}

/** What one session has shown so far. */
class SessionView {
  headShown = false;
  footShown = false;
  prompt = "";
  firstMs?: number;
  lastMs?: number;
  readonly head: SessionHead;
  readonly message = new MessageBuffer();
  readonly thinking = new ThinkingBuffer();
  readonly calls = { ok: 0, failed: 0, refused: 0, background: 0 };
  readonly background = new Map<string, Background>();
  /** Wall-clock time each open call was first seen (live line). */
  readonly seenAt = new Map<string, number>();
  /** The agent CLI's own text lines in this session: the first one's line, how many. */
  said?: { line: number; count: number };
  /** Such lines that came before the session's header, shown after it (the first and last few). */
  saidBefore?: SaidLines;

  constructor(readonly session: Session) {
    this.head = { index: session.index, file: session.file, line: session.startLine };
  }
}

/**
 * `cursorlog show`: the transcript of a run, for a person. Per session a header and the prompt,
 * the agent's messages as paragraphs, a line per tool call as it completes, the final answer and
 * a footer. Text waits for the next non-text event (to join deltas and drop
 * `--stream-partial-output` repeats); everything else is written as it arrives.
 */
/** A Stage that also takes the agent CLI's own text lines (Stage.said where the input layer gives them). */
export type ShowStage = Stage & { said(p: Problem): string | undefined };

export function toShow(opts: ShowOptions, reporter: Reporter): ShowStage {
  const r: Renderer = opts.format === "markdown" ? markdownRenderer() : textRenderer(colorsOf(opts.colors), opts.width, opts.terminalColumns);
  const iso = isoTimeFormatter();
  const tracker = new SessionTracker();
  let view: SessionView | undefined;
  let shownAny = false;
  /**
   * The agent CLI's text lines that came when no session was open, by file: the next session that
   * begins in the file takes them. Only the first and last few are kept (SaidLines).
   */
  const pending = new Map<string, SaidLines>();
  // Live line state.
  let push: ((text: string) => void) | undefined;
  let liveShown = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function head(v: SessionView): string {
    if (v.headShown) return "";
    v.headShown = true;
    if (v.firstMs !== undefined) v.head.started = iso(v.firstMs);
    let out = r.head(v.head, !shownAny);
    shownAny = true;
    if (v.prompt !== "") out += r.prompt(v.prompt);
    v.prompt = "";
    if (v.saidBefore !== undefined) out += saidLines(v.saidBefore, false);
    v.saidBefore = undefined;
    return out;
  }

  function saidLine(p: Problem, where = false): string {
    return r.event("failed", `${where ? `${p.file}${p.line !== undefined ? ":" + p.line : ""}: ` : ""}the agent CLI said: ${p.message}`);
  }

  /** The lines a SaidLines kept, and one line in their middle for those it left out. */
  function saidLines(q: SaidLines, where: boolean): string {
    let out = "";
    for (const p of q.head) out += saidLine(p, where);
    if (q.skipped > 0) {
      const n = q.skipped;
      out += r.event("failed", `${where ? `${q.file}: ` : ""}the agent CLI said ${n} more line${n === 1 ? "" : "s"} here (lines ${q.firstSkipped}–${q.lastSkipped}), not shown`);
    }
    for (const p of q.last()) out += saidLine(p, where);
    return out;
  }

  function noteSaid(v: SessionView, p: Problem, count = 1): void {
    if (v.said === undefined) v.said = { line: p.line ?? 0, count };
    else v.said.count += count;
  }

  /**
   * A line of the agent CLI's own text among the events (its stderr merged into the log; a failed
   * run ends with one): shown where it occurs, counted in the footer. Before a session's first
   * event it waits for the session's header; one no session takes is shown at the end of its file.
   */
  function said(p: Problem): string {
    const v = view;
    if (v !== undefined && !v.footShown && v.session.result === undefined && v.session.file === p.file) {
      noteSaid(v, p);
      if (!v.headShown) {
        (v.saidBefore ??= new SaidLines(p.file)).push(p);
        return "";
      }
      return flushText(v, false) + saidLine(p);
    }
    let q = pending.get(p.file);
    if (q === undefined) pending.set(p.file, (q = new SaidLines(p.file)));
    q.push(p);
    return "";
  }

  /** Text lines no session took (a file that holds no event, text after the last result). */
  function unclaimed(file: string): string {
    const q = pending.get(file);
    if (q === undefined) return "";
    pending.delete(file);
    return saidLines(q, true);
  }

  function flushText(v: SessionView, final: boolean): string {
    let out = "";
    if (!v.thinking.empty) {
      const t = v.thinking.take();
      if (opts.thinking) out += r.thinking(t);
    }
    if (!v.message.empty) out += r.message(v.message.take(), final);
    return out;
  }

  function foot(v: SessionView, s: Session): string {
    v.footShown = true;
    const f: SessionFoot = {
      outcome: "unfinished",
      file: s.file,
      lastLine: s.lastLine,
      calls: v.calls,
      open: [...s.open.values()].map((c) => openView(c, v.head.cwd)),
      stillBackground: [...v.background.values()].map((b) => `${b.label}${b.target ? ": " + b.target : ""}`),
    };
    if (v.said !== undefined) f.said = v.said;
    const res = s.result?.value;
    if (res !== undefined) {
      f.outcome = res.is_error === true ? "error" : "finished";
      if (typeof res.duration_ms === "number" && res.duration_ms >= 0) f.duration = formatDuration(res.duration_ms);
      const tokens = tokensOf(res.usage);
      if (tokens !== undefined) f.tokens = tokens;
      if (opts.exitStatus && res.is_error === true) reporter.raise(ExitCode.NEGATIVE);
    } else if (opts.exitStatus) {
      reporter.raise(ExitCode.INCOMPLETE);
    }
    if (f.duration === undefined && v.firstMs !== undefined && v.lastMs !== undefined && v.lastMs > v.firstMs) {
      f.duration = `about ${formatDuration(v.lastMs - v.firstMs)}`;
    }
    return r.foot(f);
  }

  function end(s: Session | undefined): string {
    if (s === undefined || view === undefined || view.session !== s) return "";
    const v = view;
    view = undefined;
    if (v.footShown) return "";
    return head(v) + flushText(v, false) + foot(v, s);
  }

  function openView(c: OpenCall, cwd: string | undefined): CallView {
    return { mark: "running", ...labelOf(c, cwd), tail: [] };
  }

  function record(rec: JsonRecord): string {
    const step = tracker.observe(rec);
    let out = step.ended ? end(step.ended) : "";
    if (view === undefined || view.session !== step.session) {
      view = new SessionView(step.session);
      const q = pending.get(step.session.file);
      if (q !== undefined) {
        pending.delete(step.session.file);
        noteSaid(view, q.first!, q.count);
        view.saidBefore = q;
      }
    }
    const v = view;
    const ev = rec.value;
    const ms = timeOf(ev);
    if (ms !== undefined) {
      v.firstMs ??= ms;
      v.lastMs = ms;
    }
    if (isInit(ev)) {
      if (typeof ev.model === "string") v.head.model = ev.model;
      if (typeof ev.cwd === "string") v.head.cwd = ev.cwd;
      if (typeof ev.session_id === "string") v.head.sessionId = ev.session_id;
      return out;
    }
    if (v.head.sessionId === undefined && typeof ev.session_id === "string") v.head.sessionId = ev.session_id;
    if (ev.type === "user") {
      const text = messageText(ev as UserEvent);
      if (!v.headShown) v.prompt += text;
      else out += flushText(v, false) + r.prompt(text);
      return out;
    }
    out += head(v);
    if (v.message.observe(ev)) {
      if (!v.thinking.empty) {
        const t = v.thinking.take();
        if (opts.thinking) out += r.thinking(t);
      }
      return out;
    }
    const phase = v.thinking.observe(ev);
    if (phase !== false) {
      if (!v.message.empty) out += r.message(v.message.take(), false);
      if (phase === "completed") out += flushText(v, false);
      return out;
    }
    if (isResult(ev)) return out + flushText(v, true) + foot(v, step.session);
    out += flushText(v, false);
    if (step.started) v.seenAt.set(step.started.callId, Date.now());
    const done = step.completed;
    if (done) {
      v.seenAt.delete(done.callId);
      const cv = viewOf(done, { lines: opts.lines, diff: opts.diff, cwd: v.head.cwd });
      if (cv.mark === "ok") v.calls.ok++;
      else if (cv.mark === "refused") v.calls.refused++;
      else if (cv.mark === "background") v.calls.background++;
      else v.calls.failed++;
      const bg = backgroundId(done);
      if (bg !== undefined) {
        const label = done.call.kind === "shell" ? "Background shell" : done.call.kind === "task" ? "Background subagent task" : "Background task";
        const b: Background = { label, target: cv.target };
        const at = done.call.completedAtMs ?? ms;
        if (at !== undefined) b.startMs = at;
        v.background.set(bg, b);
      }
      return out + r.call(cv);
    }
    if (ev.type === "system" && ev.subtype === "task_notification") return out + notification(v, ev, ms);
    if (ev.type === "connection" && ev.subtype === "reconnecting") {
      return out + r.event("running", `connection lost, reconnecting${typeof ev.attempt === "number" ? ` (attempt ${ev.attempt})` : ""}`);
    }
    if (ev.type === "connection" && ev.subtype === "reconnected") return out + r.event("running", "reconnected");
    if (ev.type === "retry" && ev.subtype === "starting") {
      return out + r.event("running", `retrying the request${typeof ev.attempt === "number" ? ` (attempt ${ev.attempt})` : ""}`);
    }
    if (ev.type === "retry" && ev.subtype === "resuming") return out + r.event("running", "resuming the run");
    if (ev.type === "interaction_query") return out + interaction(ev);
    return out;
  }

  /**
   * The approval hand-shake (FORMAT.md §2): in --mode plan the plan comes as a request's
   * createPlanRequestQuery.args.plan, not as assistant text, so it is shown as a paragraph; a
   * response that rejects a request (a headless question skipped, a command refused) says so.
   */
  function interaction(ev: JsonObject): string {
    const what = (name: unknown): string => (typeof name === "string" ? name.replace(/(Request)?(Query|Response)$/, "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() : "");
    if (ev.subtype === "request" && isPlainObject(ev.query)) {
      for (const [k, body] of Object.entries(ev.query)) {
        if (k !== "createPlanRequestQuery" || !isPlainObject(body) || !isPlainObject(body.args)) continue;
        if (typeof body.args.plan === "string" && body.args.plan.trim() !== "") return r.message(`Plan:\n${body.args.plan}`, false);
      }
      return "";
    }
    if (ev.subtype === "response" && isPlainObject(ev.response)) {
      for (const [k, body] of Object.entries(ev.response)) {
        if (k === "id" || !isPlainObject(body) || !isPlainObject(body.rejected)) continue;
        const reason = typeof body.rejected.reason === "string" && body.rejected.reason !== "" ? `: ${body.rejected.reason}` : "";
        return r.event("refused", `${what(k) || "request"} request rejected${reason}`);
      }
    }
    return "";
  }

  function notification(v: SessionView, ev: JsonObject, ms: number | undefined): string {
    const id = typeof ev.task_id === "string" || typeof ev.task_id === "number" ? String(ev.task_id) : undefined;
    const status = typeof ev.status === "string" ? ev.status : "ended";
    const b = id !== undefined ? v.background.get(id) : undefined;
    if (b !== undefined && id !== undefined) v.background.delete(id);
    const title = typeof ev.title === "string" && ev.title !== "" ? ev.title : id !== undefined ? `task ${id}` : "";
    const what = b !== undefined ? `${b.label} ended${b.target ? ": " + b.target : ""}` : `Background task ended${title ? ": " + title : ""}`;
    const after = b?.startMs !== undefined && ms !== undefined && ms >= b.startMs ? ` · after ${formatDuration(ms - b.startMs)}` : "";
    // Why it did not succeed, in its own words (`detail`: raw text), as a failed call's last lines.
    const detail = status !== "success" && typeof ev.detail === "string" && opts.lines > 0 ? ev.detail.replace(/\s+$/, "").split(/\r?\n/).slice(-opts.lines) : [];
    return r.event(status === "success" ? "ended" : "failed", `${what} · ${status}${after}`, detail.length === 1 && detail[0] === "" ? [] : detail);
  }

  // The live line (terminal only).
  function erase(out: string): string {
    if (!liveShown || out === "") return out;
    liveShown = false;
    return ERASE + out;
  }

  function drawLive(): void {
    timer = undefined;
    const v = view;
    if (push === undefined || v === undefined) return;
    const open = [...v.session.open.values()];
    if (open.length === 0) return;
    const oldest = open[0]!;
    const since = v.seenAt.get(oldest.callId) ?? Date.now();
    const elapsed = Math.max(0, Date.now() - since);
    if (elapsed >= LIVE_AFTER_MS && r.live) {
      push(ERASE + r.live(openView(oldest, v.head.cwd), liveElapsed(elapsed), open.length - 1));
      liveShown = true;
    }
    arm(elapsed >= LIVE_AFTER_MS ? 1000 - (elapsed % 1000) : LIVE_AFTER_MS - elapsed);
  }

  function arm(delay: number): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(drawLive, Math.max(10, delay));
    timer.unref?.();
  }

  function afterRecord(): void {
    if (!opts.live || push === undefined) return;
    if (view !== undefined && view.session.open.size > 0) {
      if (timer === undefined) arm(LIVE_AFTER_MS);
    } else if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  }

  function stopLive(): string {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!liveShown) return "";
    liveShown = false;
    return ERASE;
  }

  return {
    // Tool calls are read whole (their output's last lines and diffs are shown). Without
    // --thinking a thinking line (most of a log) is read for its time alone, never parsed: it
    // stands in as {type, timestamp_ms}, which still dates the session and ends a message.
    ...(opts.thinking ? {} : { skip: thinkingTimes() }),
    record(rec) {
      const out = erase(record(rec));
      afterRecord();
      return out === "" ? undefined : out;
    },
    // The agent CLI's own text line (a Problem of kind "said" from the input layer): never fatal.
    said(p: Problem) {
      const out = erase(said(p));
      return out === "" ? undefined : out;
    },
    fileEnd(file, lastLine, unreadable) {
      const last = tracker.endFile(lastLine);
      let out: string;
      if (last === undefined) {
        // No event at all in the file: no transcript, and the error every command gives
        // ("no session in the input", status 4), quoting the agent CLI's text if that is all it held.
        const mine = pending.get(file);
        pending.delete(file);
        const first = mine?.first;
        reportFileEnd(reporter, file, undefined, first === undefined ? undefined : { line: first.line ?? 0, text: first.message, more: mine!.count - 1 }, unreadable);
        out = "";
      } else out = erase(end(last) + unclaimed(file));
      afterRecord();
      return out === "" ? undefined : out;
    },
    finish() {
      const out = stopLive();
      return out === "" ? undefined : out;
    },
    attach(p) {
      if (opts.live) push = p;
    },
  };
}

function timeOf(ev: JsonObject): number | undefined {
  if (typeof ev.timestamp_ms === "number" && Number.isFinite(ev.timestamp_ms)) return ev.timestamp_ms;
  return undefined;
}

/** `1,234 in · 567 out · 10 cache read · 0 cache write`: the usage fields the result has. */
function tokensOf(usage: unknown): string | undefined {
  if (!isPlainObject(usage)) return undefined;
  const parts: string[] = [];
  const add = (key: string, name: string): void => {
    const n = usage[key];
    if (typeof n === "number" && Number.isFinite(n)) parts.push(`${n.toLocaleString("en-US")} ${name}`);
  };
  add("inputTokens", "in");
  add("outputTokens", "out");
  add("cacheReadTokens", "cache read");
  add("cacheWriteTokens", "cache write");
  return parts.length === 0 ? undefined : parts.join(" · ");
}

/** Time a call has been running, in whole seconds: `1s`, `59s`, `1m 0s`. */
function liveElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : formatDuration(s * 1000);
}

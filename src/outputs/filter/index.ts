import { escapeJsonForTerminal } from "../../sanitize.js";
import type { Diagnostic, Reporter } from "../../diagnostics.js";
import type { CallTest, EventTest } from "../../query/predicate.js";
import type { Dialect } from "../../dialects/dialect.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import { dialectFor, dialectOf, forcedDialect, skipByDialect } from "../../dialects/index.js";
import { drive } from "../../driver/driver.js";
import type { Run, Step } from "../../model/run.js";
import { TimeWindow } from "../../query/time-window.js";
import { ExitCode } from "../../exit-codes.js";
import type { RawSkip } from "../../input/raw-skip.js";
import type { JsonRecord, Problem } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";
import { SAID_ONCE } from "./said-once.js";

export interface FilterOptions {
  /** The log's format, forced (`--agent`): an agent's name; undefined: each file's own. */
  agent?: string | undefined;
  /** The compiled predicates (compilePredicate); undefined keeps every event. */
  test?: EventTest | undefined;
  /** The time window, epoch ms: since inclusive, until exclusive. */
  since?: number | undefined;
  until?: number | undefined;
  /** A kept `completed` brings out its `started` and the reverse. */
  pair: boolean;
  /** Print only the number of events that would be written. */
  count: boolean;
  /**
   * Standard output is a terminal: controls, C1 and bidi characters are written as \uXXXX (the
   * same JSON), not byte for byte. Into a file or a pipe the lines are the bytes read.
   */
  escape?: boolean;
  /** Exit status 1 (NEGATIVE) when nothing was kept. */
  exitStatus: boolean;
  /**
   * `-v`: keep the events the predicates and the time window reject (--pair then brings out the
   * other half of a call as without -v). Lines that are not events are never kept.
   */
  invert?: boolean;
  /**
   * `-H` with `count`: a count per file (`FILE:N`, as grep -c -H), written at each file's end,
   * instead of one total. (The names before lines are withFileNames', around this stage.)
   */
  countPerFile?: boolean;
  /**
   * Lines `test` rejects by their type alone (rawSkipFor), left unparsed by the input layer. Used
   * only without a time window or --pair, which must see every event.
   */
  skip?: RawSkip | undefined;
  /**
   * `skip` for a file of the given dialect (rawSkipFor(spec, dialect)), for an input whose files may
   * be of several dialects; when given, `skip` is not used.
   */
  skipFor?: ((dialect: Dialect) => RawSkip | undefined) | undefined;
  /**
   * The predicates as the run model tests them, for a file of a dialect whose calls are not told
   * whole by one line each (Dialect.callLineTypes undefined: Claude Code's): `line`, those the
   * line's own fields decide (compileLinePredicate), and `calls`, --tool, --status and --call-id on
   * the calls the line starts or completes (compileCallPredicate). Undefined when there are no call
   * predicates: `test` decides every file's lines. (`test`, which reads cursor-agent's tool_call
   * lines, decides a file of any other dialect either way.)
   */
  model?: { line: EventTest | undefined; calls: CallTest } | undefined;
}

/**
 * `cursorlog filter`: writes each kept event as the line it was read from (`rec.text` + LF), so
 * unknown fields, key order, number spelling and escapes survive byte for byte.
 *
 * With `pair`, the lines of open calls' starts stay held, runs and calls as the driver's run model
 * tells them (memory: the calls still open). A kept completion is preceded by its held `started`
 * line unless that was already written; a kept `started` makes its completion be written whatever
 * it holds. A line that starts several calls is held once and written once.
 *
 * Each file is filtered in its own dialect (dialectFor, decided at its first event, or `agent`).
 * A cursor-agent file is filtered on its lines alone: one compiled test per line (`test`), the
 * lines it rejects by type left unparsed. A file of a dialect whose calls span line types (Claude
 * Code's: a call starts in an assistant line and completes in a user line) is read through the run
 * model when the predicates read calls (`model`) or times (--since/--until: the line's time,
 * Step.at): a line is kept when its own fields pass `model.line` and it starts or completes a call
 * that `model.calls` selects, in the window.
 */
/** Lines to write, in order: text when all are text, else bytes. */
function joinAll(parts: Array<string | Buffer>): string | Buffer {
  return parts.every((p) => typeof p === "string") ? parts.join("") : Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p))));
}

/** A started line held for its calls' completions (one object for all the calls it started). */
interface Held {
  line: string | Buffer;
  written: boolean;
}

const LF = Buffer.from("\n");


/** The filter stage, with the number of events it kept (a --jobs file's tally). */
export type FilterStage = Stage & { kept(): number };

export function toFilteredEvents(opts: FilterOptions, reporter: Reporter): FilterStage {
  const test = opts.test;
  const invert = opts.invert === true;
  const window = opts.since !== undefined || opts.until !== undefined ? new TimeWindow(opts.since, opts.until) : undefined;
  const model = opts.model;
  const forced = forcedDialect(opts.agent);
  let kept = 0;
  let keptInFile = 0;
  let saidOnce = false;

  function emit(rec: JsonRecord): string | Buffer {
    return emitLine(opts.count ? "" : lineOf(rec, opts.escape === true));
  }

  function emitLine(line: string | Buffer): string | Buffer {
    kept++;
    keptInFile++;
    return opts.count ? "" : line;
  }

  const finish = (): string | undefined => {
    if (opts.exitStatus && kept === 0) reporter.raise(ExitCode.NEGATIVE);
    return opts.count && opts.countPerFile !== true ? `${kept}\n` : undefined;
  };

  /** The file's count (-c -H), once it is read; none for a file that could not be read, as grep. */
  const fileCount = (unreadable?: boolean): string | undefined => {
    const n = keptInFile;
    keptInFile = 0;
    return opts.count && opts.countPerFile === true && unreadable !== true ? `${n}\n` : undefined;
  };

  /**
   * A line of the agent CLI's own text is not an event, so it is never written: that is said once
   * per run, at the first such line (why a run failed is usually there), and not at all with -c,
   * whose answer is a number. (With --jobs each file's stage says it at its first; the run keeps
   * the first of those: run-command.ts.)
   */
  const said = (p: Problem): undefined => {
    if (opts.count || saidOnce) return undefined;
    saidOnce = true;
    const d: Diagnostic = { severity: "warning", file: p.file, message: `the agent CLI said: ${p.message}${SAID_ONCE}`, code: ExitCode.OK };
    if (p.line !== undefined) d.line = p.line;
    reporter.report(d);
    return undefined;
  };

  /** A file of this dialect is filtered on the run model (see above), not on its lines alone. */
  const onModel = (d: Dialect): boolean => d.callLineTypes === undefined && (model !== undefined || window !== undefined);

  /** The line passes the predicates and the window, read on its own (cursor-agent's lines). */
  const matches = (rec: JsonRecord): boolean => {
    // The window sees every event (it tracks the last timestamp), so it runs first.
    if (window !== undefined && !window.contains(rec.value)) return invert;
    return (test === undefined || test(rec.value)) !== invert;
  };

  /** The same on the run model: the line's own fields, the calls it starts or completes, its time. */
  const matchesModel = (rec: JsonRecord, step: Step): boolean => {
    if (window !== undefined && !window.containsAt(step.at)) return invert;
    if (model === undefined) return (test === undefined || test(rec.value)) !== invert;
    return ((model.line === undefined || model.line(rec.value)) && model.calls(step.calls)) !== invert;
  };

  if (opts.pair) return pairStage();
  // No predicate reads calls or times: every file's lines alone, whatever its dialect (its type is its own).
  if (model === undefined && window === undefined) return lineStage(opts.skip ?? opts.skipFor?.(forced ?? cursorDialect));
  if (forced !== undefined) return onModel(forced) ? modelStage() : lineStage(opts.skipFor?.(forced) ?? opts.skip);
  return byDialect();

  /** cursor-agent's lines, each on its own: the compiled test (and the window) per line. */
  function lineStage(skip: RawSkip | undefined): FilterStage {
    if (window === undefined) {
      // The hot path: one compiled test per line, nothing else. A skipped line (its type rejected
      // from its raw bytes) has no text and is never written. With -v every line is read: the lines
      // a type rejects are the ones kept.
      const stage: FilterStage = invert
        ? { record: (rec) => (test !== undefined && !test(rec.value) ? emit(rec) : undefined), finish, said, kept: () => kept }
        : {
            record: (rec) => (rec.raw !== undefined || (rec.skipped !== true && (test === undefined || test(rec.value))) ? emit(rec) : undefined),
            finish,
            said,
            kept: () => kept,
          };
      if (opts.countPerFile === true) stage.fileEnd = (_file, _last, unreadable) => fileCount(unreadable);
      if (skip !== undefined && test !== undefined && !invert) stage.skip = skip;
      return stage;
    }
    return {
      record: (rec) => (matches(rec) ? emit(rec) : undefined),
      fileEnd(_file, _last, unreadable) {
        window?.endFile();
        return fileCount(unreadable);
      },
      finish,
      said,
      kept: () => kept,
    };
  }

  /**
   * Lines through the run model (a Claude Code file): each line as its step tells it. The lines the
   * dialect's reader does not need are left unparsed when only calls can select a line (they hold
   * none): not with -v (they are kept then) nor with a window (it needs every line's time).
   */
  function modelStage(): FilterStage {
    const skipUnread = model !== undefined && !invert && window === undefined;
    const stage = drive(
      {
        line: (rec: JsonRecord, step: Step) => (rec.skipped !== true && matchesModel(rec, step) ? emit(rec) : undefined),
        said,
        fileEnd(_file: string, _last: number, _run: Run | undefined, unreadable: boolean) {
          window?.endFile();
          return fileCount(unreadable);
        },
        finish,
      },
      reporter,
      // filter reports nothing about runs: it writes lines.
      { dialect: forced, cutOff: "quiet", failed: false, said: false, fileEnd: false, ...(skipUnread && { skip: (d: Dialect) => d.skipUnread({}) }) },
    );
    return Object.assign(stage, { kept: () => kept });
  }

  /**
   * Files of several dialects, each decided at its first event (dialectFor, as the driver and
   * skipByDialect decide): a cursor-agent file to lineStage, any file onModel to modelStage.
   */
  function byDialect(): FilterStage {
    const lines = lineStage(undefined);
    const onRun = modelStage();
    /** The current file's stage; undefined until its first event. */
    let current: Stage | undefined;
    const stage: FilterStage = {
      record(rec) {
        current ??= onModel(dialectFor(rec.value)) ? onRun : lines;
        return current.record(rec);
      },
      said: (p) => (current ?? lines).said!(p),
      fileEnd(file, last, unreadable) {
        const s = current ?? lines;
        current = undefined;
        return s.fileEnd?.(file, last, unreadable);
      },
      finish,
      kept: () => kept,
    };
    // Each file's raw skip is its dialect's: cursor-agent's by type (rawSkipFor), the model's own.
    const skipFor = opts.skipFor;
    if (skipFor !== undefined && !invert && window === undefined && test !== undefined) {
      stage.skip = skipByDialect((d) => (onModel(d) ? (model !== undefined ? d.skipUnread({}) : undefined) : skipFor(d)));
    }
    return stage;
  }

  function pairStage(): FilterStage {
    // The lines of open calls' starts not written yet, by call id, for their completion to bring
    // out: only the line (its text or bytes), not the parsed event; dropped when the run ends. A
    // line that started several calls is held once, under each of their ids, and written once. The
    // driver's run model pairs starts and completions within a run (the calls still open: memory).
    const held = new Map<string, Held>();
    /** Open calls of the run whose start was written: their completion is written whatever it holds. */
    const written = new Set<string>();
    /** Whether the run's lines are tested on the model (its dialect: onModel). */
    let runOnModel = false;
    const stage = drive(
      {
        runStart(run: Run) {
          held.clear();
          written.clear();
          const d = dialectOf(run.agent);
          runOnModel = d !== undefined && onModel(d);
          return undefined;
        },
        line(rec: JsonRecord, step: Step) {
          const hit = runOnModel ? matchesModel(rec, step) : matches(rec);
          const calls = step.calls;
          if (calls === undefined) return hit ? emit(rec) : undefined;
          // Completions first: each brings out its start's line, or is written because its start was.
          let out: Array<string | Buffer> | undefined;
          let write = hit;
          for (const e of calls) {
            if (e.what !== "done") continue;
            const id = e.call.id;
            const h = held.get(id);
            if (h !== undefined) held.delete(id);
            if (written.delete(id) || h?.written === true) write = true;
            else if (hit && h !== undefined) {
              h.written = true;
              (out ??= []).push(emitLine(h.line));
            }
          }
          let h: Held | undefined;
          for (const e of calls) {
            if (e.what !== "started") continue;
            if (write) written.add(e.call.id);
            else held.set(e.call.id, (h ??= { line: lineOf(rec, opts.escape === true), written: false }));
          }
          if (write) (out ??= []).push(emit(rec));
          return out === undefined ? undefined : out.length === 1 ? out[0]! : joinAll(out);
        },
        said,
        fileEnd(_file: string, _last: number, _run: Run | undefined, unreadable: boolean) {
          held.clear();
          written.clear();
          window?.endFile();
          return fileCount(unreadable);
        },
        finish,
      },
      reporter,
      // filter reports nothing about runs: it writes lines.
      { dialect: forced, cutOff: "quiet", failed: false, said: false, fileEnd: false },
    );
    return Object.assign(stage, { kept: () => kept });
  }
}

/**
 * A line as filter writes it: its bytes as read (invalid UTF-8 too, not the U+FFFD of its text);
 * on a terminal (`escape`) the same JSON with nothing the terminal would act on (\uXXXX).
 */
function lineOf(rec: JsonRecord, escape: boolean): string | Buffer {
  if (escape) return escapeJsonForTerminal(rec.raw !== undefined ? rec.raw.toString("utf8") : rec.text + "\n");
  if (rec.raw !== undefined) return rec.raw;
  if (rec.bytes !== undefined) return Buffer.concat([rec.bytes, LF]);
  return rec.text + "\n";
}

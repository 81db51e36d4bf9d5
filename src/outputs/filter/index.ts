import { escapeJsonForTerminal } from "../../sanitize.js";
import type { Reporter } from "../../diagnostics.js";
import type { EventTest } from "../../query/predicate.js";
import { SessionTracker, type OpenCall } from "../../events/sessions.js";
import { TimeWindow } from "../../query/time-window.js";
import { ExitCode } from "../../exit-codes.js";
import type { RawSkip } from "../../input/raw-skip.js";
import type { JsonRecord } from "../../input/record.js";
import type { Stage } from "../../stream/stage.js";

export interface FilterOptions {
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
   * Lines `test` rejects by their type alone (rawSkipFor), left unparsed by the input layer. Used
   * only without a time window or --pair, which must see every event.
   */
  skip?: RawSkip | undefined;
}

/**
 * `cursorlog filter`: writes each kept event as the line it was read from (`rec.text` + LF), so
 * unknown fields, key order, number spelling and escapes survive byte for byte.
 *
 * With `pair`, the started events of open calls stay held by a SessionTracker (memory: the calls
 * still open). A kept completion is preceded by its held `started` line unless that was already
 * written; a kept `started` makes its completion be written whatever it holds.
 */
function join(a: string | Buffer, b: string | Buffer): string | Buffer {
  return typeof a === "string" && typeof b === "string" ? a + b : Buffer.concat([Buffer.from(a), Buffer.from(b)]);
}

const LF = Buffer.from("\n");

export function toFilteredEvents(opts: FilterOptions, reporter: Reporter): Stage {
  const test = opts.test;
  const window = opts.since !== undefined || opts.until !== undefined ? new TimeWindow(opts.since, opts.until) : undefined;
  let kept = 0;

  function emit(rec: JsonRecord): string | Buffer {
    return emitLine(opts.count ? "" : lineOf(rec, opts.escape === true));
  }

  function emitLine(line: string | Buffer): string | Buffer {
    kept++;
    return opts.count ? "" : line;
  }

  const finish = (): string | undefined => {
    if (opts.exitStatus && kept === 0) reporter.raise(ExitCode.NEGATIVE);
    return opts.count ? `${kept}\n` : undefined;
  };

  if (window === undefined && !opts.pair) {
    // The hot path: one compiled test per line, nothing else. A skipped line (its type rejected
    // from its raw bytes) has no text and is never written.
    const stage: Stage = {
      record: (rec) => (rec.raw !== undefined || (rec.skipped !== true && (test === undefined || test(rec.value))) ? emit(rec) : undefined),
      finish,
    };
    if (opts.skip !== undefined && test !== undefined) stage.skip = opts.skip;
    return stage;
  }

  const matches = (rec: JsonRecord): boolean => {
    // The window sees every event (it tracks the last timestamp), so it runs first.
    if (window !== undefined && !window.contains(rec.value)) return false;
    return test === undefined || test(rec.value);
  };

  if (!opts.pair) {
    return {
      record: (rec) => (matches(rec) ? emit(rec) : undefined),
      fileEnd() {
        window?.endFile();
        return undefined;
      },
      finish,
    };
  }

  const tracker = new SessionTracker();
  const written = new WeakSet<OpenCall>();
  // The line of each open call's start not written yet, for its completion to bring out. Only the
  // line (its text or bytes), not the parsed event; dropped when the session ends.
  const held = new Map<OpenCall, string | Buffer>();
  return {
    record(rec) {
      const step = tracker.observe(rec);
      if (step.ended) held.clear();
      const hit = matches(rec);
      if (step.started) {
        if (!hit) {
          held.set(step.started, lineOf(rec, opts.escape === true));
          return undefined;
        }
        written.add(step.started);
        return emit(rec);
      }
      if (step.completed) {
        const start = step.completed.started;
        const startWritten = start !== undefined && written.delete(start);
        const startLine = start === undefined ? undefined : held.get(start);
        if (start !== undefined) held.delete(start);
        if (hit) return startLine !== undefined ? join(emitLine(startLine), emit(rec)) : emit(rec);
        return startWritten ? emit(rec) : undefined;
      }
      return hit ? emit(rec) : undefined;
    },
    fileEnd() {
      tracker.endFile();
      held.clear();
      window?.endFile();
      return undefined;
    },
    finish,
  };
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

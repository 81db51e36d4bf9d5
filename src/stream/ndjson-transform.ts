import { Transform } from "node:stream";
import { Reporter } from "../diagnostics.js";
import { JsonReader } from "../input/json-reader.js";
import { LineSplitter } from "../input/line-splitter.js";
import { LineError } from "../input/line-error.js";
import { isProblem, type InputItem, type Problem } from "../input/record.js";
import { refuseOtherAgents } from "./refuse-other-agents.js";
import type { Stage } from "./stage.js";
import pc from "picocolors";

export interface NdjsonTransformOptions {
  /** Name used in diagnostics (default `<stream>`). */
  file?: string;
  /** Skip lines that are not JSON objects instead of failing (default false). */
  lenient?: boolean;
  /** Receives each diagnostic line (default: discarded). */
  onDiagnostic?: (line: string) => void;
}

/**
 * For use from code: a Transform from raw log bytes (cursor-agent stream-json) to a command's
 * output text, e.g. `ndjsonTransform((r) => toResultJson({pretty: false, allowIncomplete: false}, r))`.
 * A malformed line errors the stream (unless `lenient`); `exitCode` tells what the CLI would exit with.
 * It writes bytes, as the CLI does: a line a stage keeps as it was (filter's) comes out as its own
 * bytes, invalid UTF-8 included.
 */
export function ndjsonTransform(makeStage: (reporter: Reporter) => Stage, opts: NdjsonTransformOptions = {}): Transform & { exitCode(): number } {
  const file = opts.file ?? "<stream>";
  const reporter = new Reporter((s) => opts.onDiagnostic?.(s), pc.createColors(false), opts.lenient === true);
  // Another agent's log (Claude Code, Codex, Gemini CLI) is refused with one diagnostic, exit code 2.
  const stage = refuseOtherAgents(makeStage(reporter), reporter);
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER, stage.skip, stage.keys);
  const reader = new JsonReader(file, Number.MAX_SAFE_INTEGER);
  const run = (items: InputItem[], out: Output): void => {
    const problem = (p: Problem): void => {
      if (stage.problem) out.add(stage.problem(p));
      else {
        reporter.problem(p);
        if (!opts.lenient) throw new Error(`${p.file}:${p.line ?? 0}: ${p.message}`);
      }
    };
    for (const item of items) {
      if (isProblem(item)) {
        if (item.kind === "said") out.add(stage.said ? stage.said(item) : reporter.said(item));
        else problem(item);
        continue;
      }
      try {
        out.add(stage.record(item));
      } catch (err) {
        if (!(err instanceof LineError)) throw err;
        problem({ kind: "malformed", file: item.file, line: item.line, message: err.message });
      }
    }
  };
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        const items: InputItem[] = [];
        reader.read(splitter.push(chunk), items);
        const out = new Output();
        run(items, out);
        done(null, out.take());
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        const items: InputItem[] = [];
        reader.read(splitter.end(), items);
        reader.end(items);
        const out = new Output();
        run(items, out);
        out.add(stage.fileEnd?.(file, splitter.lastLine));
        out.add(stage.finish?.());
        done(null, out.take());
      } catch (err) {
        done(err as Error);
      }
    },
  });
  return Object.assign(t, { exitCode: () => reporter.code });
}

/**
 * What a chunk of input gave, as bytes: text as UTF-8, and a line the stage keeps as its own bytes
 * (filter's) as those bytes, never decoded, so invalid UTF-8 comes out as it came in, as the CLI
 * writes it (decoding it would write U+FFFD instead).
 */
class Output {
  private readonly parts: Buffer[] = [];
  private text = "";

  add(out: string | Buffer | Iterable<string> | undefined): void {
    if (out === undefined) return;
    if (typeof out === "string") this.text += out;
    else if (Buffer.isBuffer(out)) {
      this.flushText();
      this.parts.push(out);
    } else for (const piece of out) this.text += piece;
  }

  private flushText(): void {
    if (this.text === "") return;
    this.parts.push(Buffer.from(this.text));
    this.text = "";
  }

  /** The bytes, or undefined for none. */
  take(): Buffer | undefined {
    this.flushText();
    if (this.parts.length === 0) return undefined;
    // A copy even of one part: a kept line is a view of the caller's chunk.
    return Buffer.concat(this.parts);
  }
}

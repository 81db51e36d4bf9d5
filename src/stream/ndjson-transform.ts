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
 */
export function ndjsonTransform(makeStage: (reporter: Reporter) => Stage, opts: NdjsonTransformOptions = {}): Transform & { exitCode(): number } {
  const file = opts.file ?? "<stream>";
  const reporter = new Reporter((s) => opts.onDiagnostic?.(s), pc.createColors(false), opts.lenient === true);
  // Another agent's log (Claude Code, Codex, Gemini CLI) is refused with one diagnostic, exit code 2.
  const stage = refuseOtherAgents(makeStage(reporter), reporter);
  const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER, stage.skip, stage.keys);
  const reader = new JsonReader(file, Number.MAX_SAFE_INTEGER);
  const run = (items: InputItem[]): string => {
    let out = "";
    const problem = (p: Problem): void => {
      if (stage.problem) out += stage.problem(p) ?? "";
      else {
        reporter.problem(p);
        if (!opts.lenient) throw new Error(`${p.file}:${p.line ?? 0}: ${p.message}`);
      }
    };
    for (const item of items) {
      if (isProblem(item)) {
        if (item.kind === "said") out += (stage.said ? stage.said(item) : reporter.said(item)) ?? "";
        else problem(item);
        continue;
      }
      try {
        out += textOf(stage.record(item));
      } catch (err) {
        if (!(err instanceof LineError)) throw err;
        problem({ kind: "malformed", file: item.file, line: item.line, message: err.message });
      }
    }
    return out;
  };
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        const items: InputItem[] = [];
        reader.read(splitter.push(chunk), items);
        const out = run(items);
        done(null, out === "" ? undefined : out);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        const items: InputItem[] = [];
        reader.read(splitter.end(), items);
        reader.end(items);
        let out = run(items);
        out += textOf(stage.fileEnd?.(file, splitter.lastLine));
        out += textOf(stage.finish?.());
        done(null, out === "" ? undefined : out);
      } catch (err) {
        done(err as Error);
      }
    },
  });
  return Object.assign(t, { exitCode: () => reporter.code });
}

/** A stage's output as one string (this transform writes text). */
function textOf(out: string | Buffer | Iterable<string> | undefined): string {
  if (out === undefined || typeof out === "string") return out ?? "";
  if (Buffer.isBuffer(out)) return out.toString();
  return [...out].join("");
}

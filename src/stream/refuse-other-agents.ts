import type { Reporter } from "../diagnostics.js";
import { otherAgentFormat } from "../dialects/cursor/other-agents.js";
import { DEFAULT_DIALECT, DIALECTS, dialectFor } from "../dialects/index.js";
import { ExitCode } from "../exit-codes.js";
import type { RawSkip, SoundLine } from "../input/raw-skip.js";
import type { JsonRecord, Problem } from "../input/record.js";
import { joinPieces, type Stage } from "./stage.js";

/** Text lines held while a file's first event is awaited, at most (then they go through). */
const HOLD_MAX = 64;

/** What cursorlog reads, as the refusal says it: the command line of each agent with a dialect. */
const READS = ((all: string[]) => (all.length < 2 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all.at(-1)!}`))(DIALECTS.map((d) => d.writtenBy).reverse());

/**
 * The format of a file's first event when it is an agent's cursorlog has no dialect for (Codex's
 * stream of before Oct 2025, look-alikes of the agents it reads: dialects/cursor/other-agents.ts),
 * else undefined: one a dialect recognises is read (Claude Code's, Codex's, Gemini CLI's).
 */
function unreadFormat(ev: JsonRecord["value"]): ReturnType<typeof otherAgentFormat> {
  const other = otherAgentFormat(ev);
  return other !== undefined && dialectFor(ev) === DEFAULT_DIALECT ? other : undefined;
}

/**
 * `skip`, but a file's first sound line is read whole when that file is to be refused: the skip of
 * the dialect that would read it (cursor-agent's, which drops assistant lines for `json`) would
 * hide that line, and the refusal decide on the next (a Qwen Code capture opening with an
 * assistant line calling a Gemini CLI tool, read as cursor-agent's). That line is parsed only
 * when the skip would take it.
 */
function firstEventWhole(skip: RawSkip): RawSkip {
  return {
    // Asked only of a splitter that does not ask forFile (none in cursorlog): as the skip.
    test: (line) => skip.test(line),
    forFile(): RawSkip {
      const own = skip.forFile?.() ?? skip;
      let firstBuf: Buffer | undefined;
      let firstStart = -1;
      let past = false;
      let refused: boolean | undefined;
      const isFirst = (line: SoundLine): boolean => {
        if (past) return false;
        if (firstBuf === undefined) {
          firstBuf = line.buf;
          firstStart = line.start;
        } else if (line.buf !== firstBuf || line.start !== firstStart) past = true;
        return !past;
      };
      const whole = (line: SoundLine): boolean => {
        if (refused === undefined) {
          try {
            refused = unreadFormat(JSON.parse(line.buf.toString("utf8", line.start, line.end)) as JsonRecord["value"]) !== undefined;
          } catch {
            refused = false;
          }
        }
        return refused;
      };
      /** `decide`, but undone (the line read whole) for a file's first line when the file is to be refused. */
      const guarded =
        <T>(decide: (line: SoundLine) => T | undefined) =>
        (line: SoundLine): T | undefined => {
          const first = isFirst(line);
          const d = decide(line);
          return d !== undefined && first && whole(line) ? undefined : d;
        };
      const out: RawSkip = { test: guarded((line) => own.test(line)) };
      if (own.keep !== undefined) out.keep = guarded(own.keep.bind(own));
      if (own.shorten !== undefined) out.shorten = guarded(own.shorten.bind(own));
      return out;
    },
  };
}

/**
 * Wraps a command's stage: a file whose first event is an agent's cursorlog has no dialect for
 * (Codex's stream of before Oct 2025, the look-alikes Qwen Code and Amp) is refused with one
 * line naming the format (exit 2), and nothing of it reaches the stage (its first line read whole
 * for that: firstEventWhole); the next file is read. The agent CLI's text lines before a file's first
 * event are held until that event decides (64 at most: past that, they and the ones after them
 * go through in the order written). `forced` (`--agent`): every file is read in that agent's
 * dialect, none refused.
 */
export function refuseOtherAgents(inner: Stage, reporter: Reporter, forced?: string): Stage {
  if (forced !== undefined) return inner;
  /** The file being read has had its first event; `foreign`: it was another agent's. */
  let decided = false;
  let foreign = false;
  let held: Problem[] = [];
  /** More than HOLD_MAX text lines came before the first event: they went through, in order. */
  let overflowed = false;

  function release(): string | undefined {
    let out: string | undefined;
    for (const p of held) {
      const text = inner.said ? inner.said(p) : reporter.said(p);
      if (text !== undefined) out = (out ?? "") + text;
    }
    held = [];
    return out;
  }

  const stage: Stage = {
    record(rec: JsonRecord) {
      if (!decided) {
        decided = true;
        const other = unreadFormat(rec.value);
        if (other !== undefined) {
          foreign = true;
          held = [];
          reporter.report({
            severity: "error",
            file: rec.file,
            line: rec.line,
            message: `this is ${other.name} (${other.sign}), not cursor-agent's: cursorlog reads the logs of ${READS}`,
            code: ExitCode.USAGE_OR_IO,
          });
          return undefined;
        }
        const before = release();
        const text = inner.record(rec);
        if (before === undefined) return text;
        if (text === undefined) return before;
        if (typeof text === "string") return before + text;
        return Buffer.isBuffer(text) ? Buffer.concat([Buffer.from(before), text]) : joinPieces([before, text]);
      }
      return foreign ? undefined : inner.record(rec);
    },
    said(p: Problem) {
      if (foreign) return undefined;
      if (!decided && !overflowed) {
        if (held.length < HOLD_MAX) {
          held.push(p);
          return undefined;
        }
        // Past HOLD_MAX the lines go through, the held ones first: in the order they were written.
        overflowed = true;
        const before = release();
        const text = inner.said ? inner.said(p) : reporter.said(p);
        return before === undefined ? text : before + (text ?? "");
      }
      return inner.said ? inner.said(p) : reporter.said(p);
    },
    fileEnd(file: string, lastLine: number, unreadable?: boolean) {
      const wasForeign = foreign;
      decided = false;
      foreign = false;
      overflowed = false;
      if (wasForeign) return undefined;
      const before = release();
      const text = inner.fileEnd?.(file, lastLine, unreadable);
      return before === undefined ? text : joinPieces([before, text ?? ""]);
    },
  };
  if (inner.skip !== undefined) stage.skip = firstEventWhole(inner.skip);
  if (inner.keys !== undefined) stage.keys = inner.keys;
  if (inner.ready !== undefined) {
    // Nothing of a file refused reaches the stage: it waits for none of it.
    const ready = inner.ready.bind(inner);
    stage.ready = (rec) => (foreign || (!decided && unreadFormat(rec.value) !== undefined) ? undefined : ready(rec));
  }
  if (inner.finish !== undefined) stage.finish = inner.finish.bind(inner);
  // show's live line writes between events, through the Transform (stage.ts).
  if (inner.attach !== undefined) stage.attach = inner.attach.bind(inner);
  if (inner.problem !== undefined) {
    const problem = inner.problem.bind(inner);
    stage.problem = (p) => (foreign && p.kind === "malformed" ? undefined : problem(p));
  }
  return stage;
}

import type { RawSkip, SoundLine } from "../input/raw-skip.js";
import type { JsonObject, JsonRecord } from "../input/record.js";
import type { AgentId, AgentSaid, Run, Step } from "../model/run.js";
import { claudeDialect } from "./claude/reader.js";
import { codexDialect } from "./codex/reader.js";
import { cursorDialect } from "./cursor/reader.js";
import { geminiDialect } from "./gemini/reader.js";
import type { Dialect, DialectReader, ReaderOptions } from "./dialect.js";
import { otherAgentFormat } from "./cursor/other-agents.js";

/**
 * The dialects cursorlog reads, in the order a file's first event is tried against them: the
 * first that recognises it reads the file. cursor-agent's comes last: it takes any event no other
 * dialect claims (its own lines carry no mark of their own). A new agent's dialect
 * (src/dialects/<agent>/) is added here; nothing above the model changes.
 */
export const DIALECTS: readonly Dialect[] = [claudeDialect, codexDialect, geminiDialect, cursorDialect];

/** The dialect that reads a file no dialect recognises (cursor-agent's: cursorlog's first format). */
export const DEFAULT_DIALECT: Dialect = cursorDialect;

/** The agents `--agent` names, in DIALECTS' order. */
export const AGENTS: readonly AgentId[] = DIALECTS.map((d) => d.agent);

/** The dialect of an agent, when cursorlog has one (`--agent` names it). */
export function dialectOf(agent: AgentId): Dialect | undefined {
  return DIALECTS.find((d) => d.agent === agent);
}

/** The dialect `--agent` forced (its name, as options carry it: jobs hand options to workers), or undefined: each file's own. */
export function forcedDialect(agent: string | undefined): Dialect | undefined {
  return agent === undefined ? undefined : DIALECTS.find((d) => d.agent === agent);
}

/**
 * THE RULE for which dialect reads a file: the first of DIALECTS that recognises the file's
 * first event, else the dialect of the agent whose shape it has (cursor/other-agents.ts), else
 * DEFAULT_DIALECT. Decided once per file, at its first event: the reader
 * (autoReader) and the skip of raw lines (skipByDialect) apply it alike.
 */
export function dialectFor(ev: JsonObject): Dialect {
  for (const d of DIALECTS) if (d !== DEFAULT_DIALECT && d.recognise(ev) === true) return d;
  // An event no dialect claims outright but that has another agent's shape (a Gemini CLI init
  // without its timestamp, a Codex event of an unknown type): that agent's dialect reads it,
  // rather than cursor-agent's reading it wrong or the refusal naming a format cursorlog reads.
  const other = otherAgentFormat(ev)?.agent;
  const d = other === undefined ? undefined : DIALECTS.find((x) => x.agent === other);
  return d ?? DEFAULT_DIALECT;
}

/** The agent CLI's text held, for a file whose dialect is not decided yet: the first lines whole, then a count. */
const HELD_MAX = 64;

/**
 * A reader of an input whose files may be of different dialects (a folder of Cursor and Claude
 * Code logs): each file is read by the dialect of its first event (dialectFor), its runs numbered
 * across the whole input. The agent CLI's text before a file's first event waits for the
 * decision (as it waits for the file's next run in any dialect).
 */
class AutoReader implements DialectReader {
  private readonly readers = new Map<Dialect, DialectReader>();
  /** The reader of the file being read; undefined until its first event. */
  private current: DialectReader | undefined;
  /** The reader of the file that ended last (its unclaimed text). */
  private last: DialectReader | undefined;
  private held: Array<[file: string, line: number, text: string]> = [];
  private heldMore = 0;
  private runs = 0;

  constructor(private readonly opts: ReaderOptions) {}

  private readerOf(d: Dialect): DialectReader {
    let r = this.readers.get(d);
    if (r === undefined) {
      const next = this.opts.nextRunIndex ?? (() => ++this.runs);
      r = d.reader({ ...this.opts, nextRunIndex: next });
      this.readers.set(d, r);
    }
    return r;
  }

  private decide(d: Dialect): DialectReader {
    const r = (this.current = this.readerOf(d));
    for (const [file, line, text] of this.held) r.said(file, line, text);
    const lastHeld = this.held[this.held.length - 1];
    // Past the lines held whole, only their number matters (a run keeps the first and a count).
    if (lastHeld !== undefined) for (let k = 0; k < this.heldMore; k++) r.said(lastHeld[0], lastHeld[1], lastHeld[2]);
    this.held = [];
    this.heldMore = 0;
    return r;
  }

  read(rec: JsonRecord): Step {
    return (this.current ?? this.decide(dialectFor(rec.value))).read(rec);
  }

  said(file: string, line: number, text: string): Run | undefined {
    if (this.current !== undefined) return this.current.said(file, line, text);
    if (this.held.length < HELD_MAX) this.held.push([file, line, text]);
    else this.heldMore++;
    return undefined;
  }

  endFile(lastLine: number): Run | undefined {
    const r = this.current ?? this.decide(DEFAULT_DIALECT);
    this.current = undefined;
    this.last = r;
    return r.endFile(lastLine);
  }

  unclaimed(): AgentSaid | undefined {
    return this.last?.unclaimed();
  }
}

/** A reader that reads each file in its own dialect (dialectFor). */
export function autoReader(opts: ReaderOptions): DialectReader {
  return new AutoReader(opts);
}

/**
 * The raw-line skip of an output whose input may mix dialects: each file's lines are skipped by
 * the skip `skipFor` gives its dialect, decided from the file's first sound line as dialectFor
 * decides (until then, nothing is skipped). One JSON.parse per file; the rest is the dialect's own skip.
 */
export function skipByDialect(skipFor: (d: Dialect) => RawSkip | undefined): RawSkip {
  const made = new Map<Dialect, RawSkip | undefined>();
  const of = (d: Dialect): RawSkip | undefined => {
    if (!made.has(d)) made.set(d, skipFor(d));
    return made.get(d);
  };
  return {
    // Asked only of a splitter that does not ask forFile (none in cursorlog): skip nothing.
    test: () => undefined,
    forFile(): RawSkip {
      let skip: RawSkip | undefined;
      let decided = false;
      const decide = (line: SoundLine): RawSkip | undefined => {
        let v: unknown;
        try {
          v = JSON.parse(line.buf.toString("utf8", line.start, line.end));
        } catch {
          return undefined;
        }
        decided = true;
        return (skip = of(dialectFor(v as JsonObject)));
      };
      return {
        test: (line) => (decided ? skip : decide(line))?.test(line),
        keep: (line) => (decided ? skip : decide(line))?.keep?.(line),
        shorten: (line) => (decided ? skip : decide(line))?.shorten?.(line),
      };
    },
  };
}

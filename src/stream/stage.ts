import type { RawSkip } from "../input/raw-skip.js";
import type { JsonRecord, Problem } from "../input/record.js";

/**
 * One conversion, free of streams: called with each parsed event in order, it returns the text to
 * write (or nothing). `fileEnd` closes a file's last session; `finish` runs once at the very end.
 * `toTransform` makes a Node Transform out of it.
 */
export interface Stage {
  /** Text to write, or bytes to write unchanged (a kept raw line). */
  record(rec: JsonRecord): string | Buffer | undefined;
  /**
   * `lastLine`: the file's last physical line (lines the stage never saw count too). `unreadable`:
   * the file could not be read (reported already), so that it held no session says nothing more.
   */
  fileEnd?(file: string, lastLine: number, unreadable?: boolean): string | undefined;
  /** Lines this stage does not need, decided from raw bytes; they are never decoded or parsed. */
  skip?: RawSkip;
  finish?(): string | undefined;
  /**
   * A stage that reports input problems itself (validate: in its own diagnostic format, going on
   * past them) defines this; otherwise problems go to the Reporter. Return text for stdout.
   */
  problem?(p: Problem): string | undefined;
  /**
   * A line that is the agent CLI's own message (Problem kind `said`): never fatal. A stage that
   * ties it to its session defines this; otherwise the Reporter warns of it on stderr.
   */
  said?(p: Problem): string | undefined;
}

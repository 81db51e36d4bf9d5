import type { RawSkip } from "../input/raw-skip.js";
import type { JsonRecord, Problem } from "../input/record.js";

/**
 * One conversion, free of streams: called with each parsed event in order, it returns the text to
 * write (or nothing). `fileEnd` closes a file's last session; `finish` runs once at the very end.
 * `toTransform` makes a Node Transform out of it.
 */
export interface Stage {
  /**
   * Text to write, or bytes to write unchanged (a kept raw line), or much text as pieces (see
   * `finish`; timeline's rows of the calls still open when a session ends).
   */
  record(rec: JsonRecord): string | Buffer | Iterable<string> | undefined;
  /**
   * `lastLine`: the file's last physical line (lines the stage never saw count too). `unreadable`:
   * the file could not be read (reported already), so that it held no session says nothing more.
   */
  fileEnd?(file: string, lastLine: number, unreadable?: boolean): string | Iterable<string> | undefined;
  /**
   * Asked before `record` for each event: a promise when the stage must wait for something before
   * it can take this event (validate loads the schemas of a file's dialect at the file's first
   * event), which is handed to `record` once the promise settles; undefined to go on at once.
   */
  ready?(rec: JsonRecord): Promise<void> | undefined;
  /** Lines this stage does not need, decided from raw bytes; they are never decoded or parsed. */
  skip?: RawSkip;
  /** The stage reads JsonRecord.keys (validate's duplicate keys): the scanner counts them. */
  keys?: true;
  /**
   * The text written at the end. Long work (the HTML page of a million calls) returns it as an
   * Iterable of pieces instead: the writer lets the event loop run between them (an empty piece
   * is only a pause), so a signal takes effect within a second, and holds no more than a piece.
   */
  finish?(): string | Iterable<string> | undefined;
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
  /**
   * For a stage that writes between events (show's live line of a call still running, on a
   * timer): called once with a function that writes text after everything returned so far.
   */
  attach?(push: (text: string) => void): void;
}

/** Text in order from strings and pieces: one string while there are no pieces, else the pieces. */
export function joinPieces(parts: ReadonlyArray<string | Iterable<string>>): string | Iterable<string> {
  if (parts.every((p) => typeof p === "string")) return (parts as string[]).join("");
  return (function* () {
    for (const p of parts) {
      if (typeof p === "string") {
        if (p !== "") yield p;
      } else yield* p;
    }
  })();
}

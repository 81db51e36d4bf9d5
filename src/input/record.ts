/** A parsed JSON object from the input, and where it came from. */
export type JsonObject = Record<string, unknown>;

interface RecordBase {
  /** Input name as given on the command line, `<stdin>` for standard input. */
  file: string;
  /** 1-based physical line where the value starts. */
  line: number;
  /** The line exactly as read (without its line terminator). Compact JSON for multi-line values. */
  text: string;
  value: JsonObject;
}

/**
 * A line read in full: decoded and parsed. (The members of the other kinds are `undefined` here,
 * so that a test of one of them tells the kinds apart.)
 */
export interface ParsedRecord extends RecordBase {
  skipped?: undefined;
  shortened?: undefined;
  lastLine?: undefined;
  raw?: undefined;
  /**
   * The line is not valid UTF-8: `text` was decoded with U+FFFD in place of each bad sequence, and
   * these are its bytes as read (without the line terminator), for filter to write and validate
   * to report. Only on a line read alone (not a value reassembled over several lines).
   */
  bytes?: Buffer;
  /**
   * The number of object keys the line holds, at every depth, repeated ones included (asked for by
   * the stage: Stage.keys). More than the value has: the line repeats a key in an object.
   */
  keys?: number;
  /**
   * The value was not alone on its line: pretty-printed over several lines, or one of several on a
   * line. The token parser put it together; `text` is its compact JSON. (validate reports it.)
   */
  reassembled?: true;
}

/**
 * A tool call the command reads only some members of (RawSkip.shorten): `text` and `value` have
 * the call's other long strings cut to their beginning.
 */
export interface ShortenedRecord extends RecordBase {
  shortened: true;
  skipped?: undefined;
  lastLine?: undefined;
  raw?: undefined;
  bytes?: undefined;
  keys?: number;
  reassembled?: undefined;
}

/**
 * A line the command said it does not need (Stage.skip): checked for structure but neither
 * decoded nor parsed; `value` is just `{type}` (or the small stand-in the skip gave) and `text`
 * is empty.
 */
export interface SkippedRecord extends RecordBase {
  skipped: true;
  shortened?: undefined;
  /** It stands for the consecutive lines `line` to `lastLine`, all of its type (a run of thinking deltas the command does not read is one record). */
  lastLine?: number;
  /** When the command keeps the line whole (RawSkip.keep): its bytes, LF included. */
  raw?: Buffer;
  bytes?: undefined;
  keys?: undefined;
  reassembled?: undefined;
}

/** A line of the input as a stage gets it: read in full, read shortened, or skipped. */
export type JsonRecord = ParsedRecord | ShortenedRecord | SkippedRecord;

/**
 * Something wrong with the input. `kind` decides the exit status (see exit-codes.ts). `said`: a
 * line that does not begin like JSON (no `{`, `[` or `"` after blanks) is the agent CLI's own
 * message (stderr merged into the capture, `2>&1`): `message` is the line, never fatal.
 */
export interface Problem {
  kind: "malformed" | "io" | "said";
  file: string;
  /** 1-based line, when the problem is at a line. */
  line?: number;
  message: string;
  /**
   * Reported as a warning, not an error, though its kind still decides the exit status: an `io`
   * warning is gzip's "trailing garbage ignored" (everything before the garbage was read).
   */
  warning?: true;
}

export type InputItem = JsonRecord | Problem;

export function isProblem(item: InputItem): item is Problem {
  return (item as Problem).kind !== undefined;
}

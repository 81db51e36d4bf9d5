/**
 * Thrown while a stage handles one line when that line, not the run, cannot be processed (a
 * `--where` regex that would cost too much on it). toTransform reports it at the line's position
 * as it reports a malformed line: exit status 5, fatal unless --lenient, which skips the line.
 */
export class LineError extends Error {
  override name = "LineError";
}

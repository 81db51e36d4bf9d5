/**
 * JSON.parse survives millions of levels of nesting, but recursive code after it (JSON.stringify,
 * a schema validator) runs out of stack long before: V8 throws a RangeError. Such a line is
 * reported at its position, as a malformed one is, instead of ending the run with no position.
 */
export const TOO_DEEP = "the JSON value is nested too deeply to process (thousands of levels)";

export function isTooDeep(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/** The one exit-code table (README "EXIT STATUS"). Only src/cli/main.ts turns these into a process status. */
export const ExitCode = {
  OK: 0,
  /** The answer is "no": validate found invalid lines, filter -e matched nothing, a result has is_error:true. */
  NEGATIVE: 1,
  /** Usage error, or an input that could not be read (missing file, directory, corrupt gzip). */
  USAGE_OR_IO: 2,
  /** A schema does not compile. */
  SCHEMA: 3,
  /** A session ended without its terminal `result` event (crash, kill, truncated log). */
  INCOMPLETE: 4,
  /** A line of input is not a JSON object, or one that cannot be processed (too deep, a --where regex too costly on it). */
  MALFORMED: 5,
  /** Interrupted by SIGINT / SIGTERM (shell convention 128 + signal). */
  SIGINT: 130,
  SIGTERM: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** When several things went wrong, the most severe one decides the status. */
const severity: Record<number, number> = { 0: 0, 1: 1, 4: 2, 5: 3, 3: 4, 2: 5, 130: 6, 143: 6 };

export function worse(a: ExitCode, b: ExitCode): ExitCode {
  return (severity[b] ?? 0) > (severity[a] ?? 0) ? b : a;
}

/**
 * Output that cannot be written (a full disk, a closed descriptor, a full temporary folder) is an
 * error of the run, status 2, never taken for a reader that went away. These helpers say what
 * went wrong in the words of the system, without Node's `ENOSPC: …, write` wrapping.
 */

/** `no space left on device` from `ENOSPC: no space left on device, write`. */
export function describeWriteError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.message !== "string") return String(err);
  const m = /^[A-Z0-9_]+: (.*?)(?:, [a-z]+(?: '.*')?)?$/s.exec(e.message);
  return m && e.code !== undefined && e.message.startsWith(`${e.code}: `) ? m[1]! : e.message;
}

/** A write to our output failed for another reason than a closed pipe: the run ends with status 2 and this message. */
export class OutputError extends Error {
  constructor(
    readonly what: string,
    override readonly cause: unknown,
  ) {
    super(`cannot write ${what}: ${describeWriteError(cause)}`);
  }
}

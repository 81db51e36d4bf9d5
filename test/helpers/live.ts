import { PassThrough, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { main } from "../../src/cli/main.js";

export interface LiveRun {
  /** The pipe cursorlog reads: write lines to it while it runs, then end() it. */
  stdin: PassThrough;
  /** main's exit status, once the input has ended. */
  done: Promise<number>;
}

/**
 * `cursorlog argv` in-process on a live pipe (no TTY, empty env, stderr dropped), for checking what
 * it writes before the input ends: each piece of stdout is handed to `onOut` as it is written.
 */
export function runLive(argv: string[], onOut: (text: string) => void): LiveRun {
  const stdin = new PassThrough();
  const stdout = new Writable({
    write(chunk: Buffer, _enc, cb) {
      onOut(chunk.toString("utf8"));
      cb();
    },
  });
  const done = main(argv, { stdin, stdout, stderr: new PassThrough(), env: {}, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false });
  return { stdin, done };
}

/** Polls every 5 ms until `ready()` or `ms` have passed (a loaded machine may be slow); the caller asserts after. */
export async function until(ready: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end && !ready(); ) await sleep(5);
}

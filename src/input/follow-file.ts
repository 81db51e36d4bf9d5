import { open } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

const RESULT = Buffer.from('{"type":"result"');

/**
 * `--follow`: the bytes of a file that is still being written, as `tail -f` reads them. At the
 * end of what is there it waits and reads again, until the last complete line is a `result`
 * event (the run is over: cursor-agent writes nothing after it) or the user interrupts.
 */
export async function* followFile(path: string, pollMs = 150): AsyncGenerator<Buffer> {
  const fh = await open(path, "r");
  let pos = 0;
  // The first bytes of the last complete line, and of the line being written.
  let last = Buffer.alloc(0);
  let current = Buffer.alloc(0);
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(1 << 20);
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        const chunk = buf.subarray(0, bytesRead);
        const nl = chunk.lastIndexOf(10);
        if (nl >= 0) {
          const prev = chunk.lastIndexOf(10, nl - 1);
          last = prev >= 0 ? Buffer.from(chunk.subarray(prev + 1, Math.min(nl, prev + 1 + RESULT.length))) : Buffer.concat([current, chunk.subarray(0, Math.min(nl, RESULT.length))]).subarray(0, RESULT.length);
          current = Buffer.from(chunk.subarray(nl + 1, Math.min(bytesRead, nl + 1 + RESULT.length)));
        } else if (current.length < RESULT.length) {
          current = Buffer.concat([current, chunk.subarray(0, RESULT.length - current.length)]);
        }
        yield chunk;
        continue;
      }
      if (current.length === 0 && last.equals(RESULT)) return;
      await sleep(pollMs);
    }
  } finally {
    await fh.close();
  }
}

// Run by test/open-calls-memory.test.ts as
// `node --expose-gc --import tsx THIS N ARGS_BYTES [MAX_OPEN] [-- N ARGS_BYTES [MAX_OPEN]]...`:
// for each group, feeds N `started` events (each with ARGS_BYTES of shell command and the usual
// other args) to a new SessionTracker, none completing, and prints the heap kept per open call
// after a full gc, and the heap the call ids alone take, as JSON: one line per group, in order.
// (The groups share one process, which saves a start of Node and tsx per group; each measures
// from a full gc after the one before it has let go of everything.)
import { SessionTracker } from "../../src/dialects/cursor/sessions.js";
import { callId as id, fillerOf, gc, runGroups, startedLine } from "./heap-measure.js";

function measure(n: number, argsBytes: number, maxOpen: number | undefined): string {
  const filler = fillerOf(argsBytes);
  let tracker: SessionTracker | undefined = new SessionTracker(maxOpen === undefined ? {} : { maxOpen });
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) {
    const text = startedLine(i, filler, "s", true);
    tracker.observe({ file: "f.ndjson", line: i + 1, text, value: JSON.parse(text) });
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  const session = tracker.endFile();
  let ids: string[] | undefined = Array.from({ length: n }, (_, i) => id(i));
  gc();
  const withIds = process.memoryUsage().heapUsed;
  const line = JSON.stringify({ perCall: (after - before) / n, perId: (withIds - after) / n, kept: session?.open.size, counted: session?.untracked, idsKept: ids.length });
  // Let go of all of it before the next group measures.
  tracker = undefined;
  ids = undefined;
  return line;
}

runGroups(([n, argsBytes, maxOpen]) => measure(n!, argsBytes!, maxOpen));

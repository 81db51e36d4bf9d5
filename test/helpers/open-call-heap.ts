// Run by test/open-calls-memory.test.ts as
// `node --expose-gc --import tsx THIS N ARGS_BYTES [MAX_OPEN] [-- N ARGS_BYTES [MAX_OPEN]]...`:
// for each group, feeds N `started` events (each with ARGS_BYTES of shell command and the usual
// other args) to a new SessionTracker, none completing, and prints the heap kept per open call
// after a full gc, and the heap the call ids alone take, as JSON: one line per group, in order.
// (The groups share one process, which saves a start of Node and tsx per group; each measures
// from a full gc after the one before it has let go of everything.)
import { SessionTracker } from "../../src/dialects/cursor/sessions.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");
const id = (i: number) => `call-${i.toString(16).padStart(8, "0")}-0\nfc_${i.toString(16).padStart(8, "0")}`;

function measure(n: number, argsBytes: number, maxOpen: number | undefined): string {
  const filler = "x".repeat(Math.max(0, argsBytes - 20));
  let tracker: SessionTracker | undefined = new SessionTracker(maxOpen === undefined ? {} : { maxOpen });
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) {
    const text = JSON.stringify({
      type: "tool_call",
      subtype: "started",
      call_id: id(i),
      tool_call: { shellToolCall: { args: { command: `echo ${i} ${filler}`, workingDirectory: "/w", timeout: 30000, toolCallId: id(i) } }, toolCallId: id(i), startedAtMs: "1767225600000" },
      model_call_id: "b1e2c3d4-0a9b-4c8d-8e7f-123456789abc-0-ab1z",
      session_id: "s",
      timestamp_ms: 1767225600000 + i,
    });
    tracker.observe({ file: "f.ndjson", line: i + 1, text, value: JSON.parse(text) });
  }
  gc!();
  const after = process.memoryUsage().heapUsed;
  const session = tracker.endFile();
  let ids: string[] | undefined = Array.from({ length: n }, (_, i) => id(i));
  gc!();
  const withIds = process.memoryUsage().heapUsed;
  const line = JSON.stringify({ perCall: (after - before) / n, perId: (withIds - after) / n, kept: session?.open.size, counted: session?.untracked, idsKept: ids.length });
  // Let go of all of it before the next group measures.
  tracker = undefined;
  ids = undefined;
  return line;
}

const groups: number[][] = [[]];
for (const a of process.argv.slice(2)) {
  if (a === "--") groups.push([]);
  else groups.at(-1)!.push(Number(a));
}
for (const [n, argsBytes, maxOpen] of groups) process.stdout.write(measure(n!, argsBytes!, maxOpen) + "\n");

// Run by test/open-calls-memory.test.ts as `node --expose-gc --import tsx THIS N ARGS_BYTES [MAX_OPEN]`:
// feeds N `started` events (each with ARGS_BYTES of shell command and the usual other args) to a
// SessionTracker, none completing, and prints the heap kept per open call after a full gc, and
// the heap the call ids alone take, as JSON.
import { SessionTracker } from "../../src/events/sessions.js";

const [n, argsBytes, maxOpen] = process.argv.slice(2).map(Number) as [number, number, number | undefined];
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");
const id = (i: number) => `call-${i.toString(16).padStart(8, "0")}-0\nfc_${i.toString(16).padStart(8, "0")}`;
const filler = "x".repeat(Math.max(0, argsBytes - 20));
const tracker = new SessionTracker(maxOpen === undefined ? {} : { maxOpen });
gc();
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
gc();
const after = process.memoryUsage().heapUsed;
const session = tracker.endFile();
const ids = Array.from({ length: n }, (_, i) => id(i));
gc();
const withIds = process.memoryUsage().heapUsed;
process.stdout.write(JSON.stringify({ perCall: (after - before) / n, perId: (withIds - after) / n, kept: session?.open.size, counted: session?.untracked, idsKept: ids.length }) + "\n");

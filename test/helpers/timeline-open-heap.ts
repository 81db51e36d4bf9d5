// Run by test/timeline-open-calls-memory.test.ts as
// `node --expose-gc --import tsx THIS N ARGS_BYTES [-- N ARGS_BYTES]...`: for each group, feeds a
// session's init and N `started` events (each with ARGS_BYTES of shell command and the usual other
// args, ids as 2026 logs write them) to a new timeline stage (csv, every column), none completing,
// and prints the heap the stage holds per open call after a full gc, the heap the call ids alone
// take, and what the stage wrote for them at the end of the file (rows, bytes), as JSON: one line
// per group. As test/helpers/open-call-heap.ts measures the SessionTracker alone.
import pc from "picocolors";
import { Reporter } from "../../src/diagnostics.js";
import { TIMELINE_COLUMNS } from "../../src/outputs/timeline/columns.js";
import { toTimelineCsv } from "../../src/outputs/timeline/index.js";
import { callId as id, fillerOf, gc, runGroups, startedLine } from "./heap-measure.js";
const S = "5b8a3c1e-0000-4000-8000-000000000001";

function measure(n: number, argsBytes: number): string {
  const filler = fillerOf(argsBytes);
  const reporter = new Reporter(() => {}, pc.createColors(false), false);
  let stage: ReturnType<typeof toTimelineCsv> | undefined = toTimelineCsv(
    { format: "csv", columns: TIMELINE_COLUMNS, safe: false, header: true, allowIncomplete: true },
    reporter,
  );
  stage.record({ file: "f.ndjson", line: 1, text: "", value: { type: "system", subtype: "init", session_id: S, model: "Auto" } });
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) {
    const text = startedLine(i, filler, S, false);
    stage.record({ file: "f.ndjson", line: i + 2, text, value: JSON.parse(text) });
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  // Flat strings, as JSON.parse makes them (a template literal's result may be a rope of its parts).
  let ids: string[] | undefined = Array.from({ length: n }, (_, i) => JSON.parse(JSON.stringify(id(i))) as string);
  gc();
  const withIds = process.memoryUsage().heapUsed;
  // The rows of the calls still open come at the end of the file, one per call, in pieces.
  const end = stage.fileEnd?.("f.ndjson", n + 1);
  let rows = 0;
  let bytes = 0;
  for (const piece of typeof end === "string" ? [end] : (end ?? [])) {
    bytes += piece.length;
    for (let at = piece.indexOf(",incomplete,"); at >= 0; at = piece.indexOf(",incomplete,", at + 1)) rows++;
  }
  const line = JSON.stringify({ perCall: (after - before) / n, perId: (withIds - after) / n, rows, bytes, idsKept: ids.length });
  stage = undefined;
  ids = undefined;
  return line;
}

runGroups(([n, argsBytes]) => measure(n!, argsBytes!));

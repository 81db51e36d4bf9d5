#!/usr/bin/env node
// A log whose third line is one huge tool result (a shell call's stdout of MIB mebibytes), written
// to stdout as it is generated, so the line never exists in this process's memory:
//
//   node test/stress/long-line-log.mjs 300 | cursorlog filter | wc -c
//
// Line 3 is the long one; the run has a second call after it and a result. `longLineLog(mib)`
// gives the pieces, for tests that need the exact bytes' length.

const S = "s-long";
const UNIT = "0123456789abcd\\n"; // 16 bytes of JSON: an escaped newline in every unit

export function longLineLog(mib) {
  return {
    head:
      JSON.stringify({ type: "system", subtype: "init", session_id: S }) +
      "\n" +
      JSON.stringify({ type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command: "cat big" } } }, session_id: S, timestamp_ms: 1 }) +
      "\n" +
      '{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"cat big"},"result":{"success":{"exitCode":0,"stdout":"',
    unit: UNIT,
    units: (mib * 1024 * 1024) / UNIT.length,
    tail:
      '"}}}},"session_id":"s-long","timestamp_ms":2}\n' +
      JSON.stringify({ type: "tool_call", subtype: "started", call_id: "c2", tool_call: { readToolCall: { args: { path: "after.txt" } } }, session_id: S, timestamp_ms: 3 }) +
      "\n" +
      JSON.stringify({ type: "tool_call", subtype: "completed", call_id: "c2", tool_call: { readToolCall: { args: { path: "after.txt" }, result: { success: { content: "" } } } }, session_id: S, timestamp_ms: 4 }) +
      "\n" +
      JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", session_id: S, duration_ms: 4 }) +
      "\n",
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mib = Number(process.argv[2] ?? 300);
  const { head, unit, units, tail } = longLineLog(mib);
  const out = process.stdout;
  out.on("error", () => process.exit(0)); // the reader went away
  const write = (s) => new Promise((resolve) => (out.write(s) ? resolve() : out.once("drain", resolve)));
  const block = unit.repeat(65536); // 1 MiB
  await write(head);
  let left = units;
  for (; left >= 65536; left -= 65536) await write(block);
  if (left > 0) await write(unit.repeat(left));
  await write(tail);
}

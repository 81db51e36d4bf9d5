#!/usr/bin/env node
// Writes a cursor-agent stream-json log of N runs to stdout, streamed (constant memory), for
// test/runs-memory.test.ts and runs by hand:
//
//   node test/stress/many-runs-log.mjs N
//
// Each run: system/init, the user's prompt, a shell call started and completed, the assistant's
// text, and its result; every 5th run's result has is_error true (failed), every 7th has no result
// (the next init cuts it off). Each run has its own session_id and times.
import { once } from "node:events";

const n = Number(process.argv[2]);
if (!Number.isInteger(n) || n < 0) {
  process.stderr.write("usage: node test/stress/many-runs-log.mjs N\n");
  process.exit(2);
}
const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);

let buf = "";
async function put(obj) {
  buf += JSON.stringify(obj) + "\n";
  if (buf.length > 1 << 16) {
    const ok = process.stdout.write(buf);
    buf = "";
    if (!ok) await once(process.stdout, "drain");
  }
}

for (let i = 1; i <= n; i++) {
  const sid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  const t = T0 + i * 10_000;
  await put({ type: "system", subtype: "init", apiKeySource: "login", cwd: "/home/dev/app", session_id: sid, model: "Claude 4.5 Sonnet", permissionMode: "default" });
  await put({ type: "user", message: { role: "user", content: [{ type: "text", text: `task ${i}` }] }, session_id: sid });
  const call = `call_${i}`;
  const args = { command: "npm test", workingDirectory: "/home/dev/app", timeout: 120000 };
  await put({ type: "tool_call", subtype: "started", call_id: call, tool_call: { shellToolCall: { args } }, session_id: sid, timestamp_ms: t + 10 });
  await put({ type: "tool_call", subtype: "completed", call_id: call, tool_call: { shellToolCall: { args, result: { success: { command: "npm test", workingDirectory: "/home/dev/app", exitCode: 0, stdout: "ok\n", stderr: "", executionTime: 900 } } } }, session_id: sid, timestamp_ms: t + 910 });
  await put({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Done." }] }, session_id: sid, timestamp_ms: t + 950 });
  if (i % 7 === 0) continue;
  await put({ type: "result", subtype: "success", duration_ms: 1000, duration_api_ms: 800, is_error: i % 5 === 0, result: i % 5 === 0 ? "I could not finish." : "Done.", session_id: sid, request_id: `req-${i}`, usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 } });
}
process.stdout.write(buf);

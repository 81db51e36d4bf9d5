#!/usr/bin/env node
// Writes a log of one session with N tool calls to stdout, streamed (constant memory), for the
// memory and time stress runs (stress.sh open, lanes):
//
//   node test/stress/calls-log.mjs N [--open] [--args-bytes B] [--overlap K] [--no-result]
//
// --open: the calls start and never complete (the session then has no result).
// --args-bytes B: each shell call's args carry B bytes of command text (default 40).
// --overlap K: call i runs from i ms to i + K ms, so about K calls are running at once (default 1).
import { once } from "node:events";

const args = process.argv.slice(2);
const n = Number(args[0]);
if (!Number.isInteger(n) || n < 0) {
  process.stderr.write("usage: node test/stress/calls-log.mjs N [--open] [--args-bytes B] [--overlap K] [--no-result]\n");
  process.exit(2);
}
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : Number(args[i + 1]);
};
const open = args.includes("--open");
const argsBytes = opt("--args-bytes", 40);
const overlap = opt("--overlap", 1);
const noResult = open || args.includes("--no-result");
const S = "5b8a3c1e-0000-4000-8000-000000000001";
const t0 = 1767225600000;
const filler = "x".repeat(Math.max(0, argsBytes - 10));

let buf = JSON.stringify({ type: "system", subtype: "init", session_id: S, model: "Auto", cwd: "/w", apiKeySource: "login", permissionMode: "default" }) + "\n";
async function write(s) {
  buf += s;
  if (buf.length < 1 << 20) return;
  const chunk = buf;
  buf = "";
  if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
}
for (let i = 0; i < n; i++) {
  const id = `call-${i.toString(16).padStart(8, "0")}-0\nfc_${i}`;
  const call = { shellToolCall: { args: { command: `echo ${i} ${filler}`, workingDirectory: "/w", timeout: 30000 } } };
  await write(JSON.stringify({ type: "tool_call", subtype: "started", call_id: id, tool_call: call, session_id: S, timestamp_ms: t0 + i }) + "\n");
  if (open) continue;
  // Completed in start order, `overlap` calls later (the last ones at the end).
  const done = i - overlap + 1;
  if (done >= 0) await complete(done);
}
if (!open) for (let d = Math.max(0, n - overlap + 1); d < n; d++) await complete(d);
if (!noResult) {
  await write(JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: n + overlap, duration_api_ms: n + overlap, result: "done", session_id: S, request_id: "r" }) + "\n");
}
process.stdout.write(buf);

async function complete(d) {
  const id = `call-${d.toString(16).padStart(8, "0")}-0\nfc_${d}`;
  const call = { shellToolCall: { result: { success: { exitCode: 0, stdout: "ok", stderr: "" } } } };
  await write(JSON.stringify({ type: "tool_call", subtype: "completed", call_id: id, tool_call: call, session_id: S, timestamp_ms: t0 + d + overlap }) + "\n");
}

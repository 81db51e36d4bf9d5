#!/usr/bin/env node
// Writes a Codex (`codex exec --json`) or Gemini CLI (`gemini -p … --output-format stream-json`)
// log of one run with N shell calls to stdout, streamed (constant memory), in the shapes of
// /work/shared/AGENTS.md §2 and §3 (those of test/fixtures/codex/ and test/fixtures/gemini/), for
// test/other-agents-memory.test.ts and runs by hand:
//
//   node test/stress/agent-calls-log.mjs codex|gemini N [--open]
//
// --open: the calls start and are never answered (the run then has no end).
import { once } from "node:events";

const [agent, count, ...rest] = process.argv.slice(2);
const n = Number(count);
if ((agent !== "codex" && agent !== "gemini") || !Number.isInteger(n) || n < 0) {
  process.stderr.write("usage: node test/stress/agent-calls-log.mjs codex|gemini N [--open]\n");
  process.exit(2);
}
const open = rest.includes("--open");
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const iso = (ms) => new Date(ms).toISOString();

let buf = "";
async function put(obj) {
  buf += JSON.stringify(obj) + "\n";
  if (buf.length > 1 << 16) {
    const ok = process.stdout.write(buf);
    buf = "";
    if (!ok) await once(process.stdout, "drain");
  }
}

if (agent === "codex") {
  await put({ type: "thread.started", thread_id: "01a10250-1fd6-7629-be2d-3f4da109a558" });
  await put({ type: "turn.started" });
  for (let i = 0; i < n; i++) {
    const item = { id: `item_${i}`, type: "command_execution", command: `/bin/bash -lc 'echo ${i} xxxxxxxxxxxxxxxxxxxxxxxx'`, aggregated_output: "", exit_code: null, status: "in_progress" };
    await put({ type: "item.started", item });
    if (!open) await put({ type: "item.completed", item: { ...item, aggregated_output: `${i} xxxxxxxxxxxxxxxxxxxxxxxx\n`, exit_code: 0, status: "completed" } });
  }
  if (!open) {
    await put({ type: "item.completed", item: { id: `item_${n}`, type: "agent_message", text: "Done." } });
    await put({ type: "turn.completed", usage: { input_tokens: 24811, cached_input_tokens: 19200, output_tokens: 612 } });
  }
} else {
  await put({ type: "init", timestamp: iso(T0), session_id: "c1e4cb5f-4f0e-45cf-9159-794b2c76ed52", model: "gemini-2.5-pro" });
  await put({ type: "message", timestamp: iso(T0 + 1), role: "user", content: "run the commands" });
  for (let i = 0; i < n; i++) {
    const id = `run_shell_command__run_shell_command_${T0 + 10 * i}_${i}`;
    await put({ type: "tool_use", timestamp: iso(T0 + 10 * i + 2), tool_name: "run_shell_command", tool_id: id, parameters: { command: `echo ${i} xxxxxxxxxxxxxxxxxxxxxxxx` } });
    if (!open) await put({ type: "tool_result", timestamp: iso(T0 + 10 * i + 7), tool_id: id, status: "success", output: `${i} xxxxxxxxxxxxxxxxxxxxxxxx` });
  }
  if (!open) {
    await put({ type: "message", timestamp: iso(T0 + 10 * n + 1), role: "assistant", content: "Done.", delta: true });
    await put({ type: "result", timestamp: iso(T0 + 10 * n + 2), status: "success", stats: { total_tokens: 31056, input_tokens: 30110, output_tokens: 476, duration_ms: 10 * n + 2, tool_calls: n } });
  }
}
process.stdout.write(buf);

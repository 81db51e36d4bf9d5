#!/usr/bin/env node
// Writes a Claude Code stream-json log (`claude -p --output-format stream-json --verbose`, the
// shapes of /work/shared/AGENTS.md §1) of one session with N Bash calls to stdout, streamed
// (constant memory), for the memory tests of test/claude-memory.test.ts and runs by hand:
//
//   node test/stress/claude-calls-log.mjs N [--per-line K] [--open] [--args-bytes B] [--no-result]
//
// Late era (2.1.28x, the default): one assistant line per tool_use block, with its ISO
//   `timestamp`, answered by one user line holding its tool_result and `tool_use_result`.
// --per-line K: early era (2.1.15): one assistant line holds K tool_use blocks (and a text block
//   before them), answered by one user line holding their K tool_results; no times anywhere.
// --open: the calls start and are never answered (the session then has no result).
// --args-bytes B: each command is about B bytes long (default 40).
import { once } from "node:events";

const args = process.argv.slice(2);
const n = Number(args[0]);
if (!Number.isInteger(n) || n < 0) {
  process.stderr.write("usage: node test/stress/claude-calls-log.mjs N [--per-line K] [--open] [--args-bytes B] [--no-result]\n");
  process.exit(2);
}
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : Number(args[i + 1]);
};
const perLine = opt("--per-line", 0);
const early = perLine > 0;
const open = args.includes("--open");
const noResult = open || args.includes("--no-result");
const filler = "x".repeat(Math.max(0, opt("--args-bytes", 40) - 12));
const S = "7c1d2e3f-0000-4000-8000-000000000027";
const UUID = "00000000-0000-4000-8000-000000000000";
const t0 = Date.UTC(2026, 9, 1, 12);
const iso = (ms) => new Date(ms).toISOString();
const usage = { input_tokens: 8, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 3, service_tier: "standard" };
const id = (i) => `toolu_${i.toString(16).padStart(8, "0")}${"0".repeat(16)}`;
const command = (i) => `echo ${i} ${filler}`;

let buf = "";
async function write(s) {
  buf += s + "\n";
  if (buf.length < 1 << 20) return;
  const chunk = buf;
  buf = "";
  if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
}

await write(
  JSON.stringify({
    type: "system",
    subtype: "init",
    cwd: "/home/dev/app",
    session_id: S,
    tools: ["Task", "Bash", "Edit", "Read", "Write", "Glob", "Grep"],
    mcp_servers: [],
    model: "claude-haiku-4-5",
    permissionMode: "default",
    apiKeySource: "none",
    claude_code_version: early ? "2.1.15" : "2.1.285",
    uuid: UUID,
  }),
);

function assistant(msg, blocks, at) {
  const ev = { type: "assistant", message: { model: "claude-haiku-4-5", id: msg, type: "message", role: "assistant", content: blocks, stop_reason: early ? "tool_use" : null, usage } };
  if (!early) ev.parent_tool_use_id = null;
  ev.session_id = S;
  ev.uuid = UUID;
  if (at !== undefined) ev.timestamp = iso(at);
  return JSON.stringify(ev);
}

function userLine(blocks, at, toolUseResult) {
  const ev = { type: "user", message: { role: "user", content: blocks } };
  if (!early) ev.parent_tool_use_id = null;
  ev.session_id = S;
  if (!early) ev.uuid = UUID;
  if (at !== undefined) ev.timestamp = iso(at);
  if (toolUseResult !== undefined) ev.tool_use_result = toolUseResult;
  return JSON.stringify(ev);
}

const toolUse = (i) => (early ? { type: "tool_use", id: id(i), name: "Bash", input: { command: command(i), description: "Run it" } } : { type: "tool_use", id: id(i), name: "Bash", input: { command: command(i), description: "Run it" }, caller: { type: "direct" } });
const toolResult = (i) => ({ tool_use_id: id(i), type: "tool_result", content: `${i}`, is_error: false });

if (early) {
  for (let i = 0; i < n; i += perLine) {
    const k = Math.min(perLine, n - i);
    const blocks = [{ type: "text", text: `Running ${k} commands.` }];
    for (let j = 0; j < k; j++) blocks.push(toolUse(i + j));
    await write(assistant(`msg_${i}`, blocks, undefined));
    if (open) continue;
    const results = [];
    for (let j = 0; j < k; j++) results.push(toolResult(i + j));
    await write(userLine(results, undefined, undefined));
  }
} else {
  for (let i = 0; i < n; i++) {
    await write(assistant(`msg_${i}`, [toolUse(i)], t0 + 2 * i));
    if (open) continue;
    await write(userLine([toolResult(i)], t0 + 2 * i + 1, { stdout: `${i}`, stderr: "", interrupted: false, isImage: false, noOutputExpected: false }));
  }
}
if (!noResult) {
  await write(
    JSON.stringify({
      duration_api_ms: 2 * n,
      stop_reason: "end_turn",
      session_id: S,
      total_cost_usd: 1.5,
      usage: { input_tokens: 18, cache_creation_input_tokens: 9721, cache_read_input_tokens: 34862, output_tokens: 176 },
      modelUsage: { "claude-haiku-4-5": { inputTokens: 18, outputTokens: 176, costUSD: 1.5 } },
      permission_denials: [],
      terminal_reason: "completed",
      is_error: false,
      num_turns: n + 1,
      subtype: "success",
      result: "done",
      type: "result",
      duration_ms: 2 * n + 5,
      uuid: UUID,
    }),
  );
}
process.stdout.write(buf);

// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import { heldMemory, MIB, mib, type Measured } from "./helpers/held-memory.js";
import { scaled, STRESS } from "./helpers/scale.js";

// Constant memory for Codex and Gemini CLI logs, as claude-memory.test.ts shows it for Claude
// Code's: a run of N shell calls through text, timeline and json holds the same memory as one of
// N/10; a run whose calls are never answered holds a bounded amount per open call in text and
// timeline (which keep each: its result may still come) and no more past json's cap. Measured as
// there: the built CLI run by test/stress/peak-live.mjs (V8's heap in use plus external memory
// right after full collections, sampled while the run goes on), the log from
// test/stress/agent-calls-log.mjs through a pipe.
//
// Sizes (test/helpers/scale.ts): make test runs 10 000 calls against 1 000 and 10 000 open calls
// against 1 000, each command for one agent or the other (CMDS); make stress every command for
// both, 200 000 against 20 000 and 100 000 open against 10 000.
//
// Why 10 000 calls still catch a leak in make test (as in claude-memory.test.ts): with nothing
// kept, the held memory grows from 1 000 to 10 000 calls by a fixed 0-0.4 MiB (measured for each
// agent and command, read buffers and compiled code), so the bound is 1.5 MiB there (3 in make
// stress): 175 bytes a call over 9 000 calls. A call kept after its result (its id, command, map
// entry: about what an open call holds, a few hundred bytes, bounded below) would add 2.5 MiB or
// more.

const measure0 = heldMemory("agents-mem");
/** Runs `cursorlog ARGS` on the output of `agent-calls-log.mjs GEN` through a pipe, measuring the memory it holds. */
const measure = (args: string[], gen: string[]): Promise<Measured> => measure0(args, ["test/stress/agent-calls-log.mjs", ...gen]);


const CALLS = scaled(10_000, 200_000);
/** What the held memory may grow by from CALLS / 10 to CALLS calls: under 175 bytes a call in make test, 18 in make stress. */
const GROWTH = scaled(1.5, 3) * MIB;
/** The held memory of any of these runs: Node, the bundle, the read buffers. */
const CEILING = 32 * MIB;
const OPEN = scaled(10_000, 100_000);
/** Held per open call, all told (its id, its kept command, the run's map entry, timeline's place). */
const PER_OPEN = 600;

/** The commands measured for each agent, calls answered and open: all in make stress, each once in make test. */
const CMDS: Record<string, { calls: string[]; open: string[] }> = {
  codex: scaled({ calls: ["text", "json"], open: ["timeline"] }, { calls: ["text", "timeline", "json"], open: ["text", "timeline", "json"] }),
  gemini: scaled({ calls: ["timeline"], open: ["text", "json"] }, { calls: ["text", "timeline", "json"], open: ["text", "timeline", "json"] }),
};

for (const agent of ["codex", "gemini"]) {
  test(`${CALLS} ${agent} shell calls in one run: ${CMDS[agent]!.calls.join(", ")} hold the memory of ${CALLS / 10}`, { timeout: STRESS ? 1_800_000 : 600_000 }, async () => {
    for (const cmd of CMDS[agent]!.calls) {
      const small = await measure([cmd], [agent, String(CALLS / 10)]);
      const big = await measure([cmd], [agent, String(CALLS)]);
      const context = `${agent} ${cmd}: ${mib(small.peakLive)} held at ${CALLS / 10} calls, ${mib(big.peakLive)} at ${CALLS}`;
      for (const [n, m] of [[CALLS / 10, small], [CALLS, big]] as const) {
        assert.equal(m.code, 0, `${agent} ${cmd} over ${n} calls: exit ${m.code}\n${m.stderr}`);
        assert.equal(m.stderr, "", `${agent} ${cmd} over ${n} calls`);
        // Every call was read: an action line each (text), a row each and the header (timeline), the result (json).
        const lines = { text: n, timeline: n + 1, json: 1 }[cmd]!;
        assert.equal(m.lines, lines, `${agent} ${cmd} over ${n} calls: ${m.lines} lines out, last ${JSON.stringify(m.last.slice(0, 200))}`);
      }
      assert.ok(big.peakLive < CEILING, `${context}: over ${mib(CEILING)}`);
      assert.ok(big.peakLive - small.peakLive < GROWTH, `${context}: grew by ${mib(big.peakLive - small.peakLive)} (bound ${mib(GROWTH)})`);
    }
  });

  test(`${OPEN} ${agent} calls never answered: ${CMDS[agent]!.open.join(", ")} (text and timeline at most ${PER_OPEN} bytes per open call, json no more than for ${OPEN / 10})`, { timeout: STRESS ? 1_800_000 : 600_000 }, async () => {
    for (const cmd of CMDS[agent]!.open) {
      const args = [cmd, "--allow-incomplete"];
      const small = await measure(args, [agent, String(OPEN / 10), "--open"]);
      const big = await measure(args, [agent, String(OPEN), "--open"]);
      const context = `${agent} ${cmd}: ${mib(small.peakLive)} held at ${OPEN / 10} open calls, ${mib(big.peakLive)} at ${OPEN}`;
      for (const [n, m] of [[OPEN / 10, small], [OPEN, big]] as const) {
        // The run ends cut off, every open call counted: in the message (text), a row each (timeline), the marked object (json).
        if (cmd === "text") assert.match(m.stderr, new RegExp(`has no result: its lines end at line \\d+, ${n} tool calls still open: `), context);
        if (cmd === "timeline") assert.equal(m.lines, n + 1, `${context}: ${m.lines} lines`);
        if (cmd === "json") assert.equal((JSON.parse(m.last) as { incomplete: { open_tool_calls: number } }).incomplete.open_tool_calls, n, context);
      }
      const perCall = (big.peakLive - small.peakLive) / (OPEN - OPEN / 10);
      if (cmd === "json") assert.ok(big.peakLive - small.peakLive < GROWTH, `${context}: grew by ${mib(big.peakLive - small.peakLive)}`);
      else assert.ok(perCall < PER_OPEN, `${context}: ${Math.round(perCall)} bytes per open call (bound ${PER_OPEN})`);
    }
  });
}

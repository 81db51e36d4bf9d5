import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { assistant, init, line, result, started, completed } from "./helpers/events.js";
import { runCli } from "./helpers/run-cli.js";

/** Issue 24, item 19 (and 10's order): show's wrapping and width under attack. */

const SID = "00000000-0000-4000-8000-000000000019";

function tempLog(text: string): { dir: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-show-"));
  const log = join(dir, "run.ndjson");
  writeFileSync(log, text);
  return { dir, log };
}

const WOMAN_CODING = "👩‍💻"; // U+1F469 ZWJ U+1F4BB: one emoji, two columns

test("show never cuts an emoji ZWJ sequence, a flag or a skin tone across lines or in a clipped target", async () => {
  const word = WOMAN_CODING.repeat(15) + "🇫🇷👍🏽";
  const target = `echo ${WOMAN_CODING.repeat(40)}`;
  const { dir, log } = tempLog(
    [
      init(SID),
      assistant(word, { session_id: SID }),
      started(SID, "call_1\nfc_1", "shellToolCall", { command: target }),
      completed(SID, "call_1\nfc_1", "shellToolCall", { args: { command: target }, result: { success: { command: target, exitCode: 0, stdout: "" } } }),
      result(SID, { duration_ms: 5, is_error: false, result: "" }),
    ]
      .map(line)
      .join(""),
  );
  try {
    // 22 columns: eleven emoji a line (a cut by code point put ZWJ at a line's end and 💻 on the next).
    const r = await runCli(["show", "--width", "22", log]);
    assert.equal(r.stderr, "");
    const lines = r.stdout.split("\n");
    const at = lines.indexOf(WOMAN_CODING.repeat(11));
    assert.notEqual(at, -1, r.stdout);
    assert.equal(lines[at + 1], WOMAN_CODING.repeat(4) + "🇫🇷👍🏽");
    // The target keeps 20 columns: whole emoji, then `…`.
    const call = lines.find((l) => l.startsWith("✓ Ran terminal command"));
    assert.equal(call, `✓ Ran terminal command: echo ${WOMAN_CODING.repeat(7)}… · exit 0`);
    for (const l of lines) assert.ok(!l.endsWith("\u200d") && !l.startsWith("\u200d") && !l.startsWith("\u{1f3fd}"), JSON.stringify(l));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("show and diff refuse a width past 99999 columns instead of building a rule that wide", async () => {
  for (const cmd of ["show", "diff"]) {
    for (const w of ["99999999999", "400000000", "100000"]) {
      const r = await runCli([cmd, "-w", w, "examples/session.ndjson"]);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.equal(
        r.stderr,
        `cursorlog: error: option '-w, --width <columns>' argument '${w}' is invalid. expected a whole number of columns from 0 to 99999\nRun 'cursorlog ${cmd} --help' for usage.\n`,
      );
    }
  }
  const wide = await runCli(["show", "-w", "99999", "examples/session.ndjson"]);
  assert.equal(wide.code, 0);
  assert.ok(wide.stdout.startsWith(`━━ Session 1 · 7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01 ${"━".repeat(99999 - 52)}\n`));
});

test("the agent CLI's text before a run's first event keeps its order past 64 lines; show keeps its first and last 10", async () => {
  let text = "";
  for (let i = 1; i <= 70; i++) text += `retry ${i}\n`;
  const { dir, log } = tempLog(text + [init(SID, { model: "Auto" }), result(SID, { duration_ms: 5, is_error: false, result: "" })].map(line).join(""));
  try {
    const r = await runCli(["show", "--width", "0", log]);
    assert.equal(r.stderr, "");
    const said = (i: number): string => `✗ the agent CLI said: retry ${i}`;
    assert.equal(
      r.stdout,
      [
        `━━ Session 1 · ${SID} ━━━`,
        "model Auto",
        `log ${log}:71`,
        "",
        ...Array.from({ length: 10 }, (_, i) => said(i + 1)),
        "✗ the agent CLI said 50 more lines here (lines 11–60), not shown",
        ...Array.from({ length: 10 }, (_, i) => said(61 + i)),
        "",
        "── ✓ finished · 5ms",
        "   the agent CLI's message at line 1 and 69 more · tokens not in log · no tool calls",
        "",
      ].join("\n"),
    );
    // Every command names the first line the agent CLI wrote, not the 65th.
    const j = await runCli(["json", log]);
    assert.equal(j.stderr, `cursorlog: warning (at ${log}:1): the agent CLI said: retry 1 (and 69 more lines)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

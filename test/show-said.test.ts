import assert from "node:assert/strict";
import { test } from "node:test";
import pc from "picocolors";
import { Reporter } from "../src/diagnostics.js";
import type { JsonRecord, Problem } from "../src/input/record.js";
import { toShow, type ShowOptions } from "../src/outputs/show/index.js";

/**
 * A failed run ends with the agent CLI's own text (its stderr merged into the log), no result.
 * The input layer hands such a line over as a Problem of kind "said" (never fatal); show tells it
 * where it occurs, escaped, and counts it in the footer of the run that did not finish.
 */
const S = "5a1c9e3b-77d2-4f0a-9b6e-0c4d2e8f1a23";
const INIT = { type: "system", subtype: "init", cwd: "/app", session_id: S, model: "Auto" };
const USER = { type: "user", message: { role: "user", content: [{ type: "text", text: "build it" }] }, session_id: S };
const SAY = { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Building." }] }, session_id: S };
const RESULT = { type: "result", subtype: "success", duration_ms: 10, is_error: false, result: "Building.", session_id: S };

function run(items: Array<object | string>, format: "text" | "markdown" = "text", file = "run.ndjson"): string {
  const opts: ShowOptions = { format, colors: pc.createColors(false), width: 80, thinking: false, lines: 5, diff: false, exitStatus: false, live: false };
  const s = toShow(opts, new Reporter(() => {}, pc.createColors(false), false));
  let out = "";
  let line = 0;
  for (const it of items) {
    line++;
    if (typeof it === "string") out += s.said({ kind: "said", file, line, message: it } as unknown as Problem) ?? "";
    else out += s.record({ file, line, text: JSON.stringify(it), value: it as JsonRecord["value"] }) ?? "";
  }
  out += s.fileEnd?.(file, line) ?? "";
  out += s.finish?.() ?? "";
  return out;
}

test("the CLI's text at the end of a run that died: shown where it occurs, escaped, and in the footer", () => {
  const out = run([INIT, USER, SAY, "RetriableError: [unavailable] \u001b[31mconnection reset\u001b[0m"]);
  assert.equal(
    out,
    [
      "━━ Session 1 · 5a1c9e3b-77d2-4f0a-9b6e-0c4d2e8f1a23 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━",
      "model Auto · cwd /app",
      "log run.ndjson:1",
      "",
      "> build it",
      "",
      "Building.",
      "",
      "✗ the agent CLI said: RetriableError: [unavailable] \\u001b[31mconnection reset\\u001b[0m",
      "",
      "── ✗ the run did not finish: no result",
      "   the log ends at run.ndjson:4 · the agent CLI's message at line 4 ·",
      "   tokens not in log · no tool calls",
      "",
    ].join("\n"),
  );
});

test("several CLI lines are counted; one before the first event waits for the session's header", () => {
  const out = run(["Warning: update available", INIT, USER, "Error: one", "Error: two"]);
  assert.match(out, /^━━ Session 1 .*\nmodel Auto · cwd \/app\nlog run\.ndjson:2\n\n> build it\n\n✗ the agent CLI said: Warning: update available\n✗ the agent CLI said: Error: one\n✗ the agent CLI said: Error: two\n/);
  assert.match(out, /the agent CLI's message at line 1 and 2 more/);
});

test("a CLI line after a result that no session takes is shown at the end of its file, with where it is", () => {
  const out = run([INIT, USER, SAY, RESULT, "Goodbye"]);
  assert.ok(out.endsWith("── ✓ finished · 10ms\n   tokens not in log · no tool calls\n\n✗ run.ndjson:5: the agent CLI said: Goodbye\n"), JSON.stringify(out));
  assert.doesNotMatch(out, /agent CLI's message at line/);
});

test("markdown: the CLI's text escaped for Markdown and HTML, in the footer too", () => {
  const out = run([INIT, USER, "<img src=x onerror=alert(1)> **boom**"], "markdown");
  assert.match(out, /\n✗ the agent CLI said: \\<img src=x onerror=alert\(1\)\\> \\\*\\\*boom\\\*\\\*\n/);
  assert.match(out, /\*\*✗ the run did not finish: no result\*\* · the log ends at run\.ndjson:3 · the agent CLI's message at line 3 · /);
});

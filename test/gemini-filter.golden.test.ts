// test-run: scaled
// `cursorlog filter` over Gemini CLI logs (issue 28): lines as written, byte for byte; --type is
// the line's own type; --tool, --status and --call-id select calls on the run model (a call's
// tool_use line and the tool_result line that answers it, which names no tool); --since/--until on
// the lines' ISO timestamp. Goldens: test/golden/gemini/filter/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";
import { runCli } from "./helpers/run-cli.js";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) {
  cases.push(
    { name: `gemini/filter/tool-shell-${f}`, argv: ["filter", "--tool", "shell", geminiFixture(f)] },
    { name: `gemini/filter/status-failed-${f}`, argv: ["filter", "--status", "failed", geminiFixture(f)] },
    { name: `gemini/filter/pair-status-refused-${f}`, argv: ["filter", "--pair", "--status", "refused", geminiFixture(f)] },
  );
}
cases.push(
  // --type: the line's own.
  { name: "gemini/filter/type-tool_result-batch", argv: ["filter", "--type", "tool_result", geminiFixture("batch")] },
  { name: "gemini/filter/type-error-warnings", argv: ["filter", "--type", "error", geminiFixture("warnings")] },
  // --tool by Gemini CLI's names and cursorlog's kinds.
  { name: "gemini/filter/tool-read_file-batch", argv: ["filter", "--tool", "read_file", geminiFixture("batch")] },
  { name: "gemini/filter/tool-edit-batch", argv: ["filter", "--tool", "edit", geminiFixture("batch")] },
  { name: "gemini/filter/tool-mcp-webSearch-models", argv: ["filter", "--tool", "mcp", "--tool", "webSearch", geminiFixture("models")] },
  // --status on the model's bins and the agent's words: a failing shell reported success is ok.
  { name: "gemini/filter/status-ok-shell-fails", argv: ["filter", "-c", "--status", "ok", geminiFixture("shell-fails")] },
  { name: "gemini/filter/status-policy_violation-denied", argv: ["filter", "--status", "policy_violation", geminiFixture("denied")] },
  // --call-id, --where, --since/--until.
  { name: "gemini/filter/call-id-batch", argv: ["filter", "--call-id", "glob__glob_1793610002111_3", geminiFixture("batch")] },
  { name: "gemini/filter/where-status-error", argv: ["filter", "--where", "status == error", geminiFixture("denied"), geminiFixture("fatal"), geminiFixture("two-runs")] },
  { name: "gemini/filter/since-until-batch", argv: ["filter", "--since", "2026-11-02T09:00:06Z", "--until", "2026-11-02T09:00:07.5Z", geminiFixture("batch")] },
  { name: "gemini/filter/count-per-file-tool-read", argv: ["filter", "-c", "-H", "--tool", "read", ...GEMINI_FIXTURES.map(geminiFixture)] },
);
goldenTests(cases);

test("filter: every Gemini CLI fixture comes out byte for byte, with no predicate and with one that holds for every line", async () => {
  for (const f of GEMINI_FIXTURES) {
    const path = geminiFixture(f);
    for (const args of [[], ["--where", "type exists"], ["--exclude-type", "no_such_type"]]) {
      const r = await runCli(["filter", ...args, path]);
      assert.equal(r.code, 0, `${f} ${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, readFileSync(path, "utf8"), `${f} ${args.join(" ")}`);
    }
  }
});

test("filter: X and -v X split a Gemini CLI log in two, for the call predicates (on the model) too", async () => {
  for (const f of GEMINI_FIXTURES) {
    const path = geminiFixture(f);
    const lines = readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
    for (const args of [["--tool", "shell"], ["--status", "failed"], ["--tool", "read", "--type", "tool_result"], ["--since", "2026-11-02T09:00:03Z"]]) {
      const kept = (await runCli(["filter", ...args, path])).stdout.split("\n").filter((l) => l !== "");
      const rest = (await runCli(["filter", "-v", ...args, path])).stdout.split("\n").filter((l) => l !== "");
      assert.deepEqual([...kept, ...rest].sort(), [...lines].sort(), `${f} ${args.join(" ")}`);
    }
  }
});

// test-run: scaled
// `cursorlog validate` over Codex logs (issue 28): each file against its own dialect's bundled
// schemas (schemas/codex: every event type and every item type of AGENTS.md §2.2), --strict
// flagging fields no Codex schema names, a web search's duplicated `id` the format's own (not a
// duplicate-key finding), the lifecycle checks that apply (an item never completed, a run with no
// terminal event; a command left open in a run that ended with turn.completed, reaped at exit, a
// warning); every line of every fixture valid (exit 0) but for the run meant to be incomplete; a broken line reported at its file:line; --schema on a copy of the Codex set;
// `cursorlog schema --agent codex`; a folder of Cursor, Claude Code and Codex logs giving what each
// file gives alone. Goldens: test/golden/codex/validate/.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";
import { runCli } from "./helpers/run-cli.js";

/** The fixture meant to be incomplete: an item started and never completed, and no terminal event. */
const INCOMPLETE = new Set(["interrupted"]);
/** A real pattern (AGENTS.md §2.3 bg-bash-reaped-at-exit): a command never completed, turn.completed after it: a warning. */
const REAPED = new Set(["reaped"]);
const DRIFT = "test/fixtures/codex/validate/drift.ndjson";

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push({ name: `codex/validate/${f}`, argv: ["validate", codexFixture(f)] }, { name: `codex/validate/strict-${f}`, argv: ["validate", "--strict", codexFixture(f)] });
}
cases.push(
  { name: "codex/validate/json-interrupted", argv: ["validate", "--format", "json", codexFixture("interrupted")] },
  { name: "codex/validate/github-reaped", argv: ["validate", "--format", "github", codexFixture("reaped")] },
  { name: "codex/validate/no-lifecycle-interrupted", argv: ["validate", "--no-lifecycle", codexFixture("interrupted")] },
  { name: "codex/validate/drift", argv: ["validate", DRIFT] },
  { name: "codex/validate/strict-drift", argv: ["validate", "--strict", DRIFT] },
  { name: "codex/validate/schema-dir-mcp-web", argv: ["validate", "--schema", "schemas/codex", codexFixture("mcp-web"), DRIFT] },
  // Forced readings: a Codex log against cursor-agent's schemas, and Codex's on its own log.
  { name: "codex/validate/agent-cursor-commands", argv: ["validate", "--agent", "cursor", codexFixture("commands")] },
  { name: "codex/validate/agent-codex-forced", argv: ["validate", "--agent", "codex", codexFixture("warnings")] },
  { name: "codex/validate/mixed", argv: ["validate", "test/fixtures/2026-long.ndjson", codexFixture("todo-subagents"), "test/fixtures/claude/hooks-first.ndjson", codexFixture("interrupted"), DRIFT] },
  { name: "codex/validate/schema-list-codex", argv: ["schema", "--agent", "codex", "--list"] },
  { name: "codex/validate/schema-unknown-codex", argv: ["schema", "--agent", "codex", "tool_call"] },
);
goldenTests(cases);

test("validate: every line of every Codex fixture is valid, --strict too; exit 0 but for the run meant to be incomplete (exit 1, lifecycle findings only); the command reaped at exit a warning", async () => {
  for (const f of CODEX_FIXTURES) {
    for (const strict of [[], ["--strict"]]) {
      const r = await runCli(["validate", "--format", "json", ...strict, codexFixture(f)]);
      const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; rule?: string; severity?: string; invalid?: number; lines?: number; valid?: number });
      const summary = lines.at(-1)!;
      assert.equal(summary.invalid, 0, `${f} ${strict.join("")}: ${r.stdout}`);
      assert.equal(summary.valid, summary.lines);
      const rules = lines.filter((l) => l.type === "diagnostic").map((l) => l.rule);
      if (INCOMPLETE.has(f)) {
        assert.equal(r.code, 1, f);
        assert.ok(rules.length > 0 && rules.every((x) => x === "unfinished-call" || x === "no-result"), `${f}: ${rules.join(",")}`);
      } else if (REAPED.has(f)) {
        assert.equal(r.code, 0, `${f}: ${r.stdout}`);
        assert.deepEqual(lines.filter((l) => l.type === "diagnostic").map((l) => `${l.severity} ${l.rule}`), ["warning unfinished-call"], f);
      } else {
        assert.equal(r.code, 0, `${f}: ${r.stdout}`);
        assert.deepEqual(rules, [], f);
      }
    }
  }
});

test("validate: a broken line of a Codex log is reported at its file:line, the lines around it checked as Codex's", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-codex-broken-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const lines = readFileSync(codexFixture("commands"), "utf8").split("\n");
  // Line 8 (npm test's completion) cut in the middle; line 10 without its command.
  lines[7] = lines[7]!.slice(0, 60);
  lines[9] = lines[9]!.replace(/"command":"[^"]*",/, "");
  const file = join(dir, "broken.ndjson");
  writeFileSync(file, lines.join("\n"));
  const r = await runCli(["validate", file]);
  assert.equal(r.code, 1);
  const found = r.stdout.split("\n").filter((l) => l.startsWith(file));
  assert.deepEqual(
    found.map((l) => l.slice(file.length).replace(/ at column \d+/, "")),
    [":8: invalid JSON: Unterminated string (parse)", ":10: /item: must have required property 'command' (required)", ":7: warning: tool call \"item_3\" (command_execution) never completes, its session ends at line 13: the turn completed without it; Codex reaps a command left running in the background when it exits (unfinished-call)"],
  );
});

test("for t in $(cursorlog schema --agent codex --list): a directory of the copies is what validate --schema reads, with the bundled set's findings", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-codex-schemas-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const names = (await runCli(["schema", "--agent", "codex", "--list"])).stdout.trimEnd().split("\n");
  assert.equal(names[0], "codex-event");
  const files = readdirSync("schemas/codex").filter((f) => f.endsWith(".schema.json"));
  assert.deepEqual([...names].sort(), files.map((f) => f.replace(".schema.json", "")).sort(), "every file of schemas/codex");
  for (const n of names) {
    const r = await runCli(["schema", "--agent", "codex", n]);
    assert.equal(r.stdout, readFileSync(`schemas/codex/${n}.schema.json`, "utf8"), n);
    writeFileSync(join(dir, `${n}.schema.json`), r.stdout);
  }
  for (const f of [codexFixture("mcp-web"), DRIFT]) {
    const copy = await runCli(["validate", "--schema", dir, f]);
    const bundled = await runCli(["validate", f]);
    assert.deepEqual([copy.stdout, copy.code], [bundled.stdout, bundled.code], f);
  }
});

test("validate over a folder of Cursor, Claude Code and Codex logs: what each file gives alone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = ["test/fixtures/2026-long.ndjson", codexFixture("mcp-web"), "test/fixtures/claude/tools.ndjson", codexFixture("todo-subagents"), codexFixture("resumed")].map((f, i) => {
    const to = join(dir, `${String(i).padStart(2, "0")}-${basename(f)}`);
    copyFileSync(f, to);
    return to;
  });
  const alone: string[] = [];
  for (const f of files) alone.push(...(await runCli(["validate", "--strict", f])).stdout.split("\n").filter((l) => l.startsWith(dir)));
  const all = await runCli(["validate", "--strict", dir]);
  // The Cursor log's unknown tool kind is --strict's only finding, as alone.
  assert.equal(all.code, 1, all.stdout);
  assert.deepEqual(all.stdout.split("\n").filter((l) => l.startsWith(dir)), alone);
  assert.equal(alone.length, 2);
});

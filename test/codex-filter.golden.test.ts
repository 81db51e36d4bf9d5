// test-run: scaled
// `cursorlog filter` over Codex logs (issue 28): lines as written, byte for byte (a web search's
// duplicated id key too); --type is the line's own (`item.completed`, `turn.completed`, …);
// --tool, --status and --call-id select calls on the run model (the item.started line and the
// item.completed of the same item, an item.updated too); --pair holds a start until its
// completion. Goldens: test/golden/codex/filter/.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";
import { runCli } from "./helpers/run-cli.js";

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push(
    { name: `codex/filter/tool-shell-${f}`, argv: ["filter", "--tool", "shell", codexFixture(f)] },
    { name: `codex/filter/status-failed-${f}`, argv: ["filter", "--status", "failed", codexFixture(f)] },
    { name: `codex/filter/pair-status-refused-${f}`, argv: ["filter", "--pair", "--status", "refused", codexFixture(f)] },
  );
}
cases.push(
  { name: "codex/filter/type-turn-completed-all", argv: ["filter", "--type", "turn.completed", ...CODEX_FIXTURES.map(codexFixture)] },
  { name: "codex/filter/type-item-started-mcp-web", argv: ["filter", "--type", "item.started", codexFixture("mcp-web")] },
  // --tool by Codex's item types and tool names, and by cursorlog's kinds.
  { name: "codex/filter/tool-web_search-mcp-web", argv: ["filter", "--tool", "web_search", codexFixture("mcp-web")] },
  { name: "codex/filter/tool-webFetch-mcp-web", argv: ["filter", "--tool", "webFetch", codexFixture("mcp-web")] },
  { name: "codex/filter/tool-delete-file-changes", argv: ["filter", "--tool", "delete", codexFixture("file-changes")] },
  { name: "codex/filter/tool-updateTodos-todo-subagents", argv: ["filter", "--tool", "updateTodos", codexFixture("todo-subagents")] },
  { name: "codex/filter/tool-spawn_agent-todo-subagents", argv: ["filter", "--tool", "spawn_agent", codexFixture("todo-subagents")] },
  { name: "codex/filter/tool-mcp-count-mcp-web", argv: ["filter", "-c", "--tool", "mcp", codexFixture("mcp-web")] },
  // --status: Codex's own words (declined) and the model's bins (ok, refused).
  { name: "codex/filter/status-declined-commands", argv: ["filter", "--status", "declined", codexFixture("commands")] },
  { name: "codex/filter/status-ok-tool-shell-commands", argv: ["filter", "--status", "ok", "--tool", "shell", codexFixture("commands")] },
  { name: "codex/filter/pair-status-failed-file-changes", argv: ["filter", "--pair", "--status", "failed", codexFixture("file-changes")] },
  // --call-id: an item's id (a file_change's first change has it); ids restart per process: both runs' item_0.
  { name: "codex/filter/call-id-item_1-file-changes", argv: ["filter", "--call-id", "item_1", codexFixture("file-changes")] },
  { name: "codex/filter/call-id-item_0-resumed", argv: ["filter", "--call-id", "item_0", codexFixture("resumed")] },
  { name: "codex/filter/where-exit-code", argv: ["filter", "--where", "item.exit_code > 0", ...CODEX_FIXTURES.map(codexFixture)] },
  // -v: the other lines; -c -H per file.
  { name: "codex/filter/invert-count-tool-shell", argv: ["filter", "-v", "-c", "--tool", "shell", codexFixture("commands")] },
  { name: "codex/filter/count-per-file-tool-shell", argv: ["filter", "-c", "-H", "--tool", "shell", ...CODEX_FIXTURES.map(codexFixture)] },
  // A log without times: --since keeps none of its lines, --until every one (as a Claude Code log before mid-2026).
  { name: "codex/filter/since-commands", argv: ["filter", "-c", "--since", "2026-01-01T00:00Z", codexFixture("commands")] },
  { name: "codex/filter/until-commands", argv: ["filter", "-c", "--until", "2020-01-01T00:00Z", codexFixture("commands")] },
  { name: "codex/filter/agent-codex-tool-shell", argv: ["filter", "--agent", "codex", "--tool", "shell", codexFixture("warnings")] },
);
goldenTests(cases);

const read = (f: string): string => readFileSync(f, "utf8");

test("filter: every Codex fixture comes out byte for byte, with no predicate and with one that holds for every line", async () => {
  for (const f of CODEX_FIXTURES) {
    const path = codexFixture(f);
    for (const args of [[], ["--where", "type exists"], ["--exclude-type", "no_such_type"]]) {
      const r = await runCli(["filter", ...args, path]);
      assert.equal(r.code, 0, `${f} ${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, read(path), `${f} ${args.join(" ")}`);
    }
  }
});

test("filter: X and -v X split a Codex log in two, for the call predicates (on the model) too", async () => {
  for (const f of CODEX_FIXTURES) {
    const path = codexFixture(f);
    const lines = read(path).split("\n").filter((l) => l !== "");
    for (const args of [["--tool", "shell"], ["--status", "failed"], ["--tool", "edit", "--type", "item.completed"], ["--call-id", "item_0"]]) {
      const kept = (await runCli(["filter", ...args, path])).stdout.split("\n").filter((l) => l !== "");
      const rest = (await runCli(["filter", "-v", ...args, path])).stdout.split("\n").filter((l) => l !== "");
      assert.deepEqual([...kept, ...rest].sort(), [...lines].sort(), `${f} ${args.join(" ")}`);
    }
  }
});

test("filter --tool shell keeps a command's item.started and item.completed; --status failed its completion alone", async () => {
  const r = await runCli(["filter", "--tool", "shell", codexFixture("commands")]);
  const kept = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; item: { id: string } });
  assert.deepEqual(kept.map((l) => `${l.type} ${l.item.id}`), ["item.started item_1", "item.completed item_1", "item.started item_3", "item.completed item_3", "item.started item_4", "item.completed item_4", "item.completed item_5"]);
  const failed = (await runCli(["filter", "--status", "failed", codexFixture("commands")])).stdout.trim().split("\n");
  assert.equal(failed.length, 1);
  assert.equal((JSON.parse(failed[0]!) as { item: { exit_code: number } }).item.exit_code, 1);
});

test("filter over a folder of Cursor, Claude Code and Codex logs: what each file gives alone, in order; --jobs 2 the same", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = ["test/fixtures/2026-long.ndjson", codexFixture("commands"), "test/fixtures/claude/tools.ndjson", codexFixture("resumed"), codexFixture("mcp-web")].map((f, i) => {
    const to = join(dir, `${String(i).padStart(2, "0")}-${basename(f)}`);
    copyFileSync(f, to);
    return to;
  });
  for (const args of [[], ["--tool", "shell"], ["--status", "failed"], ["--pair", "--tool", "shell"], ["-v", "--tool", "edit"], ["-H", "--tool", "mcp"]]) {
    let alone = "";
    for (const f of files) alone += (await runCli(["filter", ...args, f])).stdout;
    const together = await runCli(["filter", ...args, dir]);
    assert.equal(together.code, 0, together.stderr);
    assert.equal(together.stdout, alone, `filter ${args.join(" ")} DIR`);
    assert.deepEqual(await runCli(["filter", "--jobs", "2", ...args, dir]), together, `filter --jobs 2 ${args.join(" ")} DIR`);
  }
});

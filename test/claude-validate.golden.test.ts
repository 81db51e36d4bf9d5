// test-run: scaled
// `cursorlog validate` over Claude Code logs (issue 27): each file against its own dialect's
// bundled schemas (schemas/claude-code), --strict flagging fields no Claude Code schema names, the
// lifecycle checks that apply (a call never answered, a run without its result; hooks before the
// init; lines after a result still the run's); every line of every fixture valid (exit 0) but
// those meant to be incomplete; --schema on a copy of the Claude Code set; `cursorlog schema
// --agent claude`; a folder of Cursor and Claude Code logs giving what each file gives alone.
// Goldens: test/golden/claude/validate/.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { runCli } from "./helpers/run-cli.js";
import { quietReporter } from "./helpers/reporter.js";
import { fixtureRecords } from "./helpers/records.js";
import { toValidateReport, type DialectSchemas, type SchemaSetInUse } from "../src/outputs/validate-report/index.js";
import { loadBundledValidators } from "../src/validate/bundled-validators.js";
import { CLAUDE_CODE_ENTRY_ID, CURSOR_ENTRY_ID } from "../src/validate/bundled-schemas.js";
import { textFormat } from "../src/validate/format-text.js";
import { colorsFor } from "../src/cli/config.js";

const C = "test/fixtures/claude";
const FIXTURES = ["after-result", "auth-failure", "background", "cut-off", "denied", "early-2026", "hooks-first", "max-turns", "mcp-web", "partial", "subagent", "tools"];
/** The fixtures meant to be incomplete: their lifecycle findings, as a cursor-agent log's. */
const INCOMPLETE = new Set(["cut-off", "max-turns"]);
const DRIFT = `${C}/validate/drift.ndjson`;

const cases: GoldenCase[] = [];
for (const f of FIXTURES) {
  cases.push({ name: `claude/validate/${f}`, argv: ["validate", `${C}/${f}.ndjson`] }, { name: `claude/validate/strict-${f}`, argv: ["validate", "--strict", `${C}/${f}.ndjson`] });
}
cases.push(
  { name: "claude/validate/json-max-turns", argv: ["validate", "--format", "json", `${C}/max-turns.ndjson`] },
  { name: "claude/validate/github-cut-off", argv: ["validate", "--format", "github", `${C}/cut-off.ndjson`] },
  { name: "claude/validate/no-lifecycle-cut-off", argv: ["validate", "--no-lifecycle", `${C}/cut-off.ndjson`] },
  // A line with a field no schema names, a wrong type, a type no schema knows.
  { name: "claude/validate/drift", argv: ["validate", DRIFT] },
  { name: "claude/validate/strict-drift", argv: ["validate", "--strict", DRIFT] },
  // The bundled Claude Code set given as --schema: what validate finds with the bundled one.
  { name: "claude/validate/schema-dir-tools", argv: ["validate", "--schema", "schemas/claude-code", `${C}/tools.ndjson`, DRIFT] },
  // Forced readings: a Claude Code log against cursor-agent's schemas, and the reverse.
  { name: "claude/validate/agent-cursor-denied", argv: ["validate", "--agent", "cursor", `${C}/denied.ndjson`] },
  { name: "claude/validate/agent-claude-forced", argv: ["validate", "--agent", "claude", `${C}/hooks-first.ndjson`] },
  // Cursor and Claude Code logs in one run: each against its own schemas and lifecycle.
  { name: "claude/validate/mixed", argv: ["validate", "test/fixtures/2026-long.ndjson", `${C}/hooks-first.ndjson`, "test/fixtures/crash-no-result.ndjson", `${C}/max-turns.ndjson`, DRIFT] },
  // The schemas: listed and printed for Claude Code.
  { name: "claude/validate/schema-list-claude", argv: ["schema", "--agent", "claude", "--list"] },
  { name: "claude/validate/schema-unknown-claude", argv: ["schema", "--agent", "claude", "tool_call"] },
);
goldenTests(cases);

test("validate: every line of every Claude Code fixture is valid, --strict too; exit 0 but for the runs meant to be incomplete (exit 1, lifecycle findings only)", async () => {
  for (const f of FIXTURES) {
    for (const strict of [[], ["--strict"]]) {
      const r = await runCli(["validate", "--format", "json", ...strict, `${C}/${f}.ndjson`]);
      const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; rule?: string; invalid?: number; lines?: number; valid?: number });
      const summary = lines.at(-1)!;
      assert.equal(summary.invalid, 0, `${f} ${strict.join("")}: ${r.stdout}`);
      assert.equal(summary.valid, summary.lines);
      const rules = lines.filter((l) => l.type === "diagnostic").map((l) => l.rule);
      if (INCOMPLETE.has(f)) {
        assert.equal(r.code, 1, f);
        assert.ok(rules.length > 0 && rules.every((x) => x === "unfinished-call" || x === "no-result"), `${f}: ${rules.join(",")}`);
      } else {
        assert.equal(r.code, 0, `${f}: ${r.stdout}`);
        assert.deepEqual(rules, [], f);
      }
    }
  }
});

test("for t in $(cursorlog schema --agent claude --list): a directory of the copies is what validate --schema reads, with the bundled set's findings", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-claude-schemas-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const names = (await runCli(["schema", "--agent", "claude", "--list"])).stdout.trimEnd().split("\n");
  assert.equal(names[0], "claude-code-event");
  const files = readdirSync("schemas/claude-code").filter((f) => f.endsWith(".schema.json"));
  assert.deepEqual([...names].sort(), files.map((f) => f.replace(".schema.json", "")).sort(), "every file of schemas/claude-code");
  for (const n of names) {
    const r = await runCli(["schema", "--agent", "claude", n]);
    assert.equal(r.stdout, readFileSync(`schemas/claude-code/${n}.schema.json`, "utf8"), n);
    writeFileSync(join(dir, `${n}.schema.json`), r.stdout);
  }
  assert.equal((await runCli(["schema", "--agent", "claude"])).stdout, readFileSync("schemas/claude-code/claude-code-event.schema.json", "utf8"));
  for (const f of [`${C}/tools.ndjson`, DRIFT]) {
    const copy = await runCli(["validate", "--schema", dir, f]);
    const bundled = await runCli(["validate", f]);
    assert.deepEqual([copy.stdout, copy.code], [bundled.stdout, bundled.code], f);
  }
});

test("validate: a cursor-agent log never loads Claude Code's schemas; a Claude Code file loads them once, at its first event", async () => {
  const loaded: string[] = [];
  const sets = new Map<string, SchemaSetInUse>([[CURSOR_ENTRY_ID, { validators: await loadBundledValidators(CURSOR_ENTRY_ID) }]]);
  const bundled: DialectSchemas = {
    get: (id) => sets.get(id),
    async load(id) {
      loaded.push(id);
      sets.set(id, { validators: await loadBundledValidators(id) });
    },
  };
  const stage = toValidateReport(
    { validators: sets.get(CURSOR_ENTRY_ID)!.validators, bundled, format: textFormat(colorsFor(false)), strict: false, lifecycle: true, maxErrors: 0 },
    quietReporter(),
  );
  for (const rec of fixtureRecords("test/fixtures/2026-long.ndjson")) {
    assert.equal(stage.ready!(rec), undefined);
    stage.record(rec);
  }
  stage.fileEnd!("test/fixtures/2026-long.ndjson", 0);
  assert.deepEqual(loaded, []);
  const claude = fixtureRecords(`${C}/tools.ndjson`);
  await stage.ready!(claude[0]!);
  for (const rec of claude) {
    assert.equal(stage.ready!(rec), undefined, "loaded once");
    stage.record(rec);
  }
  assert.deepEqual(loaded, [CLAUDE_CODE_ENTRY_ID]);
  assert.match(String(stage.finish!()), /checked \d+ lines in 2 files: (\d+) valid, 0 invalid; 0 errors/);
});

test("validate over a folder of Cursor and Claude Code logs: each file's findings as alone, the summary their sum", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sources = ["test/fixtures/2026-long.ndjson", `${C}/after-result.ndjson`, "test/fixtures/crash-no-result.ndjson", `${C}/early-2026.ndjson`, `${C}/hooks-first.ndjson`, `${C}/max-turns.ndjson`, "test/fixtures/two-sessions.ndjson", DRIFT];
  const files = sources.map((f, i) => {
    const to = join(dir, `${String(i).padStart(2, "0")}-${basename(f)}`);
    copyFileSync(f, to);
    return to;
  });
  for (const strict of [[], ["--strict"]]) {
    let findings = "";
    const sum = { files: 0, lines: 0, valid: 0, invalid: 0, errors: 0, warnings: 0 };
    let code = 0;
    for (const f of files) {
      const r = await runCli(["validate", "--format", "json", ...strict, f]);
      const out = r.stdout.trim().split("\n");
      findings += out.slice(0, -1).map((l) => l + "\n").join("");
      const s = JSON.parse(out.at(-1)!) as typeof sum;
      for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += s[k];
      code = Math.max(code, r.code);
    }
    const together = await runCli(["validate", "--format", "json", ...strict, dir]);
    const out = together.stdout.trim().split("\n");
    assert.equal(out.slice(0, -1).map((l) => l + "\n").join(""), findings, strict.join(""));
    const s = JSON.parse(out.at(-1)!) as typeof sum;
    assert.deepEqual(Object.fromEntries(Object.keys(sum).map((k) => [k, s[k as keyof typeof sum]])), sum);
    assert.equal(together.code, code);
  }
});

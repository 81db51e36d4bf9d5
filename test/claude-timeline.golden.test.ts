// test-run: scaled
// `cursorlog timeline` over Claude Code logs (issue 27): a row per tool call, where its times came
// from, a duration only where the log holds both ends, none invented for a log without times
// (early-2026.ndjson), a start without a time (edge/times-mid-2026.ndjson); the status the model gives where Claude Code writes no word; subagent calls
// with their parent; the rows of a run whose lines go on after its result; the HTML page with and
// without times. Goldens: test/golden/claude/timeline/.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { runCli } from "./helpers/run-cli.js";

const C = "test/fixtures/claude";
const FIXTURES = [
  "after-result",
  "auth-failure",
  "background",
  "cut-off",
  "denied",
  "early-2026",
  "hooks-first",
  "max-turns",
  "mcp-web",
  "partial",
  "subagent",
  "tools",
];
/** Every column, the opt-in ones included. */
const COLUMNS = "seq,call_id,kind,tool,action,target,status,exit_code,started_at,completed_at,duration_ms,time_source,parent_id,background_end,background_ms,started_line,completed_line";

const cases: GoldenCase[] = [];
for (const f of FIXTURES) {
  cases.push(
    { name: `claude/timeline/${f}`, argv: ["timeline", `${C}/${f}.ndjson`] },
    { name: `claude/timeline/columns-${f}`, argv: ["timeline", "--columns", COLUMNS, `${C}/${f}.ndjson`] },
  );
}
cases.push(
  { name: "claude/timeline/ndjson-subagent", argv: ["timeline", "--format", "ndjson", "--columns", COLUMNS, `${C}/subagent.ndjson`] },
  { name: "claude/timeline/allow-incomplete-cut-off", argv: ["timeline", "--allow-incomplete", "--columns", "seq,status,time_source", `${C}/cut-off.ndjson`] },
  // 2.1.220 (edge/): times on user lines only, so each call has its end's time and no start, no
  // duration; the Edit never answered (max turns) has no time at all.
  { name: "claude/timeline/edge-times-mid-2026", argv: ["timeline", `${C}/edge/times-mid-2026.ndjson`] },
  { name: "claude/timeline/columns-edge-times-mid-2026", argv: ["timeline", "--columns", COLUMNS, `${C}/edge/times-mid-2026.ndjson`] },
  { name: "claude/timeline/agent-claude-forced", argv: ["timeline", "--agent", "claude", "--columns", "seq,kind,status", `${C}/hooks-first.ndjson`] },
  // One table for a Cursor and Claude Code logs together: each file's rows as alone, the header once.
  {
    name: "claude/timeline/mixed",
    argv: ["timeline", "--columns", "file,seq,kind,tool,status,duration_ms,time_source", "test/fixtures/two-sessions.ndjson", `${C}/early-2026.ndjson`, `${C}/tools.ndjson`, "test/fixtures/2025-shape.ndjson"],
  },
  // The page: times (tools), none at all (early-2026: no chart), a subagent, lines after a result, a run cut off.
  { name: "claude/timeline/html-tools", argv: ["timeline", "--format", "html", `${C}/tools.ndjson`] },
  { name: "claude/timeline/html-early-2026", argv: ["timeline", "--format", "html", `${C}/early-2026.ndjson`] },
  { name: "claude/timeline/html-subagent", argv: ["timeline", "--format", "html", `${C}/subagent.ndjson`] },
  { name: "claude/timeline/html-after-result", argv: ["timeline", "--format", "html", `${C}/after-result.ndjson`] },
  { name: "claude/timeline/html-cut-off", argv: ["timeline", "--format", "html", `${C}/cut-off.ndjson`] },
);
goldenTests(cases);

const ALONE_FILES = ["test/fixtures/2026-long.ndjson", `${C}/after-result.ndjson`, `${C}/background.ndjson`, `${C}/early-2026.ndjson`, `${C}/subagent.ndjson`, "test/fixtures/two-sessions.ndjson", `${C}/tools.ndjson`];

/** A folder of Cursor and Claude Code logs (copies of ALONE_FILES, names that keep their order). */
function mixedFolder(): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  const files = ALONE_FILES.map((f, i) => {
    const to = join(dir, `${String(i).padStart(2, "0")}-${basename(f)}`);
    copyFileSync(f, to);
    return to;
  });
  return { dir, files };
}

test("timeline over a folder of Cursor and Claude Code logs: each file's rows as it gives alone, the header once; --jobs 2 the same", async (t) => {
  const { dir, files } = mixedFolder();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const extra of [[], ["--columns", COLUMNS + ",file"]]) {
    let alone = "";
    let header = "";
    for (const f of files) {
      const r = await runCli(["timeline", ...extra, f]);
      assert.equal(r.code, 0, r.stderr);
      const nl = r.stdout.indexOf("\n");
      header = r.stdout.slice(0, nl + 1);
      alone += r.stdout.slice(nl + 1);
    }
    const together = await runCli(["timeline", ...extra, dir]);
    assert.equal(together.code, 0, together.stderr);
    assert.equal(together.stdout, header + alone);
    const jobs = await runCli(["timeline", "--jobs", "2", ...extra, dir]);
    assert.deepEqual(jobs, together, "--jobs 2");
  }
});

test("timeline --format html over that folder: each file's sessions as alone, numbered across the folder", async (t) => {
  const { dir, files } = mixedFolder();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sessions = (html: string): Array<Record<string, unknown>> => {
    const m = /<script type="application\/json" id="timeline-data">([\s\S]*?)<\/script>/.exec(html);
    return (JSON.parse(m![1]!) as { sessions: Array<Record<string, unknown>> }).sessions;
  };
  const alone: Array<Record<string, unknown>> = [];
  for (const f of files) {
    const r = await runCli(["timeline", "--format", "html", f]);
    assert.equal(r.code, 0, r.stderr);
    alone.push(...sessions(r.stdout));
  }
  const together = await runCli(["timeline", "--format", "html", dir]);
  assert.equal(together.code, 0, together.stderr);
  assert.deepEqual(sessions(together.stdout), alone.map((s, i) => ({ ...s, index: i + 1 })));
});

test("timeline: a Claude Code log without times gives its rows in order with every time cell empty; a timed one gives event times and durations", async () => {
  const early = await runCli(["timeline", "--format", "ndjson", "--columns", "seq,started_at,completed_at,duration_ms,time_source,status", `${C}/early-2026.ndjson`]);
  const rows = early.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(rows.map((r) => r.seq), [1, 2, 3, 4, 5]);
  for (const r of rows) assert.deepEqual([r.started_at, r.completed_at, r.duration_ms, r.time_source], [null, null, null, null]);
  const tools = await runCli(["timeline", "--format", "ndjson", "--columns", "seq,duration_ms,time_source,status,exit_code", `${C}/tools.ndjson`]);
  const t = tools.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(t.every((r) => r.time_source === "event" && typeof r.duration_ms === "number"));
  assert.deepEqual([t[0]!.status, t[0]!.exit_code, t[6]!.status], ["failed", 1, "failed"], "Bash exit 1, the Edit whose string was not found");
});

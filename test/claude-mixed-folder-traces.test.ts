// A folder holding cursor-agent and Claude Code logs gives, in one run, what each file gives
// alone (issue 27), for diff (--stat, --name-only), export (OTLP/JSON, with --jobs 2 too) and
// export --format chrome-trace: the same output, file after file in the folder's order, the same
// messages, and the exit status of the worst file. (Chrome trace is one document: its processes
// are numbered across the input, so each file's events are compared with their pid set aside.)
// One warning is said once per command (per runner with --jobs), not once per file: that a run has
// no time at all (the exports), at the first such run.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runCli, type CliResult } from "./helpers/run-cli.js";

/** In the folder's order (names sorted): Cursor and Claude Code logs interleaved. */
const LOGS: Array<[string, string]> = [
  ["a-cursor-2026-long.ndjson", "test/fixtures/2026-long.ndjson"],
  ["b-claude-tools.ndjson", "test/fixtures/claude/tools.ndjson"],
  ["c-cursor-combined.ndjson", "test/fixtures/diff/combined.ndjson"],
  ["d-claude-background.ndjson", "test/fixtures/claude/background.ndjson"],
  ["e-claude-after-result.ndjson", "test/fixtures/claude/after-result.ndjson"],
  ["f-cursor-2025-shape.ndjson", "test/fixtures/2025-shape.ndjson"],
  ["g-claude-early-2026.ndjson", "test/fixtures/claude/early-2026.ndjson"],
  ["h-claude-edits.ndjson", "test/fixtures/claude/edge/edits.ndjson"],
  ["i-claude-auth-failure.ndjson", "test/fixtures/claude/auth-failure.ndjson"],
];

let dir = "";
let files: string[] = [];
before(() => {
  dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  files = LOGS.map(([name, from]) => {
    copyFileSync(from, join(dir, name));
    return join(dir, name);
  });
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Each file alone, in order. */
async function alone(argv: string[]): Promise<CliResult[]> {
  const out: CliResult[] = [];
  for (const f of files) out.push(await runCli([...argv, f]));
  return out;
}

const UNTIMED = /^cursorlog: warning \(at .*\): session .* has no time in the log: .*\n/gm;
/** Stderr without the warning said once per command, and the lines of it there were. */
function once(stderr: string): [string, string[]] {
  return [stderr.replace(UNTIMED, ""), stderr.match(UNTIMED) ?? []];
}

/** The worst status of the files alone (what one run over them all exits with). */
function worst(rs: CliResult[]): number {
  return Math.max(...rs.map((r) => r.code));
}

for (const argv of [["diff"], ["diff", "--stat"], ["diff", "--name-only"], ["export"], ["export", "--jobs", "2"]]) {
  test(`cursorlog ${argv.join(" ")} FOLDER: what each file gives alone, in order`, async () => {
    const each = await alone(argv.filter((a) => a !== "--jobs" && a !== "2"));
    const all = await runCli([...argv, dir]);
    assert.equal(all.stdout, each.map((r) => r.stdout).join(""));
    const [rest, untimed] = once(all.stderr);
    const told = each.flatMap((r) => once(r.stderr)[1]);
    assert.equal(rest, each.map((r) => once(r.stderr)[0]).join(""));
    // The first file's own warning, then at most one more (a second runner's), each as alone.
    assert.equal(untimed[0], told[0]);
    assert.ok(untimed.length <= (argv.includes("--jobs") ? 2 : 1) && untimed.every((l) => told.includes(l)), all.stderr);
    assert.equal(told.length, argv[0] === "export" ? 2 : 0, "two files without times: 2025-shape and early-2026");
    assert.equal(all.code, worst(each));
    // Both agents are in it, each under its own names.
    if (argv[0] === "export") {
      assert.match(all.stdout, /"stringValue":"claude-code"/);
      assert.match(all.stdout, /"stringValue":"cursor-agent"/);
    }
  });
}

test("cursorlog export --format chrome-trace FOLDER: each file's events as alone, its processes numbered on", async () => {
  const each = await alone(["export", "--format", "chrome-trace"]);
  const all = await runCli(["export", "--format", "chrome-trace", dir]);
  const [rest, untimed] = once(all.stderr);
  assert.equal(rest, each.map((r) => once(r.stderr)[0]).join(""));
  assert.deepEqual(untimed, [once(each.find((r) => once(r.stderr)[1].length > 0)!.stderr)[1][0]]);
  assert.equal(all.code, worst(each));
  type Ev = { pid: number; name: string; args?: { sort_index?: number } };
  const events = (r: CliResult) => (JSON.parse(r.stdout) as { traceEvents: Ev[] }).traceEvents;
  /** An event without its process number (and a process's sort index, which is that number). */
  const bare = (e: Ev) => JSON.stringify({ ...e, pid: 0, ...(e.name === "process_sort_index" ? { args: {} } : {}) });
  let next = 1;
  const expected: string[] = [];
  const pids: number[] = [];
  for (const r of each) {
    const evs = events(r);
    const own = [...new Set(evs.map((e) => e.pid))];
    for (const e of evs) expected.push(bare(e));
    for (const e of evs) pids.push(next + own.indexOf(e.pid));
    next += own.length;
  }
  const got = events(all);
  assert.deepEqual(got.map(bare), expected);
  assert.deepEqual(got.map((e) => e.pid), pids);
  assert.ok(got.some((e) => e.name === "claude-code run") && got.some((e) => e.name === "cursor-agent run"));
});

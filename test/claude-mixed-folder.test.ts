// A folder holding a cursor-agent log and a Claude Code log gives, in one run of json, text,
// stats and show, what each file gives alone (issue 27): each file read in its own dialect, runs
// numbered across files. json and text also with --jobs 2 (stats and show take no --jobs: stats
// sums every file, show is one transcript).
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, type CliResult } from "./helpers/run-cli.js";
import { claudeFixture } from "./helpers/claude-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-folder-"));
const dir2 = mkdtempSync(join(tmpdir(), "cursorlog-mixed-folder-"));
after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(dir2, { recursive: true, force: true });
});
// In the folder's order (sorted by name): cursor-agent's log first, then Claude Code's.
const CURSOR = join(dir, "real-2026.ndjson");
const CLAUDE = join(dir, "tools.ndjson");
copyFileSync("test/fixtures/real-2026.ndjson", CURSOR);
copyFileSync(claudeFixture("tools"), CLAUDE);
// The other way round, Claude Code's log a run whose lines go on after its result (held by stats
// and show until its file ends): then cursor-agent's.
const CLAUDE2 = join(dir2, "a-after-result.ndjson");
const CURSOR2 = join(dir2, "b-real-2026.ndjson");
copyFileSync(claudeFixture("after-result"), CLAUDE2);
copyFileSync("test/fixtures/real-2026.ndjson", CURSOR2);

/** The note a run gets when --jobs asks for more threads than the machine has. */
const withoutNote = (r: CliResult): CliResult => ({ ...r, stderr: r.stderr.replace(/^cursorlog: note: --jobs .*\n/m, "") });

/** What each file gives alone, one after the other. */
async function alone(argv: string[], files = [CURSOR, CLAUDE]): Promise<[CliResult, CliResult]> {
  return [await runCli([...argv, files[0]!]), await runCli([...argv, files[1]!])];
}

/** Both files' sessions were read, each in its own format (not refused, not empty). */
function bothRead(a: CliResult, b: CliResult): void {
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.notEqual(a.stdout, "");
  assert.notEqual(b.stdout, "");
}

for (const argv of [["json"], ["json", "--pretty"], ["text"], ["text", "-v"], ["text", "--final"]]) {
  test(`${argv.join(" ")}: the folder gives each file's output in turn, with and without --jobs 2`, async () => {
    const [a, b] = await alone(argv);
    bothRead(a, b);
    const whole = await runCli([...argv, dir]);
    assert.deepEqual(whole, { stdout: a.stdout + b.stdout, stderr: a.stderr + b.stderr, code: 0 });
    assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", "2", dir])), whole, "--jobs 2");
    // Claude Code's log first.
    const [c, d] = await alone(argv, [CLAUDE2, CURSOR2]);
    bothRead(c, d);
    const whole2 = await runCli([...argv, dir2]);
    assert.deepEqual(whole2, { stdout: c.stdout + d.stdout, stderr: c.stderr + d.stderr, code: 0 });
    assert.deepEqual(withoutNote(await runCli([...argv, "--jobs", "2", dir2])), whole2, "--jobs 2, Claude Code's log first");
  });
}

test("text -v: the Claude Code file's lines are its calls in cursor-agent's words", async () => {
  const r = await runCli(["text", "-v", dir]);
  assert.match(r.stdout, /^Searched file contents: export function sum in src$/m);
  assert.match(r.stdout, /^Created new file: \/home\/dev\/app\/CHANGELOG\.md$/m);
});

/** Show's sessions of `out` renumbered from `from` (text `━━ Session N`, Markdown `### Session N`). */
function renumber(out: string, from: number): string {
  let n = from;
  return out.replace(/^(━━ |### )Session \d+/gm, (_m, lead: string) => `${lead}Session ${n++}`);
}

const sessionsOf = (out: string): number => out.match(/^(?:━━ |### )Session \d+/gm)?.length ?? 0;

for (const [format, between] of [
  ["text", "\n"],
  ["markdown", "\n---\n\n"],
] as const) {
  test(`show --format ${format}: the folder is each file's transcript in turn, sessions numbered across them`, async () => {
    const [a, b] = await alone(["show", "--format", format]);
    bothRead(a, b);
    const whole = await runCli(["show", "--format", format, dir]);
    assert.equal(sessionsOf(a.stdout), 2);
    assert.deepEqual(whole, { stdout: a.stdout + between + renumber(b.stdout, sessionsOf(a.stdout) + 1), stderr: "", code: 0 });
    // Claude Code's log first: its first run's footer (held for its lines after the result) before the next file's.
    const [c, d] = await alone(["show", "--format", format], [CLAUDE2, CURSOR2]);
    bothRead(c, d);
    const whole2 = await runCli(["show", "--format", format, dir2]);
    assert.equal(sessionsOf(c.stdout), 2);
    assert.deepEqual(whole2, { stdout: c.stdout + between + renumber(d.stdout, sessionsOf(c.stdout) + 1), stderr: "", code: 0 });
  });
}

test("stats: the folder's sessions are each file's, and the total sums them (the cost: the Claude Code session's own)", async () => {
  const lines = (r: CliResult) => r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const [a, b] = await alone(["stats", "--format", "json"]);
  bothRead(a, b);
  const whole = await runCli(["stats", "--format", "json", dir]);
  assert.equal(whole.code, 0, whole.stderr);
  const sessions = (r: CliResult) => lines(r).filter((o) => o.type === "session");
  const withoutIndex = (o: Record<string, unknown>) => ({ ...o, index: undefined });
  assert.deepEqual(sessions(whole).map(withoutIndex), [...sessions(a), ...sessions(b)].map(withoutIndex));
  assert.deepEqual(
    sessions(whole).map((o) => o.index),
    [1, 2, 3],
  );
  const total = (r: CliResult) => lines(r).find((o) => o.type === "total") as { sessions: number; finished: number; calls: { total: number }; usage: Record<string, number>; cost?: { usd: number } };
  const [ta, tb, tw] = [total(a), total(b), total(whole)];
  assert.equal(tw.sessions, ta.sessions + tb.sessions);
  assert.equal(tw.finished, ta.finished + tb.finished);
  assert.equal(tw.calls.total, ta.calls.total + tb.calls.total);
  for (const k of Object.keys(tw.usage)) assert.equal(tw.usage[k], ta.usage[k]! + tb.usage[k]!, k);
  // cursor-agent's log states no cost: the total's is the Claude Code session's total_cost_usd.
  assert.equal(ta.cost, undefined);
  assert.deepEqual(tw.cost, tb.cost);
  assert.equal(tw.cost?.usd, (sessions(b)[0]!.cost as { usd: number }).usd);
  // The text report: each session's block as each file gives it (numbered across files), then the total.
  const [sa, sb] = await alone(["stats"]);
  const text = await runCli(["stats", dir]);
  const blocks = (out: string) => out.split(/\n(?=Session \d+:|Total:)/).filter((blk) => blk.startsWith("Session"));
  const renum = (blk: string, i: number) => blk.replace(/^Session \d+:/, `Session ${i + 1}:`);
  assert.deepEqual(blocks(text.stdout), [...blocks(sa.stdout), ...blocks(sb.stdout)].map(renum));
  // Claude Code's log first: its sessions (the first reported when its file ends, with its lines
  // after the result) then cursor-agent's; the total's cost the higher of its session's two figures.
  const [c, d] = await alone(["stats", "--format", "json"], [CLAUDE2, CURSOR2]);
  const whole2 = await runCli(["stats", "--format", "json", dir2]);
  assert.deepEqual(sessions(whole2).map(withoutIndex), [...sessions(c), ...sessions(d)].map(withoutIndex));
  assert.deepEqual(total(whole2).cost, total(c).cost);
  assert.deepEqual(total(c).cost, { usd: (sessions(c)[1]!.cost as { usd: number }).usd, session_ids: 1, sessions: 2 });
});

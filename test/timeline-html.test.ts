import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";
import { TARGET_MAX } from "../src/outputs/timeline-html/call.js";
import { runJson } from "../src/outputs/timeline-html/json.js";
import type { HtmlCall, HtmlRun, HtmlSession } from "../src/outputs/timeline-html/types.js";
import { runCli } from "./helpers/run-cli.js";

const F = "test/fixtures";
const T = "test/fixtures/timeline";
const DATA = /<script type="application\/json" id="timeline-data">([^]*?)<\/script>/;

/** Every log fixture that parses (truncated-last-line stops at its broken line without --lenient). */
const FIXTURES = [
  ...readdirSync(F)
    .filter((f) => /\.(ndjson|json)$/.test(f))
    .map((f) => `${F}/${f}`),
  ...readdirSync(T)
    .filter((f) => f.endsWith(".ndjson"))
    .map((f) => `${T}/${f}`),
].sort();

/** The page's embedded run, read back as the browser will (JSON.parse of the block's text). */
function dataOf(html: string): HtmlRun {
  const m = DATA.exec(html);
  assert.ok(m, "the page has its JSON block");
  return JSON.parse(m[1]!) as HtmlRun;
}

/** A log of one session, the given commands run one after another (shell calls, 2026 shape). */
function shellLog(commands: string[]): string {
  const sid = "5e1f0c3a-8b2d-4e6f-9a1b-2c3d4e5f6a7b";
  const lines: unknown[] = [{ type: "system", subtype: "init", session_id: sid, model: "M</title>" }, { type: "user", message: { role: "user", content: [{ type: "text", text: "<b>go</b>\nsecond" }] }, session_id: sid }];
  commands.forEach((command, i) => {
    const id = `call_${i}`;
    const t = 1767225600000 + i * 100;
    const args = { command };
    lines.push({ type: "tool_call", subtype: "started", call_id: id, tool_call: { shellToolCall: { args }, startedAtMs: String(t) }, session_id: sid, timestamp_ms: t });
    const result = { success: { command, exitCode: 0, stdout: "", stderr: "" } };
    lines.push({ type: "tool_call", subtype: "completed", call_id: id, tool_call: { shellToolCall: { args, result }, startedAtMs: String(t), completedAtMs: String(t + 50) }, session_id: sid, timestamp_ms: t + 50 });
  });
  lines.push({ type: "result", subtype: "success", duration_ms: 1000, is_error: false, result: "done", session_id: sid });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

test("runJson: no '<' and no U+2028/U+2029 reach the page, and JSON.parse gives the run back", () => {
  const hostile = '</script><script>alert(1)</script> <!-- </SCRIPT > \u2028\u2029 <\/script>';
  const call: HtmlCall = { seq: 1, id: hostile, lane: 0, kind: "shell", action: "Ran terminal command", target: hostile, status: "success", cls: "success", x0: 0, x1: 1, ms: 1, exit: 0, approx: false, line: 3 };
  const session: HtmlSession = {
    index: 1, file: hostile, firstLine: 1, lastLine: 4, sessionId: hostile, model: hostile, prompt: hostile, startedAt: null, durationMs: null,
    durationSource: null, outcome: "cut_off", resultSubtype: null, agentMessage: null, axis: "time", span: 1, lanes: 1, byStatus: [["success", 1]], calls: [call],
  };
  const run: HtmlRun = { sessions: [session, { ...session, index: 2, calls: [] }] };
  const json = runJson(run);
  assert.doesNotMatch(json, /[<\u2028\u2029]/);
  assert.deepEqual(JSON.parse(json), run);
  assert.equal(json.split("\n").length, 4, "a line per session summary and per call");
  assert.deepEqual(JSON.parse(runJson({ sessions: [] })), { sessions: [] });
});

test("timeline --format html: a log cannot close the data block or add a script; its text stays data", async () => {
  const evil = "</script><script>alert(1)</script>";
  const got = await runCli(["timeline", "--format", "html"], { stdin: shellLog([evil, "echo '<!--' && cat <<'EOF'\n</script >\nEOF"]) });
  assert.equal(got.code, 0, got.stderr);
  const html = got.stdout;
  assert.equal(html.match(/<script/gi)?.length, 2, "the JSON block and the page's own script, nothing else");
  assert.equal(html.match(/<\/script/gi)?.length, 2);
  const block = DATA.exec(html)![1]!;
  assert.doesNotMatch(block, /</, "no '<' at all inside the data");
  const run = dataOf(html);
  assert.equal(run.sessions[0]!.calls[0]!.target, evil, "the command is carried exactly");
  assert.equal(run.sessions[0]!.model, "M</title>");
  assert.equal(run.sessions[0]!.prompt, "<b>go</b>", "the prompt's first line");
});

test("timeline --format html: the page is self-contained and the log's text is only ever set as text", async () => {
  const got = await runCli(["timeline", "--format", "html", `${F}/2026-long.ndjson`]);
  const page = got.stdout.replace(DATA, "");
  // The page's own style and script are allowed by their hashes, nothing inline else (attack-misc checks the hashes).
  assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; script-src 'sha256-[A-Za-z0-9+/]{43}='">/);
  assert.doesNotMatch(page, /\b(src|href|action|srcset)\s*=|url\(|@import|https?:|\/\/[a-z]/i, "nothing to fetch");
  assert.doesNotMatch(page, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  assert.doesNotMatch(page, /Date|Math\.random/, "deterministic: no clock, no randomness");
});

test("timeline --format html: control and bidi characters are shown escaped, as 'cursorlog text' shows them", async () => {
  const run = dataOf((await runCli(["timeline", "--format", "html", `${F}/hostile.ndjson`])).stdout);
  const [a, b] = run.sessions[0]!.calls;
  assert.equal(a!.target, "echo \\u001b]0;pwned\\u0007 \\u001b[2J");
  assert.equal(b!.target, "a\\u202eb.txt\\r\nfake line", "newlines stay (the tooltip wraps), CR and U+202E are escaped");
  assert.equal(a!.id, "call_xxxxxxxxxxxxxxxxxxxxxxx1\nfc_01a9", "ids stay exact (attribute values only)");
});

test("timeline --format html: the calls drawn are the rows of --format ndjson, with the same seq, status, duration, exit code and lines", async () => {
  for (const file of FIXTURES) {
    const args = ["timeline", "--allow-incomplete", "--lenient", file];
    const rows = (await runCli([...args, "--format", "ndjson"])).stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const html = await runCli([...args, "--format", "html"]);
    const calls = dataOf(html.stdout).sessions.flatMap((s) => s.calls);
    assert.equal(calls.length, rows.length, `${file}: one bar per row`);
    calls.forEach((c, i) => {
      const r = rows[i]!;
      const where = `${file} row ${i + 1}`;
      assert.equal(c.seq, r.seq, where);
      assert.equal(c.status, r.status ?? "", where);
      assert.equal(c.ms, r.duration_ms, where);
      assert.equal(c.exit, r.exit_code, where);
      assert.equal(c.line, r.started_line ?? r.completed_line, where);
      assert.equal(c.action, r.action, where);
    });
  }
});

test("timeline --format html: lanes and axis of parallel calls; an incomplete call runs to the end of its session", async () => {
  const par = dataOf((await runCli(["timeline", "--format", "html", `${F}/parallel-out-of-order.ndjson`])).stdout).sessions[0]!;
  assert.equal(par.axis, "time");
  assert.equal(par.lanes, 3);
  assert.deepEqual(par.calls.map((c) => [c.lane, c.x0, c.x1]), [[0, 0, 6000], [1, 1, 4001], [2, 2, 1002]]);
  const [one, two] = dataOf((await runCli(["timeline", "--format", "html", "--allow-incomplete", `${T}/clocks-and-ends.ndjson`])).stdout).sessions;
  assert.equal(one!.outcome, "cut_off");
  const open = one!.calls[3]!;
  assert.deepEqual([open.status, open.cls, open.x1], ["incomplete", "incomplete", one!.span]);
  assert.equal(two!.lanes, 2);
  assert.deepEqual(two!.byStatus, [["success", 1], ["rejected", 1], ["error", 1], ["incomplete", 1]], "in legend order");
});

test("timeline --format html: without any time (2025) the calls are in start order, one lane, and no chart is drawn", async () => {
  const page = (await runCli(["timeline", "--format", "html", `${T}/no-timestamps-2025.ndjson`])).stdout;
  const s = dataOf(page).sessions[0]!;
  assert.equal(s.axis, "sequence");
  assert.equal(s.startedAt, null);
  assert.deepEqual([s.durationMs, s.durationSource], [900, "result"]);
  // Nothing tells how long a call took or which ran at once: no lane is another's, an open call
  // does not run over the calls after it (the page lists them; it draws no bar: see its script).
  assert.deepEqual(s.calls.map((c) => [c.seq, c.x0, c.x1, c.lane, c.cls]), [
    [1, 0, 1, 0, "success"],
    [2, 1, 2, 0, "success"],
    [3, 2, 3, 0, "incomplete"],
    [4, 3, 4, 0, "error"],
    [5, 4, 5, 0, "none"],
  ]);
  assert.equal(s.lanes, 1);
  assert.match(page, /if \(s\.axis === "time"\) drawChart\(s, sec\);/);
  assert.match(page, /This log holds no times \(cursor-agent's 2025 format, Claude Code's before mid-2026, Codex's\): no chart is drawn\./);
});

test("timeline --format html: a call without times in a timed session is placed after the call before it, flagged approx", async () => {
  const log = shellLog(["a", "b"]).split("\n");
  // Drop every time from the second call.
  log[4] = log[4]!.replace(/,"startedAtMs":"\d+"/, "").replace(/,"timestamp_ms":\d+/, "");
  log[5] = log[5]!.replace(/,"startedAtMs":"\d+","completedAtMs":"\d+"/, "").replace(/,"timestamp_ms":\d+/, "");
  const s = dataOf((await runCli(["timeline", "--format", "html"], { stdin: log.join("\n") })).stdout).sessions[0]!;
  assert.deepEqual(s.calls.map((c) => [c.x0, c.x1, c.approx, c.ms]), [[0, 50, false, 50], [0, 0, true, null]]);
  assert.deepEqual(s.calls.map((c) => c.missing), [undefined, "both"]);
});

test("timeline --format html: a completion without a start but with timestamp_ms is drawn at that time (the csv's completed_at), flagged missing start", async () => {
  const log = shellLog(["a", "b"]).split("\n");
  log.splice(4, 1); // the second call's started event
  log[4] = log[4]!.replace(/,"startedAtMs":"\d+","completedAtMs":"\d+"/, "");
  const stdin = log.join("\n");
  const s = dataOf((await runCli(["timeline", "--format", "html"], { stdin })).stdout).sessions[0]!;
  assert.deepEqual(s.calls.map((c) => [c.x0, c.x1, c.approx, c.missing]), [[0, 50, false, undefined], [150, 150, true, "start"]]);
  const csv = (await runCli(["timeline", "--format", "ndjson", "--columns", "seq,started_at,completed_at"], { stdin })).stdout;
  assert.equal(csv.split("\n")[1], '{"seq":2,"started_at":null,"completed_at":"2026-01-01T00:00:00.150Z"}');
});

test("timeline --format html: one small record per call: a long target is capped, events are not kept", async () => {
  const long = "x".repeat(100_000);
  const got = await runCli(["timeline", "--format", "html"], { stdin: shellLog([long]) });
  const c = dataOf(got.stdout).sessions[0]!.calls[0]!;
  assert.equal(c.target.length, TARGET_MAX);
  assert.ok(c.target.endsWith("…"));
  assert.ok(got.stdout.length < 60_000, "the page does not carry the command, its output or the events");
});

test("timeline --format html: exit status and messages as for csv (cut-off session 4, --allow-incomplete 0, no session in the input 4)", async () => {
  const csv = await runCli(["timeline", `${F}/crash-no-result.ndjson`]);
  const html = await runCli(["timeline", "--format", "html", `${F}/crash-no-result.ndjson`]);
  assert.deepEqual([html.code, html.stderr], [csv.code, csv.stderr]);
  assert.equal(html.code, 4);
  assert.equal((await runCli(["timeline", "--format", "html", "--allow-incomplete", `${F}/crash-no-result.ndjson`])).code, 0);
  const empty = await runCli(["timeline", "--format", "html"], { stdin: "" });
  assert.equal(empty.code, 4);
  assert.equal(empty.stderr, "cursorlog: error (at <stdin>): no session in the input\n");
  assert.deepEqual(dataOf(empty.stdout), { sessions: [] });
});

test("timeline --format html: options that shape csv rows, and --follow (-f, -F), are usage errors", async () => {
  for (const [flag, ...rest] of [["--columns", "seq"], ["--no-header"], ["--safe-csv"], ["--follow"], ["--follow=name"]] as string[][]) {
    const got = await runCli(["timeline", "--format", "html", flag!, ...rest, `${F}/2026-long.ndjson`]);
    assert.equal(got.code, 2, flag);
    assert.equal(got.stdout, "");
    assert.equal(got.stderr, `cursorlog: error: ${flag} cannot be used with --format html\nRun 'cursorlog timeline --help' for usage.\n`);
  }
});

test("timeline --help names the html format and shows an example", async () => {
  const help = (await runCli(["timeline", "--help"])).stdout;
  assert.match(help, /csv, tsv, ndjson or html/);
  assert.match(help, /\$ cursorlog timeline --format html -o run\.html run\.ndjson/);
  assert.match(help, /^ {2}html {4}one self-contained page/m);
});

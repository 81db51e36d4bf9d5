// test-run: stress
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { CHROMIUM, chromium, noChromium } from "./helpers/chromium.js";
import { runCli } from "./helpers/run-cli.js";

/**
 * The page in a real browser: Debian's chromium, headless, driven directly (no puppeteer). About a
 * minute of browsers, so it runs in `make stress` only (the marker above). When no chromium binary
 * is on PATH ($CHROMIUM names another one) each test is skipped, saying what to install; under CI
 * (CI=true: .ci/run installs chromium as root) it fails instead, so a browser that went missing is
 * seen. UPDATE_GOLDEN=1 also refreshes docs/timeline.png, the README's screenshot.
 */
const UPDATE = process.env.UPDATE_GOLDEN === "1";



/** Runs headless chromium on `args` with a throw-away profile; console messages go to stderr (INFO:CONSOLE). */

/** `cursorlog ARGV` as a page in a temp dir; returns its path (the caller removes `dir`). */
async function page(dir: string, name: string, argv: string[], stdin?: string): Promise<string> {
  const got = await runCli(["timeline", "--format", "html", "--allow-incomplete", ...argv], stdin === undefined ? {} : { stdin });
  assert.equal(got.code, 0, got.stderr);
  const path = join(dir, `${name}.html`);
  writeFileSync(path, got.stdout);
  return path;
}

/** The DOM after the page's script ran, and the console messages it caused. */
async function dumpDom(path: string): Promise<{ dom: string; console: string[] }> {
  const { stdout, stderr } = await chromium(["--dump-dom", `file://${path}`], { timeoutMs: 90_000, maxBuffer: 64 * 1024 * 1024 });
  return { dom: stdout, console: stderr.split("\n").filter((l) => /CONSOLE/.test(l)) };
}

function assertRendered(dom: string, consoleLines: string[], what: string): void {
  assert.match(dom, /<body[^>]*\sdata-rendered="ok"/, `${what}: the script ran to the end (<body data-rendered="ok">)`);
  assert.deepEqual(consoleLines, [], `${what}: no console message (errors, CSP violations)`);
}

const FIXTURES = [
  "test/fixtures/2026-long.ndjson",
  "test/fixtures/parallel-out-of-order.ndjson",
  "test/fixtures/2025-shape.ndjson",
  "test/fixtures/two-sessions.ndjson",
  "test/fixtures/crash-no-result.ndjson",
  "test/fixtures/rejected-errored.ndjson",
  "test/fixtures/thinking-only.ndjson",
  "test/fixtures/hostile.ndjson",
  "test/fixtures/timeline/parallel-30-reverse.ndjson",
  "test/fixtures/timeline/no-timestamps-2025.ndjson",
  "test/fixtures/timeline/clocks-and-ends.ndjson",
  "test/fixtures/timeline/awkward-values.ndjson",
  "test/fixtures/claude/tools.ndjson",
  "test/fixtures/claude/early-2026.ndjson",
  "test/fixtures/claude/subagent.ndjson",
  "test/fixtures/claude/after-result.ndjson",
  "test/fixtures/claude/cut-off.ndjson",
];

/** The tool calls of the sessions whose log gives times (a session without any time gets no chart), and of all. */
function callsOf(html: string): { timed: number; all: number } {
  const m = /<script type="application\/json" id="timeline-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, "the page has its JSON block");
  const run = JSON.parse(m[1]!) as { sessions: Array<{ axis: string; calls: unknown[] }> };
  let timed = 0;
  let all = 0;
  for (const s of run.sessions) {
    all += s.calls.length;
    if (s.axis === "time") timed += s.calls.length;
  }
  return { timed, all };
}

test("browser: each page draws one .bar (with its data-call-id) per tool call of a timed session, and a table row per call, without a console error", { concurrency: 4 }, async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await Promise.all(
    FIXTURES.map((file, i) =>
      t.test(file, async () => {
        const ndjson = await runCli(["timeline", "--format", "ndjson", "--allow-incomplete", file]);
        const calls = ndjson.stdout.split("\n").filter((l) => l !== "").length;
        const path = await page(dir, `f${i}`, [file]);
        const { timed, all } = callsOf(readFileSync(path, "utf8"));
        assert.equal(all, calls, `${file}: the page holds every call`);
        const { dom, console } = await dumpDom(path);
        assertRendered(dom, console, file);
        assert.equal(dom.match(/<div class="bar[ "]/g)?.length ?? 0, timed, `${file}: bars = tool calls of timed sessions (${timed})`);
        assert.equal(dom.match(/<div class="bar[^>]* data-call-id="/g)?.length ?? 0, timed, `${file}: every bar carries data-call-id`);
        assert.equal(dom.match(/<tr data-seq="/g)?.length ?? 0, calls, `${file}: a table row per call`);
        if (timed < all) assert.match(dom, /This log holds no times/, `${file}: the page says why there is no chart`);
      }),
    ),
  );
});

test("browser: a command holding </script><script>… is shown as text and never runs", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const evil = "</script><script>alert(1)</script>";
  const pwn = '</script><script>document.body.setAttribute("data-pwned","1")</script>';
  const sid = "7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01";
  const log = [
    { type: "system", subtype: "init", session_id: sid, model: "<img src=x onerror=alert(2)>" },
    { type: "user", message: { role: "user", content: [{ type: "text", text: "<!-- " + pwn }] }, session_id: sid },
    ...[evil, pwn].flatMap((command, i) => [
      { type: "tool_call", subtype: "started", call_id: `c${i}"><b>`, tool_call: { shellToolCall: { args: { command } } }, session_id: sid, timestamp_ms: 1000 + i },
      { type: "tool_call", subtype: "completed", call_id: `c${i}"><b>`, tool_call: { shellToolCall: { args: { command }, result: { success: { exitCode: 0 } } } }, session_id: sid, timestamp_ms: 1500 + i },
    ]),
    { type: "result", subtype: "success", duration_ms: 600, is_error: false, result: "", session_id: sid },
  ];
  const stdin = log.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const { dom, console } = await dumpDom(await page(dir, "evil", [], stdin));
  assertRendered(dom, console, "hostile page");
  assert.doesNotMatch(dom, /<body[^>]*data-pwned/, "the injected script did not run");
  assert.equal(dom.match(/<script/g)?.length, 2, "no script element was added");
  assert.doesNotMatch(dom, /<img/, "no element was made from the model's name");
  // (how an attribute's < and > are serialized differs between chromium versions)
  assert.match(dom, /<td class="target" title="[^"]*">&lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/td>/, "the command, literally");
  assert.match(dom, /<dd>&lt;img src=x onerror=alert\(2\)&gt;<\/dd>/);
  assert.match(dom, /<dd>&lt;!-- &lt;\/script&gt;&lt;script&gt;document\.body\.setAttribute\("data-pwned","1"\)&lt;\/script&gt;<\/dd>/);
  assert.match(dom, /data-call-id="c0&quot;(&gt;|>)(&lt;|<)b(&gt;|>)"/, "the call id, as an attribute value");
});

test("browser: hostile.ndjson's escape sequences and bidi override reach the DOM escaped, never raw", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { dom, console } = await dumpDom(await page(dir, "hostile", ["test/fixtures/hostile.ndjson"]));
  assertRendered(dom, console, "hostile.ndjson");
  assert.doesNotMatch(dom, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
  assert.match(dom, />echo \\u001b\]0;pwned\\u0007 \\u001b\[2J</);
  // A path's cell is its folders and its file name in two spans (cut in the middle); the whole is its title.
  assert.match(dom, /title="a\\u202eb\.txt\\r\nfake line"/);
});

test("browser: a completion without a start is labelled with its time, an open call stops at the session's end, an empty target leaves no empty aria-label part", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sid = "7d0c2b7e-4a1f-4c55-9a0e-3f7d2c1b9e01";
  const T = 1767225600000;
  const shell = (command: string) => ({ shellToolCall: { args: { command } } });
  const log = [
    { type: "system", subtype: "init", session_id: sid, model: "M", timestamp_ms: T },
    { type: "tool_call", subtype: "started", call_id: "a", tool_call: shell("make"), session_id: sid, timestamp_ms: T },
    { type: "tool_call", subtype: "completed", call_id: "a", tool_call: { shellToolCall: { args: { command: "make" }, result: { success: { exitCode: 0 } } } }, session_id: sid, timestamp_ms: T + 1000 },
    // A subagent task rejected before it started: a completion alone, with no description.
    { type: "tool_call", subtype: "completed", call_id: "b", tool_call: { taskToolCall: { args: {}, result: { error: { error: "bad args" } } } }, session_id: sid, timestamp_ms: T + 1500 },
    { type: "tool_call", subtype: "started", call_id: "c", tool_call: shell("sleep 99"), session_id: sid, timestamp_ms: T + 2000 },
    { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "…" }] }, session_id: sid, timestamp_ms: T + 3100 },
  ];
  const { dom, console } = await dumpDom(await page(dir, "edges", [], log.map((l) => JSON.stringify(l)).join("\n") + "\n"));
  assertRendered(dom, console, "edges page");
  const label = (seq: number) => /aria-label="([^"]*)"/.exec(new RegExp(`<div class="bar[^>]*data-seq="${seq}"[^>]*>`).exec(dom)?.[0] ?? "")?.[1] ?? "";
  assert.match(label(2), /^#2 Ran subagent task; error · duration not logged; start not logged: drawn at its completion, \+1\.50 s; lane 1 · line 4$/, label(2));
  assert.doesNotMatch(label(2), /; ;|time not logged/, label(2));
  const pos = (html: string) => /left: ([\d.]+)%/.exec(html) && { left: Number(/left: ([\d.]+)%/.exec(html)![1]), width: Number(/width: ([\d.]+)%/.exec(html)?.[1] ?? 0) };
  const open = pos(new RegExp(`<div class="bar[^>]*data-seq="3"[^>]*>`).exec(dom)![0])!;
  const end = pos(/<div class="end-mark"[^>]*>/.exec(dom)![0])!;
  assert.ok(Math.abs(open.left + open.width - end.left) < 0.01, `the open call's bar ends at the session's end line: ${JSON.stringify({ open, end })}`);
  assert.match(dom, /Dashed bars: the log lacks the call's start or end time\. A call with one of the two is drawn at that time, with the least width; one with neither at the start of the call before it\./);
});

test("browser: a 1400x900 screenshot of 2026-long's page (UPDATE_GOLDEN=1 keeps it as docs/timeline.png)", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const html = await page(dir, "long", ["test/fixtures/2026-long.ndjson"]);
  const png = join(dir, "timeline.png");
  await chromium([`--screenshot=${png}`, "--window-size=1400,900", `file://${html}`], { timeoutMs: 90_000, maxBuffer: 64 * 1024 * 1024 });
  const bytes = readFileSync(png);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG");
  assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [1400, 900]);
  if (UPDATE) copyFileSync(png, "docs/timeline.png");
});

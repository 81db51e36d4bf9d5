// test-run: stress
// `show --format html` in a real browser (issue 29), as test/timeline-html-browser.test.ts does
// for the timeline: Debian's chromium, headless, driven directly. The pages of every agent render
// without a console message (a CSP violation would be one: the page's own style and script are
// allowed by hash), no script from a hostile log runs, an anchor scrolls to its call, folded blocks
// are printed open. About a minute of browsers: make stress only (the marker above).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Cdp } from "./helpers/cdp.js";
import { CHROMIUM, chromium, noChromium } from "./helpers/chromium.js";
import { runCli } from "./helpers/run-cli.js";
import { hostileOf } from "./helpers/show-html-hostile.js";





async function page(dir: string, name: string, argv: string[], stdin?: string): Promise<string> {
  const got = await runCli(["show", "--format", "html", ...argv], stdin === undefined ? {} : { stdin });
  assert.equal(got.code, 0, got.stderr);
  const path = join(dir, `${name}.html`);
  writeFileSync(path, got.stdout);
  return path;
}

async function dumpDom(path: string): Promise<{ dom: string; console: string[] }> {
  const { stdout, stderr } = await chromium(["--dump-dom", `file://${path}`], { timeoutMs: 120_000, maxBuffer: 128 * 1024 * 1024 });
  return { dom: stdout, console: stderr.split("\n").filter((l) => /CONSOLE|Content Security Policy|Refused to/.test(l)) };
}

const FIXTURES = [
  "test/fixtures/2026-long.ndjson",
  "test/fixtures/two-sessions.ndjson",
  "test/fixtures/rejected-errored.ndjson",
  "test/fixtures/diff/combined.ndjson",
  "test/fixtures/claude/tools.ndjson",
  "test/fixtures/claude/subagent.ndjson",
  "test/fixtures/claude-nested/nested.ndjson",
  "test/fixtures/codex/commands.ndjson",
  "test/fixtures/codex/file-changes.ndjson",
  "test/fixtures/gemini/shell-fails.ndjson",
  "test/fixtures/gemini/batch.ndjson",
];

test("browser: every agent's page renders, a block per call, without a console message (no CSP violation)", { concurrency: 4 }, async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await Promise.all(
    FIXTURES.map((file, i) =>
      t.test(file, async () => {
        const path = await page(dir, `f${i}`, [file]);
        const calls = readFileSync(path, "utf8").match(/<div class="call /g)?.length ?? 0;
        const { dom, console } = await dumpDom(path);
        assert.deepEqual(console, [], `${file}: no console message`);
        assert.equal(dom.match(/<div class="call /g)?.length ?? 0, calls, `${file}: every call block in the DOM`);
        assert.match(dom, /<p class="outcome /, `${file}: the outcome`);
      }),
    ),
  );
});

test("browser: a hostile log's <script>, <img onerror>, </details> and javascript: links run nothing and add no element", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const f of ["test/fixtures/2026-long.ndjson", "test/fixtures/claude/tools.ndjson", "test/fixtures/codex/commands.ndjson", "test/fixtures/gemini/shell-fails.ndjson"]) {
    const path = await page(dir, "hostile", ["-"], hostileOf(f));
    const { dom, console } = await dumpDom(path);
    assert.deepEqual(console, [], `${f}: no console message`);
    // The title the page set; a script of the log's would have set "pwned" or "1".
    assert.match(dom, /<title>cursorlog show: &lt;stdin&gt;<\/title>/, `${f}: the title is the page's own`);
    assert.equal(dom.match(/<script/g)?.length, 1, `${f}: only the page's own script element`);
    assert.equal(dom.match(/<img/g), null, `${f}: no image element`);
    assert.doesNotMatch(dom, /href="(?:javascript|data|vbscript):/i, `${f}: no unsafe link`);
    assert.equal(dom.match(/<section class="run"/g)?.length, dom.match(/<\/section>/g)?.length, `${f}: sections closed where the page closes them`);
  }
});

test("browser: a link to a call's anchor scrolls to it; the print script opens every folded block", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = await page(dir, "long", ["test/fixtures/2026-long.ndjson"]);
  const ids = [...readFileSync(path, "utf8").matchAll(/<div class="call [a-z]+" id="([^"]+)"/g)].map((m) => m[1]!);
  const cdp = new Cdp(CHROMIUM!);
  try {
    const top = await cdp.open(`file://${path}`);
    assert.equal(await cdp.evaluate(top, "scrollY"), 0, "no anchor: the top of the page");
    assert.equal(await cdp.evaluate(top, "document.querySelector(':target')"), null);
    for (const id of [ids[4]!, ids.at(-1)!]) {
      const s = await cdp.open(`file://${path}#${id}`);
      const got = (await cdp.evaluate(s, "JSON.stringify({ y: scrollY, target: document.querySelector(':target')?.id, top: document.querySelector(':target')?.getBoundingClientRect().top })")) as string;
      const { y, target, top: at } = JSON.parse(got) as { y: number; target: string; top: number };
      assert.equal(target, id, "the call is the page's :target");
      assert.ok(y > 0, `#${id}: the page scrolled (${y})`);
      assert.ok(at !== undefined && at >= 0 && at < 600, `#${id}: the call is in the window (${at})`);
    }
    const closed = "document.querySelectorAll('details:not([open])').length";
    assert.ok(((await cdp.evaluate(top, closed)) as number) > 10, "folded blocks closed on screen");
    await cdp.evaluate(top, "dispatchEvent(new Event('beforeprint'))");
    assert.equal(await cdp.evaluate(top, closed), 0, "all open for printing");
    await cdp.evaluate(top, "dispatchEvent(new Event('afterprint'))");
    assert.ok(((await cdp.evaluate(top, closed)) as number) > 10, "closed again after printing");
  } finally {
    await cdp.close();
  }
});

test("browser: on a phone (375 px wide) no page scrolls sideways, whatever the log holds (only <pre> blocks and tables scroll within themselves)", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const long = "x".repeat(3000);
  const wide = await page(dir, "wide", ["-"], hostileOf("test/fixtures/2026-long.ndjson").replace(/Make the tests pass/g, `Make ${long} pass`));
  const cdp = new Cdp(CHROMIUM!);
  try {
    for (const path of [await page(dir, "long", ["test/fixtures/2026-long.ndjson"]), await page(dir, "tools", ["test/fixtures/claude/tools.ndjson"]), wide]) {
      const s = await cdp.open("about:blank");
      await cdp.send("Emulation.setDeviceMetricsOverride", { width: 375, height: 700, deviceScaleFactor: 2, mobile: true }, s);
      await cdp.load(s, `file://${path}`);
      const got = JSON.parse((await cdp.evaluate(s, "JSON.stringify({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth })")) as string) as { sw: number; cw: number };
      assert.ok(got.sw <= got.cw, `${path}: the page is ${got.sw} px wide in a ${got.cw} px window`);
    }
  } finally {
    await cdp.close();
  }
});

test("browser: printed, the folded blocks are open (a PDF as long as the page with them, longer than without)", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = await page(dir, "long", ["test/fixtures/2026-long.ndjson"]);
  const html = readFileSync(path, "utf8");
  const empty = join(dir, "empty.html");
  writeFileSync(empty, html.replace(/(<details[^>]*><summary>[^<]*<\/summary>)[\s\S]*?(<\/details>)/g, "$1$2"));
  const pages = async (p: string): Promise<number> => {
    const pdf = join(dir, "out.pdf");
    await chromium(["--no-pdf-header-footer", `--print-to-pdf=${pdf}`, `file://${p}`], { timeoutMs: 120_000, maxBuffer: 128 * 1024 * 1024 });
    return readFileSync(pdf, "latin1").match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
  };
  const full = await pages(path);
  const without = await pages(empty);
  assert.ok(without >= 1);
  assert.ok(full > without, `printed: ${full} pages with the folded blocks, ${without} without them`);
});

test("browser: a 10,000-call page renders", async (t) => {
  if (noChromium(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-show-html-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sid = "00000000-0000-4000-8000-0000000000cc";
  const lines: string[] = [JSON.stringify({ type: "system", subtype: "init", cwd: "/w", session_id: sid, model: "m" })];
  for (let i = 1; i <= 10_000; i++) {
    const args = { command: `step ${i}`, workingDirectory: "/w" };
    lines.push(JSON.stringify({ type: "tool_call", subtype: "started", call_id: `c${i}`, tool_call: { shellToolCall: { args } }, session_id: sid }));
    const result = { success: { command: args.command, exitCode: 0, stdout: `out ${i}\n`.repeat(50), stderr: "" } };
    lines.push(JSON.stringify({ type: "tool_call", subtype: "completed", call_id: `c${i}`, tool_call: { shellToolCall: { args, result } }, session_id: sid }));
  }
  lines.push(JSON.stringify({ type: "result", subtype: "success", is_error: false, duration_ms: 5, result: "done", session_id: sid }));
  const path = await page(dir, "big", ["-"], lines.join("\n") + "\n");
  const { dom, console } = await dumpDom(path);
  assert.deepEqual(console, []);
  assert.equal(dom.match(/<div class="call /g)?.length, 10_000);
});

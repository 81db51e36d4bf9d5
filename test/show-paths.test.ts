import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { placeInRun, shownPath } from "../src/outputs/shared/run-path.js";
import { clipPath, columns } from "../src/outputs/show/wrap.js";
import { callPair, completed, init, line, result, started, user } from "./helpers/events.js";
import { runCli } from "./helpers/run-cli.js";
import { FUZZ_SEED } from "./helpers/scale.js";

// Issue 26 (first contact): `show` cut long paths at the end, so a Windows run's every target read
// `D:\Downloads\Skill-Evaluation…`; paths were not relative to the run's folder (diff's were); at
// 80 columns `cwd` stood on one line and its path on the next. The HTML timeline's table the same.

const S = "5a1c9e3b-77d2-4f0a-9b6e-0c4d2e8f1a23";
const CWD = "D:\\Downloads\\Skill-Evaluation\\runs\\2026-11-20\\attempt-3";
const T0 = 1767225600000;

/** A run in CWD: a read deep inside it, an edit outside it, a grep in a folder, a listing of the folder itself. */
function windowsRun(): string {
  return [
    init(S, { cwd: CWD, model: "GPT-5.1 Medium" }),
    user(S, "Score the submissions"),
    ...callPair(S, "c1", "readToolCall", { path: `${CWD}\\src\\evaluation\\scoring\\rubric_loader.py` }, { success: { content: "x" } }, T0 + 10, T0 + 20),
    ...callPair(S, "c2", "editToolCall", { path: "D:\\Downloads\\Other-Project\\very\\long\\folder\\names\\here\\settings.json" }, { success: {} }, T0 + 30, T0 + 40),
    ...callPair(S, "c3", "grepToolCall", { pattern: "def score", path: `${CWD.toLowerCase()}\\src` }, { success: {} }, T0 + 50, T0 + 60),
    ...callPair(S, "c4", "lsToolCall", { path: CWD }, { success: {} }, T0 + 70, T0 + 80),
    result(S, { duration_ms: 100 }),
  ]
    .map(line)
    .join("");
}

test("placeInRun (shared with diff): inside, outside, Windows case, the folder itself, relative paths", () => {
  assert.deepEqual(placeInRun("/home/dev/app/src/a.ts", "/home/dev/app"), { path: "src/a.ts" });
  assert.deepEqual(placeInRun("/home/dev/app", "/home/dev/app/"), { path: "" });
  assert.deepEqual(placeInRun("/home/dev/apple/a.ts", "/home/dev/app"), { outside: "not inside the run's folder /home/dev/app" });
  assert.deepEqual(placeInRun("d:\\downloads\\x\\A.TS", "D:\\Downloads\\X"), { path: "A.TS" });
  assert.deepEqual(placeInRun("./src/a.ts", "/home/dev/app"), { path: "src/a.ts" });
  assert.deepEqual(placeInRun("../a.ts", "/home/dev/app"), { outside: "not inside the run's folder /home/dev/app" });
  assert.deepEqual(placeInRun("/a.ts", undefined), { outside: "the log names no cwd to place it in" });
});

test("shownPath: an absolute path inside the run's folder relative to it, any other as logged", () => {
  assert.equal(shownPath(`${CWD}\\src\\main.py`, CWD), "src/main.py");
  assert.equal(shownPath(`${CWD.toUpperCase()}\\SRC\\Main.py`, CWD), "SRC/Main.py");
  assert.equal(shownPath(CWD, CWD), ".");
  assert.equal(shownPath("/home/dev/app/src/a.ts", "/home/dev/app"), "src/a.ts");
  assert.equal(shownPath("/home/dev/app/../b.ts", "/home/dev/app"), "/home/dev/app/../b.ts");
  assert.equal(shownPath("D:\\Elsewhere\\b.ts", CWD), "D:\\Elsewhere\\b.ts");
  assert.equal(shownPath("src\\a.ts", CWD), "src\\a.ts");
  assert.equal(shownPath("./a.ts", "/home/dev/app"), "./a.ts");
  assert.equal(shownPath("/home/dev/app/a.ts", undefined), "/home/dev/app/a.ts");
});

test("clipPath: cut in the middle, the file name kept whole where it fits", () => {
  const p = "src/outputs/show/deep/file.ts";
  assert.equal(clipPath(p, 40), p);
  assert.equal(clipPath(p, 20), "src/…/deep/file.ts");
  assert.equal(clipPath(p, 14), "src/…/file.ts");
  assert.equal(clipPath(p, 12), "src…/file.ts");
  assert.equal(clipPath("D:\\Downloads\\Skill-Evaluation\\runs\\x\\src\\rubric_loader.py", 32), "D:\\…\\runs\\x\\src\\rubric_loader.py");
  assert.equal(clipPath("/home/dev/app/src/outputs/show/deep/file.ts", 25), "/home/…/show/deep/file.ts");
  // A file name wider than the room: its start and its end.
  assert.equal(clipPath("src/a-very-long-file-name-without-folder.ts", 20), "src/a-very…folder.ts");
  assert.equal(clipPath("dir/sub/other/", 10), "di…/other/");
  // Never inside a grapheme: a ZWJ sequence, a flag, a skin tone stay whole.
  assert.equal(clipPath("src/deep/👩‍💻👩‍💻👩‍💻👩‍💻.ts", 12), "src/de…👩‍💻.ts");
  assert.equal(clipPath("🇫🇷🇫🇷🇫🇷/👍🏽👍🏽👍🏽/x.ts", 10), "🇫🇷🇫🇷…/x.ts");
  assert.equal(clipPath(p, 0), p);
});

test("clipPath: property: within the width, a prefix and a suffix of whole graphemes, the last component kept when it fits", () => {
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const graphemes = (s: string): string[] => [...seg.segment(s)].map((g) => g.segment);
  const part = fc.array(fc.constantFrom("a", "Z", "é", "e\u0301", "漢", "👩‍💻", "🇫🇷", "👍🏽", "-", " ", "."), { minLength: 1, maxLength: 12 }).map((a) => a.join(""));
  const path = fc.tuple(fc.constantFrom("", "/", "C:\\"), fc.array(part, { minLength: 1, maxLength: 8 }), fc.constantFrom("/", "\\")).map(([root, parts, sep]) => root + parts.join(sep));
  fc.assert(
    fc.property(path, fc.integer({ min: 3, max: 60 }), (p, width) => {
      const out = clipPath(p, width);
      assert.ok(columns(out) <= width, `${out} is wider than ${width}`);
      if (out === p) return;
      const at = out.indexOf("…");
      assert.ok(at >= 0, out);
      const head = out.slice(0, at);
      const tail = out.slice(at + 1);
      const all = graphemes(p);
      // head is a prefix of whole graphemes, tail a suffix of whole graphemes
      assert.deepEqual(all.slice(0, graphemes(head).length), graphemes(head));
      assert.deepEqual(all.slice(all.length - graphemes(tail).length), graphemes(tail));
      const last = /[/\\][^/\\]*$/.exec(p)?.[0];
      if (last !== undefined && columns(last) < width - 1) assert.ok(out.endsWith(last), `${out} keeps ${last}`);
    }),
    { seed: FUZZ_SEED, numRuns: 500 },
  );
});

test("show at 80 columns: paths relative to the run's folder, a path outside it cut in its middle, cwd beside its label", async () => {
  const got = await runCli(["show", "-"], { stdin: windowsRun() });
  assert.equal(got.stderr, "");
  assert.equal(
    got.stdout,
    [
      `━━ Session 1 · ${S} ━━━━━━━━━━━━━━━━━━━━━━━━━━━━`,
      "model GPT-5.1 Medium ·",
      `cwd ${CWD}`,
      "started 2026-01-01T00:00:00.010Z · log <stdin>:1",
      "",
      "> Score the submissions",
      "",
      "✓ Read file: src/evaluation/scoring/rubric_loader.py · 10ms",
      "✓ Edited file: D:\\…\\very\\long\\folder\\names\\here\\settings.json · 10ms",
      "✓ Searched file contents: def score in src · 10ms",
      "✓ Listed directory: . · 10ms",
      "",
      "── ✓ finished · 100ms",
      "   tokens not in log · calls: 4 ok",
      "",
    ].join("\n"),
  );
});

test("show: a label is never the last word of a line and its value the first of the next", async () => {
  for (const width of [30, 40, 50, 60, 70, 80]) {
    const got = await runCli(["show", "--width", String(width), "-"], { stdin: windowsRun() });
    const lines = got.stdout.split("\n");
    for (const l of lines.slice(1, 5)) assert.doesNotMatch(l, /(^|· )(model|cwd|started|log)$/, `width ${width}: ${JSON.stringify(l)}`);
    assert.ok(lines.includes(`cwd ${CWD}`) || lines.some((l) => l.endsWith(`cwd ${CWD}`)), `width ${width}: cwd and its path on one line`);
  }
});

test("show --format markdown: targets relative to the run's folder; a long path alone makes no <details>", async () => {
  const deep = `${CWD}\\${"nested-folder\\".repeat(9)}leaf.py`;
  const log = [
    init(S, { cwd: CWD }),
    started(S, "c1", "readToolCall", { path: deep }, T0 + 10),
    completed(S, "c1", "readToolCall", { args: { path: deep }, result: { success: { content: "x" } } }, T0 + 20),
    result(S, { duration_ms: 100 }),
  ]
    .map(line)
    .join("");
  const got = await runCli(["show", "--format", "markdown", "-"], { stdin: log });
  const rel = `${"nested-folder/".repeat(9)}leaf.py`;
  assert.ok(rel.length > 100);
  assert.equal(
    got.stdout,
    [
      `### Session 1 · ${S}`,
      "",
      `**cwd:** ${CWD.replace(/\\/g, "\\\\")} · **Started:** 2026-01-01T00:00:00.010Z · **Log:** \\<stdin\\>:1`,
      "",
      `<p>✓ <b>Read file</b>: <code>${rel}</code> · 10ms</p>`,
      "",
      "**✓ finished** · 100ms · tokens not in log · calls: 1 ok",
      "",
    ].join("\n"),
  );
});

test("timeline --format html: targets relative to the session's cwd, paths flagged for the table's middle cut, the folder in the summary", async () => {
  const got = await runCli(["timeline", "--format", "html", "-"], { stdin: windowsRun() });
  assert.equal(got.code, 0, got.stderr);
  const json = /<script type="application\/json" id="timeline-data">([\s\S]*?)<\/script>/.exec(got.stdout)![1]!;
  const run = JSON.parse(json) as { sessions: Array<{ cwd: string; calls: Array<{ target: string; path?: true }> }> };
  const s = run.sessions[0]!;
  assert.equal(s.cwd, CWD);
  assert.deepEqual(
    s.calls.map((c) => [c.target, c.path ?? false]),
    [
      ["src/evaluation/scoring/rubric_loader.py", true],
      ["D:\\Downloads\\Other-Project\\very\\long\\folder\\names\\here\\settings.json", true],
      ["def score in src", true],
      [".", true],
    ],
  );
  // The table puts a path's folders and its file name in two spans: the folders give way first.
  assert.match(got.stdout, /td \.path \.dir \{ flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; \}/);
  assert.match(got.stdout, /td \.path \.base \{ flex: 0 0 auto;/);
  assert.match(got.stdout, /el\("span", "dir", c\.target\.slice\(0, cut\)\), el\("span", "base", c\.target\.slice\(cut\)\)/);
});

test("a call that completes without its arguments keeps its path's end: the file name stays, in show and in the page", async () => {
  // A refused read completes without args (FORMAT.md §5.3): its target is what its start kept, 100
  // characters of each argument; a path keeps its first 30 and its end (before: its first 99).
  const deep = `${CWD}\\${"nested-folder\\".repeat(9)}leaf.py`;
  const log = [
    init(S, { cwd: CWD }),
    started(S, "c1", "readToolCall", { path: deep }, T0 + 10),
    completed(S, "c1", "readToolCall", { result: { rejected: { reason: "outside the workspace" } } }, T0 + 20),
    started(S, "c2", "editToolCall", { path: deep }, T0 + 30),
  ]
    .map(line)
    .join("");
  const kept = "D:\\Downloads\\Skill-Evaluation\\…" + deep.slice(-69);
  assert.equal(kept.length, 100);
  const got = await runCli(["show", "--width", "0", "-"], { stdin: log });
  assert.ok(got.stdout.includes(`⊘ Read file: ${kept} · rejected: outside the workspace · 10ms\n`), got.stdout);
  assert.ok(got.stdout.includes(`… Edited file: ${kept} · no result: still running when the log ended\n`), got.stdout);
  const page = await runCli(["timeline", "--format", "html", "--allow-incomplete", "-"], { stdin: log });
  const json = /<script type="application\/json" id="timeline-data">([\s\S]*?)<\/script>/.exec(page.stdout)![1]!;
  const calls = (JSON.parse(json) as { sessions: Array<{ calls: Array<{ target: string }> }> }).sessions[0]!.calls;
  assert.deepEqual(calls.map((c) => c.target), [kept, kept]);
});

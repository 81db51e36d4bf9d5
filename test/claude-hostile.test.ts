// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { genClaudeLog, hostileText } from "./helpers/claude-gen.js";
import { EVIL, EVIL_SHOWN, hostileClaudeLog } from "./helpers/claude-hostile.js";
import { logCommands, runFed, show, type RunResult } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";

// The promise of robust-hostile.test.ts for Claude Code logs: text from the log never reaches a
// terminal raw. A Claude Code log whose Bash commands, file paths, tool_result contents, errors,
// result text, model name, subagent description, denial, task ids and the rest hold terminal
// escape sequences (OSC, CSI), 8-bit C1 controls, bidi overrides, CR and NUL: every human output
// (text, text -v, text --final, show, stats, timeline on a terminal, the HTML timeline, diff's
// names) and every message on stderr of every command shows them escaped.
//  - property: generated Claude Code logs (test/helpers/claude-gen.ts) with hostile text
//    everywhere, a hostile file name, the agent CLI's text with raw escapes, a run cut off;
//  - exactly: test/helpers/claude-hostile.ts, one hostile value at each place a Claude Code log
//    holds text, through each human output.
// A tool's own name, a background task id and a call id have tests of their own (show, the HTML
// timeline); the exact tests use the log with plain ids and names there
// (hostileClaudeLog({ plainIds: true })).
//
// Runs (test/helpers/scale.ts): make test runs the property a few times, make stress at full
// count; FUZZ_RUNS and FUZZ_SEED as in robust-hostile.

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();

/** Any control a terminal may act on: C0 (but LF), DEL, C1, and the bidi overrides and isolates. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** The same, allowing TAB (a message's or a file's tabs are kept as they are). */
const UNSAFE_BUT_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** Colour, ours: SGR sequences picocolors writes (ESC [ n m). Removed before looking for raw controls. */
const OUR_SGR = /\u001b\[\d+m/g;

function firstUnsafe(s: string, re = UNSAFE): string | undefined {
  const t = s.replace(OUR_SGR, "").replaceAll("\n", "");
  const m = re.exec(t);
  return m ? `U+${m[0].codePointAt(0)!.toString(16).padStart(4, "0")} at ${m.index}: ${show(t.slice(Math.max(0, m.index - 60), m.index + 20))}` : undefined;
}

/** A terminal on stdout and stderr, colour on (our own SGR codes are allowed); CI=1 turns off the progress line. */
const TTY = { stdoutIsTTY: true, stderrIsTTY: true, env: { TZ: "UTC", TERM: "xterm-256color", CI: "1", COLUMNS: "200" } };
/** Commands whose stdout is for a terminal (timeline and diff escape on one). */
const HUMAN = new Set(["text", "stats", "timeline", "show", "diff"]);
/** Those that keep a message's or a file's tabs as they are. */
const keepsTabs = (argv: readonly string[]) => argv.includes("--final") || argv[0] === "show" || argv[0] === "diff" || argv.includes("tsv");

/** Asserts a run on a terminal wrote no raw control: stderr always, stdout for the human outputs. */
function assertSafe(r: RunResult, argv: readonly string[]): void {
  const context = `cursorlog ${argv.join(" ")} on a terminal`;
  const err = firstUnsafe(r.stderr);
  assert.equal(err, undefined, `${context}: stderr holds ${err}`);
  if (!HUMAN.has(argv[0]!)) return;
  const out = firstUnsafe(r.stdout, keepsTabs(argv) ? UNSAFE_BUT_TAB : UNSAFE);
  assert.equal(out, undefined, `${context}: stdout holds ${out}`);
}

const hostileRun = fc.record({
  log: genClaudeLog({ maxRuns: 2, text: hostileText }),
  name: fc.constantFrom("run.ndjson", "\u001b]0;pwned\u0007.ndjson", "a\u001b[2Jb.ndjson", "x\u009b31m\u202e.log"),
  garbage: fc.option(fc.constantFrom("\u001b]0;pwned\u0007 not json", "API Error: \u001b[31mred\u001b[0m", "\u009d0;t\u009c{"), { nil: undefined }),
  cut: fc.boolean(),
});

function build(h: { log: { bytes: Buffer }; garbage: string | undefined; cut: boolean }): Buffer {
  let bytes = h.log.bytes;
  if (h.garbage !== undefined) bytes = Buffer.concat([bytes, Buffer.from("\n" + h.garbage + "\n")]);
  // A run cut off before its result: its open calls are named in a message.
  if (h.cut) {
    const at = bytes.lastIndexOf('"type":"result"');
    if (at >= 0) bytes = bytes.subarray(0, bytes.lastIndexOf("\n", at) + 1);
  }
  return bytes;
}

test("property: hostile Claude Code logs: text, show, diff, stats, timeline and every diagnostic of every command write no raw control character to a terminal", { timeout: 900_000 }, async () => {
  const argvs = COMMANDS.flatMap((c) => [[c.name, "--lenient"], [c.name, "--lenient", "--allow-incomplete"].filter((a) => a !== "--allow-incomplete" || c.flags.has(a))]);
  argvs.push(["text", "-v", "--lenient"], ["text", "--final", "--lenient"], ["text", "--final", "--allow-incomplete", "--lenient"]);
  argvs.push(["show", "--thinking", "--diff", "--lenient"], ["show", "--format", "markdown", "--diff", "--lenient"], ["diff", "--stat", "--lenient"], ["diff", "--name-only", "--lenient"]);
  argvs.push(["timeline", "--format", "tsv", "--lenient"], ["timeline", "--format", "ndjson", "--lenient"], ["stats", "--format", "markdown", "--lenient"]);
  await fc.assert(
    fc.asyncProperty(hostileRun, async (h) => {
      const bytes = build(h);
      for (const argv of argvs) assertSafe(await runFed([...argv, h.name], { files: { [h.name]: { bytes } }, ...TTY }), argv);
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 40), includeErrorInReport: true },
  );
});

const NAME = "claude\u001b[2J.ndjson";
const NAME_SHOWN = "claude\\u001b[2J.ndjson";

async function onTerminal(argv: readonly string[], bytes: Buffer, tty = TTY): Promise<RunResult> {
  return runFed([...argv, NAME], { files: { [NAME]: { bytes } }, ...tty });
}

test("a Claude Code log with OSC, CSI, 8-bit CSI, bidi, CR and NUL in every value: every human output and every message escapes them", { timeout: 300_000 }, async () => {
  const bytes = hostileClaudeLog({ plainIds: true });
  const argvs = [
    ...COMMANDS.map((c) => [c.name, "--lenient"]),
    ["text", "-v", "--lenient"],
    ["text", "--final", "--allow-incomplete", "--lenient"],
    ["show", "--thinking", "--diff", "--lenient"],
    ["show", "--format", "markdown", "--thinking", "--diff", "--lenient"],
    ["stats", "--format", "markdown", "--lenient"],
    ["timeline", "--format", "tsv", "--lenient"],
    ["timeline", "--format", "ndjson", "--lenient"],
    ["diff", "--name-only", "--lenient"],
    ["diff", "--stat", "--lenient"],
  ];
  for (const argv of argvs) assertSafe(await onTerminal(argv, bytes), argv);
});

test("the hostile Claude Code log: each value shown escaped where it is shown (text -v, stats, show, timeline, diff, stderr)", async () => {
  const bytes = hostileClaudeLog({ plainIds: true });
  const plain = { ...TTY, env: { ...TTY.env, NO_COLOR: "1" } };
  const has = (r: RunResult, where: "stdout" | "stderr", piece: string, argv: string) => assert.ok(r[where].includes(piece), `cursorlog ${argv}: ${where} lacks ${show(piece)}:\n${r[where].slice(0, 3000)}`);
  const v = await onTerminal(["text", "-v", "--lenient"], bytes, plain);
  for (const line of [
    `Ran terminal command: echo ${EVIL_SHOWN} (failed, exit 1)`,
    `Read file: /home/dev/app${EVIL_SHOWN}/r${EVIL_SHOWN}.txt (error: File ${EVIL_SHOWN} missing)`,
    `Created new file: /home/dev/app${EVIL_SHOWN}/w${EVIL_SHOWN}.txt`,
    `Ran subagent task: sub ${EVIL_SHOWN}`,
    `Called MCP tool: ev${EVIL_SHOWN}il/tool${EVIL_SHOWN}`,
    `Ran terminal command: rm ${EVIL_SHOWN} (permission denied: denied ${EVIL_SHOWN})`,
    `Used tool Tool: /p${EVIL_SHOWN}`,
    `Edited file: /home/dev/app${EVIL_SHOWN}/e${EVIL_SHOWN}.txt`,
  ]) {
    assert.ok(v.stdout.split("\n").includes(line), `text -v: no line ${show(line)} in:\n${v.stdout}`);
  }
  has(v, "stdout", `ended (completed${EVIL_SHOWN})`, "text -v");
  has(v, "stderr", `cursorlog: error (at ${NAME_SHOWN}:28): session sess${EVIL_SHOWN} ended with an error`, "text -v");
  has(v, "stderr", `cursorlog: warning (at ${NAME_SHOWN}:31): the agent CLI said: Error: \\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e`, "text -v");
  const stats = await onTerminal(["stats", "--lenient"], bytes, plain);
  for (const piece of [`model       claude${EVIL_SHOWN}`, `prompt      prompt \\u001b]0;pwned\\u0007`, `session id  sess${EVIL_SHOWN}`]) has(stats, "stdout", piece, "stats");
  const s = await onTerminal(["show", "--thinking", "--lenient"], bytes, plain);
  for (const piece of [`said ${EVIL_SHOWN}`, `think ${EVIL_SHOWN}`, `> prompt ${EVIL_SHOWN}`, `model claude${EVIL_SHOWN}`, `out ${EVIL_SHOWN}`]) has(s, "stdout", piece, "show --thinking");
  const t = await onTerminal(["timeline", "--columns", "call_id,tool,target", "--lenient"], bytes, plain);
  has(t, "stdout", `toolu_1,Bash,echo ${EVIL_SHOWN}\n`, "timeline");
  has(t, "stdout", `toolu_6,mcp__ev${EVIL_SHOWN}il__tool${EVIL_SHOWN},ev${EVIL_SHOWN}il/tool${EVIL_SHOWN}\n`, "timeline");
  // On a terminal timeline's NDJSON escapes the characters JSON leaves raw and still means the same values.
  const nd = await onTerminal(["timeline", "--format", "ndjson", "--columns", "call_id,target", "--lenient"], bytes, plain);
  const rows = nd.stdout.split("\n").slice(0, -1).map((l) => JSON.parse(l) as { call_id: string; target: string });
  assert.deepEqual(rows[0], { call_id: "toolu_1", target: `echo ${EVIL}` });
  // diff quotes names as git does (C-style octal escapes): nothing raw, and the name recoverable.
  const names = await onTerminal(["diff", "--name-only", "--lenient"], bytes, plain);
  assert.equal(names.stdout, '"w\\033]0;pwned\\a\\033[2J\\302\\23331m\\342\\200\\256\\r\\000.txt"\n"e\\033]0;pwned\\a\\033[2J\\302\\23331m\\342\\200\\256\\r\\000.txt"\n');
});

test("the HTML timeline of the hostile Claude Code log holds no raw control or bidi character (values, paths, names)", async () => {
  const r = await runFed(["timeline", "--format", "html", "--allow-incomplete", "--lenient", NAME], { files: { [NAME]: { bytes: hostileClaudeLog({ plainIds: true }) } } });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.exec(r.stdout), null, `html: ${firstUnsafe(r.stdout, UNSAFE_BUT_TAB)}`);
});

// ---------------------------------------------------------------------------------------------
// What show and the HTML timeline once wrote raw: a tool's own name, a background task id, a call id.

test("show on a terminal: a tool's own name and a background task id from the log are escaped", async () => {
  const bytes = hostileClaudeLog();
  for (const argv of [["show", "--lenient"], ["show", "--thinking", "--diff", "--lenient"]]) assertSafe(await onTerminal(argv, bytes), argv);
});

test("the HTML timeline: a call id from the log holds no raw control or bidi character", async () => {
  const r = await runFed(["timeline", "--format", "html", "--allow-incomplete", "--lenient", NAME], { files: { [NAME]: { bytes: hostileClaudeLog() } } });
  assert.equal(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.exec(r.stdout), null, `html: ${firstUnsafe(r.stdout, UNSAFE_BUT_TAB)}`);
});

test("every other output of the hostile Claude Code log with its hostile ids and names: no raw control on a terminal", async () => {
  const bytes = hostileClaudeLog();
  const argvs = [...COMMANDS.filter((c) => c.name !== "show").map((c) => [c.name, "--lenient"]), ["text", "-v", "--lenient"], ["timeline", "--format", "tsv", "--lenient"], ["stats", "--format", "markdown", "--lenient"]];
  for (const argv of argvs) assertSafe(await onTerminal(argv, bytes), argv);
});

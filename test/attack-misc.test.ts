import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { assistant, callPair, init, line, result, user } from "./helpers/events.js";
import { runCli } from "./helpers/run-cli.js";

/** Issue 24: smaller items (terminal escaping, time offsets, the library's bytes, warning floods, CSP). */

function tempLog(text: string | Buffer): { dir: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-attack-misc-"));
  const log = join(dir, "run.ndjson");
  writeFileSync(log, text);
  return { dir, log };
}

// --- Item 18: invisible characters that disguise text reach no terminal raw. ---

/** The bidi marks, zero-width space, word joiner, BOM and the line/paragraph separators. */
const INVISIBLE = ["\u200e", "\u200f", "\u061c", "\u200b", "\u2060", "\ufeff", "\u2028", "\u2029"];
const escaped = (c: string): string => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
/** Text that carries every one of them, and a ZWJ emoji sequence (which must stay whole). */
const HIDDEN = "a" + INVISIBLE.join("b") + "c 👩‍💻";
const SHOWN = "a" + INVISIBLE.map(escaped).join("b") + "c 👩‍💻";
const SID = "00000000-0000-4000-8000-000000000018";

function hostileLog(): string {
  const [s, c] = callPair(SID, "call_1\nfc_1", "shellToolCall", { command: `echo ${HIDDEN}` }, { failure: { command: `echo ${HIDDEN}`, exitCode: 1, stderr: `oops ${HIDDEN}` } }, 1000, 2000);
  return [
    init(SID, { cwd: "/home/dev/app", model: `m${HIDDEN}` }),
    user(SID, `do ${HIDDEN}`),
    assistant(`said ${HIDDEN}`, { session_id: SID }),
    s,
    c,
    result(SID, { duration_ms: 5, is_error: false, result: `done ${HIDDEN}` }),
  ]
    .map(line)
    .join("") + `{"type":"x${HIDDEN}","session_id":"${SID}"}\n`;
}

const TERMINAL = { env: { TZ: "UTC", NO_COLOR: "1", COLUMNS: "200" }, stdoutIsTTY: true };

test("show, text, stats, validate and markdown write no bidi mark, zero-width character or line separator raw", async () => {
  const { dir, log } = tempLog(hostileLog());
  try {
    const runs: Array<[string[], RegExp]> = [
      [["show", "--lines", "3", log], /✗ Ran terminal command: echo a\\u200eb/],
      // The agent's message is Markdown there (issue 26): `\u200e` as written, not escaped again.
      [["show", "--format", "markdown", log], /said a\\u200eb/],
      [["text", "-v", log], /Ran terminal command: echo a\\u200eb/],
      [["stats", log], /prompt {6}do a\\u200eb/],
      [["stats", "--format", "markdown", log], /Prompt:\*\* do a\\\\u200eb/],
      [["stats", "--format", "json", log], /a\\u200eb/],
      [["validate", log], /unknown event type "xa\\u200eb/],
      [["validate", "--format", "json", log], /unknown event type \\"xa\\u200eb/],
      [["validate", "--format", "github", log], /unknown event type "xa\\u200eb/],
      [["json", log], /done a\\u200eb/],
    ];
    for (const [argv, expect] of runs) {
      const r = await runCli(argv, TERMINAL);
      const all = r.stdout + r.stderr;
      for (const ch of INVISIBLE) assert.ok(!all.includes(ch), `cursorlog ${argv[0]} ${argv[1]}: raw U+${ch.charCodeAt(0).toString(16)} in ${JSON.stringify(all)}`);
      assert.match(all, expect, `cursorlog ${argv.join(" ")}`);
      // A ZWJ sequence is one emoji, not a disguise: it is written as it is wherever its text is shown whole.
      if (argv[0] === "show" || argv[0] === "text") assert.ok(all.includes("c 👩‍💻"), `${argv[0]}: the emoji kept`);
    }
    // The escaped text, whole, where show writes the agent's message.
    const shown = await runCli(["show", log], TERMINAL);
    assert.ok(shown.stdout.includes(`said ${SHOWN}\n`), shown.stdout);
    const text = await runCli(["text", "-v", log], TERMINAL);
    assert.ok(text.stdout.includes(`Ran terminal command: echo ${SHOWN}`), text.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- Item 26: the agent CLI's text lines are told once per run, not a warning a line. ---

test("export and diff tell a run's 1,000 agent CLI text lines in one warning, as json does; text alone is one line too", async () => {
  const sid = "00000000-0000-4000-8000-000000000026";
  let said = "";
  for (let i = 1; i <= 1000; i++) said += `RetriableError: attempt ${i}\n`;
  const { dir, log } = tempLog(line(init(sid, { cwd: "/home/dev/app", timestamp_ms: 1760000000000 })) + said + line(result(sid, { duration_ms: 5, is_error: false, result: "", timestamp_ms: 1760000000005 })) + "trailing text\n");
  const textOnly = join(dir, "text-only.ndjson");
  writeFileSync(textOnly, said);
  try {
    const warning = `cursorlog: warning (at ${log}:2): the agent CLI said: RetriableError: attempt 1 (and 999 more lines)\n`;
    const trailing = `cursorlog: warning (at ${log}:1003): the agent CLI said: trailing text\n`;
    for (const argv of [["json"], ["export"], ["export", "--format", "chrome-trace"], ["diff"], ["diff", "--stat"]]) {
      const r = await runCli([...argv, log]);
      assert.equal(r.stderr, warning + trailing, argv.join(" "));
      assert.equal(r.code, 0, argv.join(" "));
    }
    // A file that is all text: diff says what json says (no session, status 4); export warns once.
    const none = `no session in the input; the agent CLI said: RetriableError: attempt 1 (and 999 more lines)\n`;
    for (const argv of [["json"], ["diff"]]) {
      const r = await runCli([...argv, textOnly]);
      assert.equal(r.stderr, `cursorlog: error (at ${textOnly}:1): ${none}`, argv.join(" "));
      assert.equal(r.code, 4);
    }
    const e = await runCli(["export", textOnly]);
    assert.equal(e.stderr, `cursorlog: warning (at ${textOnly}:1): the agent CLI said: RetriableError: attempt 1 (and 999 more lines)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- Item 24: a time's UTC offset must be one. ---

test("filter --since/--until refuse an offset past 23 hours or 59 minutes; +23:59 and -05:30 still work", async () => {
  for (const [opt, value, zone] of [
    ["--since", "2026-01-01T00:00:00+99:00", "+99:00"],
    ["--until", "2026-01-01T00:00+05:75", "+05:75"],
    ["--since", "2026-01-01 00:00:00-2400", "-2400"],
  ] as const) {
    const r = await runCli(["filter", opt, value, "examples/session.ndjson"]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      `cursorlog: error: option '${opt} <time>' argument '${value}' is invalid. ${zone} is not a UTC offset (hours 00 to 23, minutes 00 to 59, as in +02:00 or -05:30)\nRun 'cursorlog filter --help' for usage.\n`,
    );
  }
  // The log's events are at 2026-01-01T00:00:00.137Z and after (49 of them carry a time): +23:59
  // puts the bound at 2025-12-31T00:01Z, before them all; -05:30 at 05:30Z, after them all.
  const all = await runCli(["filter", "--count", "--since", "2026-01-01T00:00:00+23:59", "examples/session.ndjson"]);
  assert.deepEqual([all.code, all.stdout], [0, "49\n"]);
  const none = await runCli(["filter", "--count", "--since", "2026-01-01T00:00:00-05:30", "examples/session.ndjson"]);
  assert.equal(none.stdout, "0\n");
});

// --- Item 25: the library writes a kept line's bytes as the CLI does. ---

test("the library's ndjsonTransform(toFilteredEvents) writes a line with invalid UTF-8 as its own bytes, as the CLI does", async () => {
  const { ndjsonTransform, toFilteredEvents } = await import("../src/index.js");
  const bad = Buffer.concat([Buffer.from('{"type":"assistant","message":{"content":[{"type":"text","text":"caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}]},"session_id":"s"}\n')]);
  const input = Buffer.concat([Buffer.from('{"type":"system","subtype":"init","session_id":"s"}\n'), bad, Buffer.from('{"type":"result","subtype":"success","session_id":"s"}\n')]);
  const { dir, log } = tempLog(input);
  try {
    // The CLI's own bytes (runCli would decode them as UTF-8).
    const cli = spawnSync(process.execPath, ["bin/cursorlog.js", "filter", log], { timeout: 30_000 }).stdout;
    assert.deepEqual(cli, input);
    const chunks: Buffer[] = [];
    const t = ndjsonTransform((r) => toFilteredEvents({}, r));
    t.on("data", (c: Buffer) => chunks.push(c));
    // Written in 7-byte pieces: the invalid bytes straddle writes.
    for (let i = 0; i < input.length; i += 7) t.write(input.subarray(i, i + 7));
    await new Promise<void>((resolve, reject) => t.end(resolve).on("error", reject));
    assert.deepEqual(Buffer.concat(chunks), input);
    assert.equal(t.exitCode(), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --- Item 27: the HTML page's CSP allows its own script and style by hash, no 'unsafe-inline'. ---

test("timeline --format html: the Content-Security-Policy names the page's script and style by their SHA-256, never 'unsafe-inline'", async () => {
  const r = await runCli(["timeline", "--format", "html", "examples/session.ndjson"]);
  assert.equal(r.code, 0);
  const page = r.stdout;
  const hash = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1];
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  assert.equal(scripts.length, 1, "one executable script (the data block is application/json)");
  assert.equal(styles.length, 1);
  assert.equal(csp, `default-src 'none'; style-src ${hash(styles[0]!)}; script-src ${hash(scripts[0]!)}`);
  assert.ok(!page.includes("unsafe-inline"));
  assert.doesNotMatch(page, /\sstyle=|\son[a-z]+=/i, "no inline style attribute or handler in the markup (the CSP would block it)");
});

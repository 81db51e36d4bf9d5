// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { genLog, HOSTILE_PIECES, logText, type Ev } from "./helpers/gen-events.js";
import { logCommands, runFed, show } from "./helpers/run-chunks.js";
import { FUZZ_SEED, fuzzRuns } from "./helpers/scale.js";

// Hostile logs. A log is data from a model and the tools it ran: its file paths, commands and
// text can hold terminal escape sequences (OSC 0 retitles the window, OSC 8 makes fake links, CSI
// moves the cursor or clears the screen, BEL rings), 8-bit C1 controls and bidi overrides.
//  - text (and stats' text report) and every diagnostic never write one of them raw;
//  - timeline escapes them in cells when stdout is a terminal (its files and pipes keep the data);
//  - filter's byte-exact NDJSON is safe on a terminal because a JSON line cannot hold a raw C0
//    control inside a string: ESC and BEL only ever appear as \u001b, \u0007;
//  - timeline --safe-csv defuses spreadsheet formulas;
//  - a user's regex (filter --where 'PATH ~ RE') cannot hang on a hostile line: timed, so in
//    robust-hostile-regex.test.ts, which runs alone.
//
// Runs (test/helpers/scale.ts): make test runs each property a few times, make stress
// (CURSORLOG_STRESS=1) at full count; FUZZ_RUNS overrides them, FUZZ_SEED the seed (42).

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();

/** Any control a terminal may act on: C0 (but LF), DEL, C1, and the bidi overrides and isolates. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** The same, allowing TAB (text --final keeps a message's tabs and newlines as they are). */
const UNSAFE_BUT_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** Colour, ours: SGR sequences picocolors writes (ESC [ n m). Removed before looking for raw controls. */
const OUR_SGR = /\u001b\[\d+m/g;

function firstUnsafe(s: string, re = UNSAFE): string | undefined {
  const m = re.exec(s.replace(OUR_SGR, ""));
  return m ? `U+${m[0].codePointAt(0)!.toString(16).padStart(4, "0")} at ${m.index}: ${show(s.replace(OUR_SGR, "").slice(Math.max(0, m.index - 40), m.index + 20))}` : undefined;
}

/**
 * A terminal on stdout and stderr, colour on (our own SGR codes are allowed, nothing else). CI=1
 * turns off the progress line, which is ours too (\r ESC[K and byte counts, never text from the log).
 */
const TTY = { stdoutIsTTY: true, stderrIsTTY: true, env: { TZ: "UTC", TERM: "xterm-256color", CI: "1" } };

/** A hostile log: generated events, a raw escape in a line that is not JSON, a hostile file name. */
const hostileRun = fc.record({
  log: genLog({ maxSessions: 2 }),
  name: fc.constantFrom("run.ndjson", "\u001b]0;pwned\u0007.ndjson", "a\u001b[2Jb.ndjson", "x\u009b31m\u202e.log"),
  garbage: fc.option(fc.constantFrom("\u001b]0;pwned\u0007 not json", "RetriableError: \u001b[31mred\u001b[0m", "\u009d0;t\u009c{"), { nil: undefined }),
  cut: fc.boolean(),
});

function build(h: { log: { bytes: Buffer }; garbage: string | undefined; cut: boolean }): Buffer {
  let bytes = h.log.bytes;
  if (h.garbage !== undefined) bytes = Buffer.concat([bytes, Buffer.from("\n" + h.garbage + "\n")]);
  // A session cut off: its incomplete message names targets (commands, paths) from the log.
  if (h.cut) bytes = bytes.subarray(0, bytes.lastIndexOf('{"type":"result"') >= 0 ? bytes.lastIndexOf('{"type":"result"') : bytes.length);
  return bytes;
}

test("property: text, show, diff, stats and every diagnostic of every command write no raw control character from the log to a terminal", { timeout: 300_000 }, async () => {
  const argvs = COMMANDS.flatMap((c) => [[c.name], [c.name, "--lenient"], [c.name, "--lenient", "--allow-incomplete"].filter((a) => a !== "--allow-incomplete" || c.flags.has(a))]);
  argvs.push(["text", "-v", "--lenient"], ["text", "--final", "--lenient"], ["text", "--final", "--allow-incomplete", "--lenient"]);
  argvs.push(["show", "--thinking", "--diff", "--lenient"], ["show", "--format", "markdown", "--diff", "--lenient"], ["diff", "--stat", "--lenient"], ["diff", "--name-only", "--lenient"]);
  await fc.assert(
    fc.asyncProperty(hostileRun, async (h) => {
      const bytes = build(h);
      for (const argv of argvs) {
        const r = await runFed([...argv, h.name], { files: { [h.name]: { bytes } }, ...TTY });
        const context = `cursorlog ${argv.join(" ")} on a terminal`;
        const inErr = firstUnsafe(r.stderr.replaceAll("\n", ""));
        assert.equal(inErr, undefined, `${context}: stderr holds ${inErr}`);
        // stdout: text, show and stats (text report) are for terminals; timeline and diff escape on one.
        if (["text", "stats", "timeline", "show", "diff"].includes(argv[0]!)) {
          // Tabs are kept as they are: a message's (text --final, show), a file's contents (diff).
          const re = argv.includes("--final") || argv[0] === "show" || argv[0] === "diff" ? UNSAFE_BUT_TAB : UNSAFE;
          const inOut = firstUnsafe(r.stdout.replaceAll("\n", ""), re);
          assert.equal(inOut, undefined, `${context}: stdout holds ${inOut}`);
        }
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 40), includeErrorInReport: true },
  );
});

test("OSC, CSI and BEL in a command, a path and assistant text: text -v, --final and the diagnostics show them escaped", async () => {
  const S = "s-1";
  const evil = "\u001b]0;pwned\u0007\u001b[2J\u0007";
  const lines = [
    { type: "system", subtype: "init", session_id: S },
    { type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command: `echo ${evil}` } } }, session_id: S },
    { type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { shellToolCall: { result: { rejected: { reason: `hook ${evil}` } } } }, session_id: S },
    { type: "tool_call", subtype: "started", call_id: "c2", tool_call: { readToolCall: { args: { path: `a${evil}.txt` } } }, session_id: S },
    { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: `Done ${evil}\nline two\ttab` }] }, session_id: S },
  ].map((e) => JSON.stringify(e));
  const bytes = Buffer.from(lines.join("\n") + "\n");
  const v = await runFed(["text", "-v", "evil\u001b[2J.ndjson"], { files: { "evil\u001b[2J.ndjson": { bytes } } });
  assert.equal(v.stdout, "Ran terminal command: echo \\u001b]0;pwned\\u0007\\u001b[2J\\u0007 (rejected: hook \\u001b]0;pwned\\u0007\\u001b[2J\\u0007)\n");
  assert.equal(
    v.stderr,
    'cursorlog: error (at evil\\u001b[2J.ndjson:5): session s-1 has no result: its lines end at line 5, 1 tool call still open: Read file "a\\u001b]0;pwned\\u0007\\u001b[2J\\u0007.txt" (line 4)\n',
  );
  const f = await runFed(["text", "--final", "--allow-incomplete", "-"], { stdin: { bytes } });
  assert.equal(f.stdout, "Done \\u001b]0;pwned\\u0007\\u001b[2J\\u0007\nline two\ttab\n");
  const bad = await runFed(["json", "-"], { stdin: { bytes: Buffer.from(`{"type":"system"}\n\u001b]0;pwned\u0007 oops\n`) } });
  assert.equal(bad.stderr, "cursorlog: error (at <stdin>:2): session #1 has no result; the agent CLI said: \\u001b]0;pwned\\u0007 oops\n");
});

test("timeline on a terminal escapes control characters in cells (csv, tsv, ndjson); into a file or pipe it writes the data as is (line breaks as \\n in CSV unless --multiline)", async () => {
  const S = "s-1";
  const id = "call_1\nfc_1";
  const cmd = "echo \u001b]0;pwned\u0007\u009b2J\u202e";
  const bytes = Buffer.from(
    [
      { type: "system", subtype: "init", session_id: S },
      { type: "tool_call", subtype: "started", call_id: id, tool_call: { shellToolCall: { args: { command: cmd } } }, session_id: S },
      { type: "tool_call", subtype: "completed", call_id: id, tool_call: { shellToolCall: { result: { success: { exitCode: 0 } } } }, session_id: S },
      { type: "result", subtype: "success", is_error: false, result: "", session_id: S },
    ]
      .map((e) => JSON.stringify(e))
      .join("\n") + "\n",
  );
  const cols = ["--columns", "call_id,target"];
  const tty = async (format: string) => (await runFed(["timeline", "--format", format, ...cols, "-"], { stdin: { bytes }, stdoutIsTTY: true })).stdout;
  const file = async (format: string) => (await runFed(["timeline", "--format", format, ...cols, "-"], { stdin: { bytes } })).stdout;
  assert.equal(await tty("csv"), "call_id,target\ncall_1\\nfc_1,echo \\u001b]0;pwned\\u0007\\u009b2J\\u202e\n");
  assert.equal(await tty("tsv"), "call_id\ttarget\ncall_1\\nfc_1\techo \\u001b]0;pwned\\u0007\\u009b2J\\u202e\n");
  const nd = await tty("ndjson");
  assert.equal(nd, '{"call_id":"call_1\\nfc_1","target":"echo \\u001b]0;pwned\\u0007\\u009b2J\\u202e"}\n');
  assert.deepEqual(JSON.parse(nd), { call_id: id, target: cmd }, "on a terminal the NDJSON still means the same values");
  // Not a terminal: the data as is but for line breaks, written \n so a row is one line (the
  // default); --multiline gives the data exactly (RFC 4180 quoting keeps the newline in the id).
  assert.equal(await file("csv"), `call_id,target\ncall_1\\nfc_1,${cmd}\n`);
  const exact = (await runFed(["timeline", "--multiline", ...cols, "-"], { stdin: { bytes } })).stdout;
  assert.equal(exact, `call_id,target\n"call_1\nfc_1",${cmd}\n`);
  assert.deepEqual(JSON.parse(await file("ndjson")), { call_id: id, target: cmd });
});

test("filter and json on a terminal: no raw C0 control (ESC, BEL, CR, …) inside a JSON string, whatever the log; raw ones make a line invalid", async () => {
  // JSON forbids raw U+0000-U+001F inside strings; a line holding one is not JSON and is not written.
  for (const piece of HOSTILE_PIECES.filter((p) => /[\u0000-\u001f]/.test(p))) {
    const raw = Buffer.from(`{"type":"assistant","text":"${piece}"}\n`);
    const r = await runFed(["filter", "--lenient", "-"], { stdin: { bytes: raw }, stdoutIsTTY: true });
    assert.equal(r.stdout, "", `a line with raw ${show(piece)} in a string was written`);
    assert.equal(r.code, 5);
  }
  await fc.assert(
    fc.asyncProperty(fc.array(logText, { minLength: 1, maxLength: 8 }), async (texts) => {
      const events: Ev[] = texts.map((text, i) => ({ type: i % 2 ? "assistant" : "tool_call", subtype: "completed", call_id: text, text, session_id: "s" }));
      events.push({ type: "result", subtype: "success", is_error: false, result: texts.join(""), session_id: "s" });
      const bytes = Buffer.from(events.map((e) => JSON.stringify(e)).join("\n") + "\n");
      for (const argv of [["filter"], ["json"]]) {
        const r = await runFed([...argv, "-"], { stdin: { bytes }, stdoutIsTTY: true });
        const c0 = /[\u0000-\u0009\u000b-\u001f]/.exec(r.stdout);
        assert.equal(c0, null, `${argv[0]}: raw ${show(c0?.[0] ?? "")} on stdout`);
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(5, 100), includeErrorInReport: true },
  );
});

// ---------------------------------------------------------------------------------------------
// CSV formula injection.

const FORMULA = /^[=+\-@\t\r]/;
/** Columns whose cells are numbers cursorlog computes (a negative duration is a number, not a formula). */
const NUMERIC = new Set(["seq", "duration_ms", "exit_code", "started_line", "completed_line"]);

/** RFC 4180 records (LF or CRLF ends, quoted fields with "" and newlines inside). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
      else if (c === '"') (quoted = false), i++;
      else (field += c), i++;
    } else if (c === '"' && field === "") (quoted = true), i++;
    else if (c === ",") row.push(field), (field = ""), i++;
    else if (c === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++;
    else (field += c), i++;
  }
  assert.equal(field, "", "the CSV does not end with a newline");
  return rows;
}

test("property: timeline --safe-csv leaves no text cell starting with = + - @ TAB or CR, and changes nothing else", { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(genLog({ maxSessions: 2 }), async (log) => {
      const feed = { files: { "gen.ndjson": { bytes: log.bytes } } };
      const safe = parseCsv((await runFed(["timeline", "--safe-csv", "--allow-incomplete", "gen.ndjson"], feed)).stdout);
      const plain = parseCsv((await runFed(["timeline", "--allow-incomplete", "gen.ndjson"], feed)).stdout);
      assert.deepEqual(safe[0], plain[0]);
      assert.equal(safe.length, plain.length);
      const header = safe[0]!;
      for (let r = 1; r < safe.length; r++) {
        header.forEach((col, k) => {
          const s = safe[r]![k]!;
          const p = plain[r]![k]!;
          if (NUMERIC.has(col)) {
            assert.match(s, /^(-?\d+)?$/, `${col}: ${show(s)}`);
            assert.equal(s, p);
            return;
          }
          assert.doesNotMatch(s, FORMULA, `row ${r} ${col}: ${show(s)}`);
          assert.equal(s, FORMULA.test(p) ? "'" + p : p, `row ${r} ${col}: only a formula-looking cell changes`);
        });
      }
      // TSV with --safe-csv: the same rule on its text cells (NDJSON refuses --safe-csv: it is data).
      const tsv = (await runFed(["timeline", "--format", "tsv", "--safe-csv", "--allow-incomplete", "gen.ndjson"], feed)).stdout.split("\n").slice(0, -1);
      const cols = tsv[0]!.split("\t");
      assert.deepEqual(cols, header);
      for (const line of tsv.slice(1)) {
        line.split("\t").forEach((v, k) => {
          if (!NUMERIC.has(cols[k]!)) assert.doesNotMatch(v, /^[=+\-@]/, `tsv ${cols[k]}: ${show(v)}`);
        });
      }
    }),
    { seed: SEED, numRuns: fuzzRuns(3, 60), includeErrorInReport: true },
  );
});

test("--safe-csv is documented in timeline --help", async () => {
  const help = (await runFed(["timeline", "--help"])).stdout;
  assert.match(help, /--safe-csv\s+prefix text cells starting with = \+ - @ TAB or CR\s+with '/);
  assert.match(help, /--safe-csv changes data: text cells starting with = \+ - @ TAB or CR get a\s+leading '/);
});

// ---------------------------------------------------------------------------------------------
// Tool kinds from the log.

test("a hostile tool kind (the key inside tool_call, a 2025 function.name, a tool.case) is escaped in text, stats, timeline on a terminal, the HTML page and the diagnostics", async () => {
  const S = "s";
  const key = "\u001b]0;pwned\u0007\u001b[2J\nRan terminal command: rm -rf /ToolCall";
  const fn = "evil\u001b[31m\nfake line";
  const kase = "x\u009b2J\u202eToolCall";
  const lines = [
    { type: "system", subtype: "init", session_id: S },
    { type: "tool_call", subtype: "started", call_id: "c1", tool_call: { [key]: { args: { path: "/x" } } }, session_id: S, timestamp_ms: 1000 },
    { type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { [key]: { args: { path: "/x" }, result: { success: {} } } }, session_id: S, timestamp_ms: 2000 },
    { type: "tool_call", subtype: "started", call_id: "c2", tool_call: { function: { name: fn, arguments: "{}" } }, session_id: S, timestamp_ms: 1000 },
    { type: "tool_call", subtype: "completed", call_id: "c2", tool_call: { function: { name: fn, arguments: "{}", result: { success: {} } } }, session_id: S, timestamp_ms: 2000 },
    { type: "tool_call", subtype: "started", call_id: "c3", tool_call: { tool: { case: kase, value: { args: {} } } }, session_id: S, timestamp_ms: 1000 },
  ].map((e) => JSON.stringify(e));
  const files = { "k.ndjson": { bytes: Buffer.from(lines.join("\n") + "\n") } };
  const openMsg = "cursorlog: error (at k.ndjson:6): session s has no result: its lines end at line 6, 1 tool call still open: Used tool x\\u009b2J\\u202eToolCall (line 6)\n";
  const t = await runFed(["text", "k.ndjson"], { files });
  assert.equal(
    t.stdout,
    "Used tool \\u001b]0;pwned\\u0007\\u001b[2J\\nRan terminal command: rm -rf /ToolCall\nUsed tool evil\\u001b[31m\\nfake line\n",
  );
  assert.equal(t.stderr, openMsg);
  const v = await runFed(["text", "-v", "k.ndjson"], { files });
  assert.equal(
    v.stdout,
    "Used tool \\u001b]0;pwned\\u0007\\u001b[2J\\nRan terminal command: rm -rf /ToolCall: /x\nUsed tool evil\\u001b[31m\\nfake line\n",
  );
  // Exactly two action lines: a newline in a kind forges none.
  assert.equal(v.stdout.split("\n").length, 3);
  for (const argv of [["stats"], ["stats", "--format", "markdown"], ["timeline"], ["timeline", "--format", "tsv"], ["json"]]) {
    const r = await runFed([...argv, "k.ndjson"], { files, ...TTY });
    assert.equal(firstUnsafe(r.stdout.replaceAll("\n", ""), argv.includes("tsv") ? UNSAFE_BUT_TAB : UNSAFE), undefined, `${argv.join(" ")}: stdout`);
    // On a terminal a newline in a kind is escaped: the header and one row per call.
    if (argv[0] === "timeline") assert.equal(r.stdout.split("\n").length, 5, `${argv.join(" ")}: ${r.stdout}`);
    assert.equal(firstUnsafe(r.stderr.replaceAll("\n", "")), undefined, `${argv.join(" ")}: stderr`);
  }
  const h = await runFed(["timeline", "--format", "html", "--allow-incomplete", "k.ndjson"], { files });
  assert.equal(h.code, 0, h.stderr);
  assert.match(h.stdout, /evil\\\\u001b\[31m\\\\nfake line|evil\\u001b\[31m\\nfake line/);
  assert.equal(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.exec(h.stdout), null, "html: no raw control or bidi character");
});

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { genLog, HOSTILE_PIECES, logText, type Ev } from "./helpers/gen-events.js";
import { logCommands, runFed, show, type RunResult } from "./helpers/run-chunks.js";

// Hostile logs. A log is data from a model and the tools it ran: its file paths, commands and
// text can hold terminal escape sequences (OSC 0 retitles the window, OSC 8 makes fake links, CSI
// moves the cursor or clears the screen, BEL rings), 8-bit C1 controls and bidi overrides.
//  - text (and stats' text report) and every diagnostic never write one of them raw;
//  - timeline escapes them in cells when stdout is a terminal (its files and pipes keep the data);
//  - filter's byte-exact NDJSON is safe on a terminal because a JSON line cannot hold a raw C0
//    control inside a string: ESC and BEL only ever appear as \u001b, \u0007;
//  - timeline --safe-csv defuses spreadsheet formulas;
//  - a user's regex (filter --where 'PATH ~ RE') cannot hang on a hostile line.

const SEED = Number(process.env.FUZZ_SEED ?? 42);
const runs = (n: number) => Number(process.env.FUZZ_RUNS ?? n);
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
    { seed: SEED, numRuns: runs(40), includeErrorInReport: true },
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

test("timeline on a terminal escapes control characters in cells (csv, tsv, ndjson); into a file or pipe it writes the data as is", async () => {
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
  // Not a terminal: the data exactly (RFC 4180 quoting keeps the newline in the id).
  assert.equal(await file("csv"), `call_id,target\n"call_1\nfc_1",${cmd}\n`);
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
    { seed: SEED, numRuns: runs(100), includeErrorInReport: true },
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
    { seed: SEED, numRuns: runs(60), includeErrorInReport: true },
  );
});

test("--safe-csv is documented in timeline --help", async () => {
  const help = (await runFed(["timeline", "--help"])).stdout;
  assert.match(help, /--safe-csv\s+prefix text cells starting with = \+ - @ TAB or CR\s+with '/);
  assert.match(help, /--safe-csv changes data: text cells starting with = \+ - @ TAB or CR get a\s+leading '/);
});

// ---------------------------------------------------------------------------------------------
// Regexes from the user (filter --where 'PATH ~ RE').

/** Patterns that take a backtracking engine exponential or high-polynomial time on the right text. */
const EVIL = ["(a+)+$", "(a|a)*$", "(a|aa)+$", "(.*a){12}$", "^(\\w+\\s?)*$", "(x+x+)+y", "\\s*\\s*\\s*\\s*z", "(a*)*b", "([a-z]+)*\\d$", "(.*){1,32000}x"];

test("filter --where '~': the guard is documented, and hostile patterns on hostile lines finish in linear time", { timeout: 120_000 }, async () => {
  const help = (await runFed(["filter", "--help"])).stdout;
  assert.match(help, /runs\s+in\s+linear\s+time/, "filter --help documents the guard");
  assert.match(help, /counts\s+up\s+to\s+\{1000\},\s+at\s+most\s+2000\s+steps\s+once\s+repeats\s+are\s+expanded\s+\(else\s+exit\s+status\s+2\)/, "and its compile-time limits");
  assert.match(help, /Groups\s+nested\s+more\s+than\s+1000\s+deep\s+are\s+refused\s+too\s+\(exit\s+status\s+2\)/, "and the nesting limit");
  assert.match(help, /at\s+most\s+32\s+steps\s+of\s+work\s+per\s+character\s+tested,\s+plus\s+2\^26\s+per\s+line;\s+a\s+line\s+that\s+needs\s+more/, "and its budget");
  assert.match(help, /reported\s+like\s+an\s+invalid\s+line:\s+exit\s+status\s+5,\s+or\s+skipped\s+with\s+--lenient/, "and what happens past it");
  const texts = ["a".repeat(1 << 18) + "!", "ab".repeat(1 << 17), " ".repeat(1 << 18), "x".repeat(1 << 18)];
  const bytes = Buffer.from(texts.map((t) => JSON.stringify({ type: "assistant", text: t })).join("\n") + "\n");
  const bound = await boundFor(bytes, 5000);
  for (const re of EVIL) {
    const t0 = performance.now();
    const r = await runFed(["filter", "-c", "--where", `text ~ ${re}`, "-"], { stdin: { bytes }, timeoutMs: 30_000 });
    const ms = performance.now() - t0;
    assert.ok(r.code === 0 || (r.code === 2 && /regular expression/.test(r.stderr)), `/${re}/: exit ${r.code} ${r.stderr}`);
    assert.ok(ms < bound, `/${re}/ on 1 MiB of hostile text took ${Math.round(ms)} ms (bound ${Math.round(bound)} ms)`);
  }
});

/** Lines of `text` events, one per string. */
function textLines(...texts: string[]): Buffer {
  return Buffer.from(texts.map((t) => JSON.stringify({ type: "assistant", text: t })).join("\n") + "\n");
}

/** `filter -c --where 'text ~ RE'` over the lines, timed. */
async function countMatches(re: string, bytes: Buffer, extra: string[] = []): Promise<RunResult & { ms: number }> {
  const t0 = performance.now();
  const r = await runFed(["filter", "-c", ...extra, "--where", `text ~ ${re}`, "-"], { stdin: { bytes }, timeoutMs: 60_000 });
  return { ...r, ms: performance.now() - t0 };
}

/** a and b at random (a fixed seed): the text on which a DFA for "an a, then n characters" meets a new state at almost every character. */
function randomAB(n: number, seed = 1): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out.push(seed & 1024 ? "a" : "b");
  }
  return out.join("");
}

const KIB = 1 << 10;
const MIB = 1 << 20;

// The time bounds below hold on a developer's machine with room to spare (each case takes 10-90 ms
// in-process; the Pike VM alone, before the lazy DFA, took 3-4 s for the 64 KiB case and 40-46 s
// for the 1 MiB one). A loaded CI machine slows everything, so a bound is the larger of a fixed
// floor and SLOWER times the run of a trivial pattern (`c$`) over the same lines, measured just
// before the case. Each case also checks the answer, on a line that matches and one that does not.
const SLOWER = 10;

/** The time bound for a case over `bytes`: at least `floorMs`, or SLOWER times a trivial pattern's run. */
async function boundFor(bytes: Buffer, floorMs: number): Promise<number> {
  const r = await countMatches("c$", bytes);
  assert.equal(r.code, 0, r.stderr);
  return Math.max(floorMs, SLOWER * r.ms);
}

test("filter --where '~': a large pattern within the guard's limit ends in bounded time, on 64 KiB and on 1 MiB lines", { timeout: 120_000 }, async () => {
  for (const [size, floor] of [[64 * KIB, 500], [MIB, 3000]] as const) {
    const hostile = "ab".repeat(size / 2);
    const bytes = textLines(hostile + "!", hostile.slice(0, 900) + "c");
    const bound = await boundFor(bytes, floor);
    const r = await countMatches("([ab]{1,30}){30}c", bytes);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "1\n", ""], `${size} bytes`);
    assert.ok(r.ms < bound, `([ab]{1,30}){30}c took ${Math.round(r.ms)} ms on ${size / KIB} KiB (bound ${Math.round(bound)} ms)`);
  }
});

/**
 * Patterns whose NFA has hundreds to ~2000 steps, each with a hostile 1 MiB text it does not match
 * and a short text it matches (checked with RegExp: that text is one its greedy first try matches,
 * or RegExp itself would backtrack for minutes).
 */
const BLOW_UP: Array<[what: string, re: string, hostile: string, matching: string]> = [
  ["nested counted repeats", "(a{1,30}){30}b", "a".repeat(MIB), "a".repeat(900) + "b"],
  ["nested counted repeats of a class", "(?:(?:[a-z]{1,8}\\d?){1,8}){1,8}#", "abcdefgh1".repeat(MIB / 9), "x1y#"],
  ["a large alternation, repeated", `(?:${"abcdefghijklmnopqrstuvwxyz".split("").map((c) => c + "|" + c + c).join("|")}){7}!`, "abcdefghijklmnopqrstuvwxyz".repeat(MIB / 26), "abccdefg!"],
  ["(a|aa)* style", "(a|aa)*(a|aa)*(aa|a)*c", "a".repeat(MIB), "aac"],
  ["classes with many ranges", "([a-cx-zA-C0-3_\\-\\.\\u00e0-\\u00ff\\u0400-\\u04ff]{1,20}){20}#", "ax0_-.\u00e9\u0416".repeat(MIB / 8), "ax0_-.\u00e9\u0416".repeat(50) + "#"],
  ["case-insensitive many-range classes", "(?i)([k-q\\u0100-\\u017f]{1,25}){25}#", "KlMnOpQ\u0101\u0130".repeat(MIB / 9), "kLmN\u0100".repeat(125) + "#"],
  ["word boundaries", "\\b(\\w+\\s?){1,50}\\bz\\b", "ab ".repeat(MIB / 3), "ab z"],
  ["unbounded dots with a line end", "(.*a){20}$", "a".repeat(MIB) + "!", "a".repeat(20)],
];

for (const [what, re, hostile, matching] of BLOW_UP) {
  test(`filter --where '~': ${what} (${re.length > 40 ? re.slice(0, 40) + "…" : re}) on a 1 MiB hostile line ends in bounded time`, { timeout: 120_000 }, async () => {
    const ignoreCase = re.startsWith("(?i)");
    assert.ok(new RegExp(ignoreCase ? re.slice(4) : re, ignoreCase ? "i" : "").test(matching), `/${re}/ matches ${show(matching)}`);
    const bytes = textLines(hostile, matching);
    const bound = await boundFor(bytes, 3000);
    const r = await countMatches(re, bytes);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, "1\n", ""], `/${re}/`);
    assert.ok(r.ms < bound, `/${re}/ took ${Math.round(r.ms)} ms on a 1 MiB line (bound ${Math.round(bound)} ms)`);
  });
}

// The hard bound: a pattern whose DFA has too many states to cache on this text (an `a`, then
// exactly n characters) runs on the Pike VM, hundreds of steps per character; past the budget
// (32 steps per character plus 2^26) its line is reported as one cursorlog cannot process.
const THRASH: Array<[re: string, matching: string]> = [
  ["[ab]*a[ab]{600}c", "a" + "b".repeat(600) + "c"],
  ["(?:a|b)*a(?:a|ab|b|ba){100}c", "a" + "b".repeat(100) + "c"],
];

for (const [re, matching] of THRASH) {
  test(`filter --where '~ ${re}': too costly on a 1 MiB line, reported at that line in bounded time (status 5; --lenient goes on)`, { timeout: 120_000 }, async () => {
    assert.ok(new RegExp(re).test(matching));
    const bytes = textLines(matching, randomAB(MIB), matching);
    const message = `regular expression /${re}/ is too costly on this line: a string of ${MIB} characters needs more than 32 steps per character (the pattern has too many states to cache; simplify it)`;
    const bound = await boundFor(bytes, 3000);
    const strict = await countMatches(re, bytes);
    assert.deepEqual([strict.code, strict.stdout, strict.stderr], [5, "", `cursorlog: error (at <stdin>:2): ${message}\n`]);
    assert.ok(strict.ms < bound, `/${re}/ took ${Math.round(strict.ms)} ms to give up on a 1 MiB line (bound ${Math.round(bound)} ms)`);
    const lenient = await countMatches(re, bytes, ["--lenient"]);
    assert.deepEqual([lenient.code, lenient.stdout, lenient.stderr], [5, "2\n", `cursorlog: ignoring invalid line (at <stdin>:2): ${message}\n`]);
    assert.ok(lenient.ms < bound, `/${re}/ took ${Math.round(lenient.ms)} ms with --lenient (bound ${Math.round(bound)} ms)`);
  });
}

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

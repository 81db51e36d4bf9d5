// test-run: scaled
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { genLog, serialize, type Ev } from "./helpers/gen-events.js";
import { logCommands, runFed, show, variantsOf, type RunResult } from "./helpers/run-chunks.js";
import { assertContract, valuesOnLine } from "./helpers/verdict.js";
import { FUZZ_SEED, fuzzRuns, scaled, STRESS } from "./helpers/scale.js";

// Fuzzing every command that reads logs (taken from the program's command table): random bytes,
// random JSON values, lines cut at every position, events with a field removed or of the wrong
// type, __proto__ and constructor keys, nesting deeper than a recursive algorithm survives. No run
// may crash, hang or print a stack trace; each ends with a status from the README table and, when
// something was wrong with the input, a message naming file:line. Where the answer is known
// exactly (the line a bad line is reported at, the status), it is asserted exactly for the five
// commands whose rules the README states; commands added later get the contract.
//
// Sizes (test/helpers/scale.ts): make test runs every property a few times and the exhaustive
// loops over a sample (every 53rd cut, through the five strict commands and one other in turn; one
// event of each type, through a quarter of the commands in turn; the multi-line deep value through the
// strict commands; each strict command spawned once); make stress (CURSORLOG_STRESS=1) runs them at
// full size. FUZZ_RUNS overrides every numRuns
// (FUZZ_RUNS=2000 for a by-hand run), FUZZ_SEED the seed (42).

const SEED = FUZZ_SEED;
const COMMANDS = logCommands();
/** json, text, filter, timeline, stats: a malformed line is fatal (5) at its position, --lenient skips it (still 5). */
const STRICT = new Set(["json", "text", "filter", "timeline", "stats"]);
const VARIANTS = COMMANDS.flatMap((c) => variantsOf(c).map((v) => ({ cmd: c.name, argv: [c.name, ...v] })));
const PLAIN = COMMANDS.flatMap((c) => [{ cmd: c.name, argv: [c.name] }, { cmd: c.name, argv: [c.name, "--lenient"] }]);

async function run(argv: string[], bytes: Buffer, name = "-"): Promise<RunResult> {
  return name === "-" ? runFed(argv, { stdin: { bytes }, timeoutMs: 10_000 }) : runFed([...argv, name], { files: { [name]: { bytes } }, timeoutMs: 10_000 });
}

const where = (argv: string[], bytes: Buffer) => `cursorlog ${argv.join(" ")} < ${show(bytes.toString("latin1"), 200)}`;

/** The first line a strict run must stop at, when lines are parsed one by one (none starts a multi-line value). */
function firstBadLine(bytes: Buffer): { line: number; multiLine: boolean } | undefined {
  const lines = bytes.toString("utf8").split("\n");
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0a) lines.pop();
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    if (i === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      if (/^[ \t\r\n\f\v\u00a0\ufeff]*$/.test(text)) continue;
      // Several objects side by side on one line are read as jq reads them.
      if (valuesOnLine(text) !== undefined) continue;
      const first = /\S/.exec(text)?.[0];
      // A line that does not begin like JSON is the agent CLI's own text: never a bad line.
      if (first !== undefined && !"{[\"}]".includes(first)) continue;
      return { line: i + 1, multiLine: first === "{" || first === "[" };
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) return { line: i + 1, multiLine: false };
  }
  return undefined;
}

/** Checks one run against the contract and, for the strict commands, against the bad line it must name. */
function judge(r: RunResult, argv: string[], cmd: string, bytes: Buffer, file = "<stdin>"): void {
  const context = where(argv, bytes);
  const ds = assertContract(r, context, [file]);
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!STRICT.has(cmd) || gzip) return;
  const bad = firstBadLine(bytes);
  if (bad === undefined) {
    assert.notEqual(r.code, 5, `${context}: every line is a JSON object, yet exit 5:\n${r.stderr}`);
    return;
  }
  // A line that starts like a JSON value may go on over the next lines (a pretty-printed value): it
  // may be fine, and when it is not, it is reported at or after its start.
  if (bad.multiLine && r.code !== 5) return;
  assert.equal(r.code, 5, `${context}: line ${bad.line} is not a JSON object, yet exit ${r.code}`);
  const reported = ds.filter((d) => d.line !== undefined).map((d) => d.line!);
  if (bad.multiLine) {
    assert.ok(reported.some((n) => n >= bad.line), `${context}: no message at or after line ${bad.line}:\n${r.stderr}`);
  } else {
    assert.ok(reported.includes(bad.line), `${context}: no message names line ${bad.line}:\n${r.stderr}`);
  }
  if (!argv.includes("--lenient")) {
    // Strict: the bad line is the last thing reported, nothing after it was read.
    assert.equal(ds.at(-1)?.line !== undefined && ds.at(-1)!.line! >= bad.line, true, `${context}: the run went on past line ${bad.line}:\n${r.stderr}`);
  }
}

// ---------------------------------------------------------------------------------------------

const randomBytes = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  // text-like: printable ASCII, newlines, CRs, braces, quotes
  fc.array(fc.constantFrom(..."{}[]\":,\\ \n\r\tabc01-e.".split(""), "\u001b", "é", "\ufeff", "null", "true"), { maxLength: 200 }).map((a) => new Uint8Array(Buffer.from(a.join("")))),
  // gzip magic, then garbage
  fc.uint8Array({ maxLength: 200 }).map((a) => new Uint8Array(Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.from(a)]))),
);

test("random bytes: every command ends with a status from the table and names file:line of the first bad line", { timeout: 300_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(randomBytes, async (arr) => {
      const bytes = Buffer.from(arr);
      for (const { cmd, argv } of PLAIN) judge(await run(argv, bytes), argv, cmd, bytes);
    }),
    { seed: SEED, numRuns: fuzzRuns(3, 150), includeErrorInReport: true },
  );
});

const jsonLine = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom("type", "subtype", "call_id", "tool_call", "session_id", "result", "is_error", "message", "timestamp_ms", "__proto__", "constructor"), fc.jsonValue({ maxDepth: 3 })).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "[]", "null", "0", '"s"', "{}", '{"type":"result"}', '{"type":"system","subtype":"init"}', "{\"a\":1}{\"b\":2}", "{\"a\":", "}") },
);

test("random JSON values, one per line: objects are read, anything else is reported at its line", { timeout: 300_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(jsonLine, { maxLength: 12 }), fc.boolean(), async (lines, crlf) => {
      const bytes = Buffer.from(lines.join(crlf ? "\r\n" : "\n") + "\n");
      for (const { cmd, argv } of PLAIN) judge(await run(argv, bytes, "fuzz.ndjson"), argv, cmd, bytes, "fuzz.ndjson");
    }),
    { seed: SEED, numRuns: fuzzRuns(3, 150), includeErrorInReport: true },
  );
});

// ---------------------------------------------------------------------------------------------
// Lines cut at every position.

const SMALL = fc.sample(genLog({ maxSessions: 1, layouts: false }), { seed: SEED, numRuns: 40 }).find((l) => {
  const types = new Set(l.events.map((e) => `${e.type}/${e.subtype ?? ""}`));
  return types.has("tool_call/completed") && types.has("thinking/delta") && types.has("result/success") && l.bytes.length < 12_000;
})!;

/**
 * Where the cut-at-every-byte test cuts a line of `length` bytes: every byte in make stress; in
 * make test the first and last three, and every 53rd between (a prime: the cuts fall at every
 * kind of place, inside keys, values, strings and escapes, over the three lines).
 */
const CUT_STEP = 53;
function cutPositions(length: number): number[] {
  const all = Array.from({ length: length - 1 }, (_, i) => i + 1);
  if (STRESS) return all;
  return all.filter((k) => k <= 3 || k >= length - 3 || k % CUT_STEP === 0);
}

const NOT_STRICT = PLAIN.filter((p) => p.argv.length === 1 && !STRICT.has(p.cmd));
/**
 * The runs at the n-th cut: every command, and at every 5th cut each with --lenient too; in make
 * test the five strict commands (whose answer is known exactly) and one other in turn.
 */
function cutRuns(n: number): typeof PLAIN {
  const plain = PLAIN.filter((p) => p.argv.length === 1 && (STRESS || STRICT.has(p.cmd) || p === NOT_STRICT[n % NOT_STRICT.length]));
  return (n + 1) % 5 === 0 ? [...plain, ...plain.map((p) => ({ cmd: p.cmd, argv: [...p.argv, "--lenient"] }))] : plain;
}

test(`a log cut at ${STRESS ? "every byte" : `every ${CUT_STEP}rd byte (every byte in make stress)`}: a strict run stops at the cut line with status 5; --lenient keeps what came before`, { timeout: 300_000 }, async () => {
  assert.ok(SMALL, "no small generated log with a tool call, thinking and a result");
  const lines = SMALL.events.map((e) => Buffer.from(JSON.stringify(e)));
  // The cut line is each kind once: a thinking delta (skipped unread by json and text), a tool call, the result.
  const pick = (pred: (e: Ev) => boolean) => SMALL.events.findIndex(pred);
  const targets = [pick((e) => e.type === "thinking"), pick((e) => e.type === "tool_call" && e.subtype === "completed"), pick((e) => e.type === "result")];
  let tried = 0;
  for (const i of targets) {
    const before = Buffer.concat(lines.slice(0, i).map((l) => Buffer.concat([l, Buffer.from("\n")])));
    const expected = new Map<string, RunResult>();
    for (const { argv } of PLAIN) if (argv.includes("--lenient")) expected.set(argv[0]!, await run([argv[0]!], before, "cut.ndjson"));
    const line = lines[i]!;
    const positions = cutPositions(line.length);
    for (const [n, k] of positions.entries()) {
      const bytes = Buffer.concat([before, line.subarray(0, k)]);
      for (const { cmd, argv } of cutRuns(n)) {
        const r = await run(argv, bytes, "cut.ndjson");
        tried++;
        const context = `cursorlog ${argv.join(" ")} on a log cut at byte ${k} of line ${i + 1}`;
        const ds = assertContract(r, context, ["cut.ndjson"]);
        if (!STRICT.has(cmd)) continue;
        assert.equal(r.code, 5, `${context}: exit ${r.code}\n${r.stderr}`);
        assert.ok(ds.some((d) => d.line === i + 1), `${context}: the cut line ${i + 1} is not named:\n${r.stderr}`);
        if (argv.includes("--lenient") && cmd !== "stats") {
          // What was before the cut comes out as if the log ended there (stats names the line range, cut line included).
          assert.equal(r.stdout, expected.get(cmd)!.stdout, `${context}: stdout differs from the log without its last line`);
        }
      }
    }
  }
  assert.ok(tried > scaled(100, 800), `only ${tried} runs`);
});

test("a line cut anywhere with the rest of the log after it: reported at or after the cut line, never a crash", { timeout: 300_000 }, async () => {
  const lines = SMALL.events.map((e) => JSON.stringify(e));
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: lines.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), async (i, at) => {
      const k = Math.max(1, Math.min(lines[i]!.length - 1, Math.floor(at * lines[i]!.length)));
      const bytes = Buffer.from([...lines.slice(0, i), lines[i]!.slice(0, k), ...lines.slice(i + 1)].join("\n") + "\n");
      for (const { cmd, argv } of VARIANTS) judge(await run(argv, bytes, "cut.ndjson"), argv, cmd, bytes, "cut.ndjson");
    }),
    { seed: SEED, numRuns: fuzzRuns(2, 60), includeErrorInReport: true },
  );
});

// ---------------------------------------------------------------------------------------------
// Events with a field removed or of the wrong type.

/** Every path to a value inside `v` (keys and indexes), the root excluded. */
function pathsOf(v: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...prefix, i]), pathsOf(x, [...prefix, i], out)));
  else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) out.push([...prefix, k]), pathsOf((v as Ev)[k], [...prefix, k], out);
  return out;
}

const WRONG: unknown[] = [null, 0, -1, 1.5e308, "", "x\u001b[2J", true, [], {}, [null, "x"], { __proto__: null, constructor: 1 }, "1767225600000"];

/** A deep copy of `e` with the value at `path` deleted (`replace` undefined) or replaced. */
function mutate(e: Ev, path: Array<string | number>, replace: { value: unknown } | undefined): Ev {
  const copy = JSON.parse(JSON.stringify(e)) as Ev;
  let parent: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replace === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else Object.defineProperty(parent, last, { value: replace.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Runs every command over `events`: all are JSON objects, so no status 5, and the contract holds. */
async function judgeObjects(events: Ev[], context: string, variants = VARIANTS): Promise<void> {
  const bytes = serialize(events);
  for (const { argv } of variants) {
    const r = await run(argv, bytes, "mut.ndjson");
    const c = `cursorlog ${argv.join(" ")} (${context})`;
    assertContract(r, c, ["mut.ndjson"]);
    assert.notEqual(r.code, 5, `${c}: every line is a JSON object, yet exit 5:\n${r.stderr}`);
    assert.notEqual(r.code, 2, `${c}: exit 2 for a readable input:\n${r.stderr}`);
  }
}

test(`every top-level field of every event type removed, or given each wrong type: no crash, no status 5 (${STRESS ? "every command" : "a quarter of the commands each, in turn"})`, { timeout: 300_000 }, async () => {
  const log = fc.sample(genLog({ maxSessions: 1, layouts: false }), { seed: SEED + 1, numRuns: 60 }).find((l) => new Set(l.events.map((e) => e.type)).size >= 6)!;
  assert.ok(log, "no generated log with six event types");
  // Every event of the log in make stress; in make test the first of each type and subtype.
  const kinds = new Set<string>();
  const which = log.events.flatMap((e, i) => {
    const kind = `${String(e.type)}/${String(e.subtype ?? "")}`;
    if (!STRESS && kinds.has(kind)) return [];
    kinds.add(kind);
    return [i];
  });
  assert.ok(new Set(which.map((i) => log.events[i]!.type)).size >= 6, "fewer than six event types mutated");
  let tried = 0;
  let mutations = 0;
  for (const i of which) {
    for (const key of Object.keys(log.events[i]!)) {
      // Each field removed and given each wrong type in make stress; in make test one of those seven, in turn.
      const all = [undefined, ...[null, 0, "", true, [], {}].map((value) => ({ value }))];
      for (const replace of STRESS ? all : [all[mutations++ % all.length]]) {
        const events = log.events.slice();
        events[i] = mutate(log.events[i]!, [key], replace);
        // Every command in make stress; in make test a quarter of them, in turn (each mutation meets
        // two or three commands, each command a quarter of the mutations).
        await judgeObjects(events, `event ${i + 1} ${key} ${replace === undefined ? "removed" : `= ${JSON.stringify(replace.value)}`}`, PLAIN.filter((p, k) => p.argv.length === 1 && (STRESS || (k / 2) % 4 === tried % 4)));
        tried++;
      }
    }
  }
  assert.ok(tried > scaled(60, 200), `only ${tried} mutations`);
});

test("property: a field anywhere in any event removed or of the wrong type: no crash, no status 5", { timeout: 300_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(genLog({ maxSessions: 2, layouts: false }), fc.nat(), fc.nat(), fc.nat({ max: WRONG.length }), async (log, ei, pi, wi) => {
      const i = ei % log.events.length;
      const paths = pathsOf(log.events[i]);
      if (paths.length === 0) return;
      const path = paths[pi % paths.length]!;
      const events = log.events.slice();
      const replace = wi === WRONG.length ? undefined : { value: WRONG[wi] };
      events[i] = mutate(log.events[i]!, path, replace);
      await judgeObjects(events, `event ${i + 1} ${path.join(".")} ${replace === undefined ? "removed" : `= ${JSON.stringify(replace.value)}`}`);
    }),
    { seed: SEED, numRuns: fuzzRuns(3, 150), includeErrorInReport: true },
  );
});

// ---------------------------------------------------------------------------------------------
// __proto__ and constructor.

test("__proto__, constructor and other Object.prototype names, as keys and as tool kinds, are plain data", async () => {
  const S = "s-1";
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
  const lines: string[] = [JSON.stringify({ type: "system", subtype: "init", session_id: S })];
  names.forEach((n, i) => {
    const id = `c${i}`;
    const call = `{"${n}ToolCall":{"args":{"path":"p${i}","__proto__":{"path":"polluted"}}},"__proto__":{"x":1}}`;
    lines.push(`{"type":"tool_call","subtype":"started","call_id":"${id}","tool_call":${call},"session_id":"${S}","__proto__":{"type":"result"}}`);
    lines.push(`{"type":"tool_call","subtype":"completed","call_id":"${id}","tool_call":{"${n}ToolCall":{"result":{"success":{}}}},"session_id":"${S}"}`);
  });
  const result = `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"${S}","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`;
  lines.push(result);
  const bytes = Buffer.from(lines.join("\n") + "\n");

  const text = await run(["text", "-v"], bytes);
  assert.deepEqual(
    { stdout: text.stdout, stderr: text.stderr, code: text.code },
    { stdout: names.map((n, i) => `Used tool ${n}ToolCall: p${i}\n`).join(""), stderr: "", code: 0 },
  );
  const json = await run(["json"], bytes);
  assert.deepEqual({ stderr: json.stderr, code: json.code }, { stderr: "", code: 0 });
  // The result as the CLI prints it: every key of the line, __proto__ and constructor included.
  assert.equal(json.stdout, '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s-1","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}\n');
  const timeline = await run(["timeline", "--columns", "call_id,kind,action,target,status"], bytes);
  assert.equal(timeline.stdout, "call_id,kind,action,target,status\n" + names.map((n, i) => `c${i},${n},Used tool ${n}ToolCall,p${i},success\n`).join(""));
  const filter = await run(["filter"], bytes);
  assert.equal(filter.stdout, bytes.toString());
  for (const { argv } of VARIANTS) assertContract(await run(argv, bytes), `cursorlog ${argv.join(" ")}`, ["<stdin>"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype was polluted");
  assert.equal(({} as Record<string, unknown>).path, undefined, "Object.prototype was polluted");
});

// ---------------------------------------------------------------------------------------------
// Nesting deeper than recursion survives (JSON.parse itself survives millions of levels).

function nested(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

// How deep: in make test, past the line scanner's own limit (65 536 levels, scan/assembly/
// scanner.ts) and many times past what any recursion survives (some 10 000 frames); the spawned
// CLI, 20 000 levels (past recursion: the same messages, at a third of a spawn's cost at 70 000).
// In make stress, 100 000 levels (the spawned CLI: 200 000). A run at 100 000 costs ~3 x one at 70 000.
const DEEP = scaled(70_000, 100_000);
const DEEP_CLI = scaled(20_000, 200_000);

test(`nesting ${DEEP} levels deep in a result, tool args and an unknown event: processed, or a clear error at file:line`, { timeout: 120_000 }, async () => {
  for (const kind of ["array", "object"] as const) {
    const deep = nested(DEEP, kind);
    const lines = [
      '{"type":"system","subtype":"init","session_id":"s"}',
      `{"type":"hologram","payload":${deep},"session_id":"s"}`,
      `{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"x","deep":${deep}}}},"session_id":"s"}`,
      `{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"x"},"result":{"success":{"deep":${deep}}}}},"session_id":"s"}`,
      `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s","usage":${deep}}`,
    ];
    const bytes = Buffer.from(lines.join("\n") + "\n");
    // make test: each command once, on arrays or on objects in turn, with --lenient every other pair.
    const runs = STRESS ? PLAIN : COMMANDS.flatMap((c, i) => (i % 2 === (kind === "array" ? 0 : 1) ? [{ cmd: c.name, argv: Math.floor(i / 2) % 2 === 1 ? [c.name, "--lenient"] : [c.name] }] : []));
    for (const { cmd, argv } of runs) {
      const r = await run(argv, bytes, "deep.ndjson");
      const context = `cursorlog ${argv.join(" ")} on ${kind}s nested ${DEEP} deep`;
      const ds = assertContract(r, context, ["deep.ndjson"]);
      if (r.code === 5) {
        assert.match(r.stderr, /nested too deeply/, `${context}: status 5 without saying why:\n${r.stderr}`);
        assert.ok(ds.every((d) => d.line !== undefined && d.line >= 2), context);
      } else if (STRICT.has(cmd)) {
        assert.ok(r.code === 0 || (r.code === 1 && argv.includes("-e")), `${context}: exit ${r.code}\n${r.stderr}`);
      }
    }
  }
});

test(`a value nested ${DEEP} deep over several lines (the multi-line reader): a clear error at the line it starts (${STRESS ? "every command" : "the strict commands"})`, async () => {
  const deep = nested(DEEP, "array");
  const bytes = Buffer.from(`{"type":"system","subtype":"init"}\n{"type":"result",\n"x":${deep}}\n`);
  // make test: each strict command once (the ones whose answer is exact: status 5 at line 2),
  // --lenient every other one; the one-line test above runs every command at this depth.
  for (const { cmd, argv } of PLAIN.filter((p, k) => STRESS || (STRICT.has(p.cmd) && p.argv.includes("--lenient") === (Math.floor(k / 2) % 2 === 1)))) {
    const r = await run(argv, bytes, "deep.json");
    const context = `cursorlog ${argv.join(" ")} on a multi-line value nested ${DEEP} deep`;
    const ds = assertContract(r, context, ["deep.json"]);
    if (!STRICT.has(cmd)) continue;
    assert.equal(r.code, 5, `${context}: exit ${r.code}\n${r.stderr}`);
    assert.ok(ds.some((d) => d.line === 2), `${context}: line 2 not named\n${r.stderr}`);
    assert.match(r.stderr, /\(at deep\.json:2\): .*nested too deeply/, context);
  }
});

// ---------------------------------------------------------------------------------------------
// The built executable on the same kinds of input, each run under a time limit: a synchronous
// endless loop would stop the in-process runs above without a clear failure; here it is one.

test(`the built CLI on random bytes, cut lines and deep nesting ends within 10 s, no stack trace, a status from the table (${STRESS ? "every command" : "the strict commands"})`, { timeout: 300_000 }, async () => {
  const { spawnSync } = await import("node:child_process");
  const { existsSync } = await import("node:fs");
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  const deep = Buffer.from(`{"type":"result","x":${nested(DEEP_CLI, "array")}}\n{"type":"result",\n"y":${nested(DEEP_CLI, "object")}}\n`);
  // make stress: four random inputs, and every command with and without --lenient on each input.
  // make test: one random input; each strict command (json, text, filter, timeline, stats: the
  // answer known exactly) spawned once, on the inputs in turn, --lenient every other time (the
  // in-process tests above run every command on every such input).
  const inputs = [
    ...fc.sample(randomBytes, { seed: SEED, numRuns: scaled(1, 4) }).map((a) => Buffer.from(a)),
    Buffer.from(SMALL.bytes.toString("utf8").slice(0, Math.floor(SMALL.bytes.length / 2))),
    deep,
  ];
  const plain = PLAIN.filter((p) => p.argv.length === 1 && (STRESS || STRICT.has(p.cmd)));
  const runs = STRESS ? inputs.flatMap((input) => PLAIN.map((p) => ({ ...p, input }))) : plain.map((p, k) => ({ cmd: p.cmd, argv: k % 2 === 1 ? [...p.argv, "--lenient"] : p.argv, input: inputs[k % inputs.length]! }));
  assert.ok(new Set(runs.map((r) => r.input)).size === inputs.length && new Set(runs.map((r) => r.cmd)).size === plain.length);
  for (const { cmd, argv, input } of runs) {
    const r = spawnSync("node", ["bin/cursorlog.js", ...argv], { input, timeout: 10_000, encoding: "utf8", env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", TZ: "UTC" } });
    const context = where(argv, input);
    assert.equal(r.error, undefined, `${context}: ${r.error?.message} (a hang ends in ETIMEDOUT)`);
    const result = { stdout: r.stdout, stderr: r.stderr, code: r.status ?? -1, both: "" };
    if (input !== deep) judge(result, argv, cmd, input);
    else if (STRICT.has(cmd)) {
      assertContract(result, context, ["<stdin>"]);
      assert.equal(r.status, 5, `${context}: exit ${r.status}`);
      assert.match(r.stderr, /\(at <stdin>:[12]\): the JSON value is nested too deeply/, context);
    } else assertContract(result, context, ["<stdin>"]);
  }
});

// test-run: scaled
// Every command (show and diff too) finds a damaged line wherever the damage is: at the line's start, inside its type,
// deep inside a long string that the command never reads (past the 64 bytes the old byte-level
// checks looked at), at its end. The damaged lines are of the types commands skip unparsed (a
// thinking delta, a tool call's completion), so only the line scanner's check of the whole line
// stands between them and a silent skip. Every command then reports the same message at the same
// file:line (exit 5), and validate reports that message too (exit 1). Invalid UTF-8 inside a
// string is read as U+FFFD by every command (the data branch's rule: kept, not fatal) and
// reported by validate as rule utf8.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runCli } from "./helpers/run-cli.js";
import { STRESS } from "./helpers/scale.js";
import { JsonReader } from "../src/input/json-reader.js";
import { LineSplitter } from "../src/input/line-splitter.js";
import { skipTypes } from "../src/input/raw-skip.js";
import type { InputItem } from "../src/input/record.js";

const long = (seed: string) => Array.from({ length: 40 }, (_, i) => `${seed} ${i}`).join(" ");
const events = [
  { type: "system", subtype: "init", session_id: "s", model: "m", cwd: "/w", apiKeySource: "login", permissionMode: "default", timestamp_ms: 1000 },
  { type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] }, session_id: "s" },
  { type: "thinking", subtype: "delta", text: long("thought"), session_id: "s", timestamp_ms: 1001 },
  { type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command: "ls" } } }, session_id: "s", timestamp_ms: 1002 },
  { type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { shellToolCall: { args: { command: "ls" }, result: { success: { exitCode: 0, stdout: long("file"), stderr: "" } } } }, session_id: "s", timestamp_ms: 1003 },
  { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "done" }] }, session_id: "s", timestamp_ms: 1004 },
  { type: "result", subtype: "success", duration_ms: 5, duration_api_ms: 5, is_error: false, result: "done", session_id: "s", request_id: "r", timestamp_ms: 1005 },
];
const LINES = events.map((e) => Buffer.from(JSON.stringify(e)));

const COMMANDS = [
  ["json"],
  ["text"],
  ["filter", "--type", "tool_call"],
  ["filter", "--type", "thinking"],
  ["filter", "--exclude-type", "thinking"],
  ["filter", "--where", '.type == "result"'],
  ["timeline"],
  ["stats"],
  ["export"],
  ["show"],
  ["diff"],
] as const;

type Hurt = (line: Buffer, at: number) => Buffer;
const splice = (b: Buffer, at: number, drop: number, put: Buffer) => Buffer.concat([b.subarray(0, at), put, b.subarray(at + drop)]);
const DAMAGE: Array<[string, Hurt]> = [
  ["a raw control character", (b, at) => splice(b, at, 1, Buffer.from([0x01]))],
  ["a bad escape", (b, at) => splice(b, at, 2, Buffer.from("\\q"))],
  // Cut after its first byte, a line is `{`, the start of a value written over several lines
  // (pretty-printed): it is reported where that value fails, on the next line. Cut after two.
  ["a line cut short", (b, at) => b.subarray(0, Math.max(at, 2))],
  ["two events run together", (b, at) => Buffer.concat([b.subarray(0, at), LINES[0]!])],
];

/** Where in the line: its start, inside its type, deep inside a long string, its end. */
function places(line: Buffer): Array<[string, number]> {
  const deep = line.indexOf(" 30 ");
  assert.ok(deep > 200);
  return [
    ["at the start", 1],
    ["inside the type", 12],
    [`deep inside a long string (byte ${deep})`, deep],
    ["at the end", line.length - 2],
  ];
}

function log(target: number, bad: Buffer): Buffer {
  return Buffer.concat(LINES.flatMap((l, i) => [i === target ? bad : l, Buffer.from("\n")]));
}

test(`damaged lines are reported by every command${STRESS ? "" : " (half of them a damage, in turn)"}, at their line, wherever the damage is, and validate agrees`, async () => {
  let combos = 0;
  for (const target of [2, 4]) {
    const line = LINES[target]!;
    for (const [what, hurt] of DAMAGE) {
      for (const [where, at] of places(line)) {
        const input = log(target, hurt(line, at));
        // A line cut outside a string is an object left open: it may be a value written over several
        // lines (pretty-printed, which every command reads), so it is reported where that value
        // fails, the next line, with exit 5 all the same.
        const no = what === "a line cut short" && at === line.length - 2 ? target + 2 : target + 1;
        const label = `${events[target]!.type} line, ${what} ${where}`;
        const messages = new Set<string>();
        // make test: half of the commands read the damage, in turn (the other half the next one),
        // whole or in 61-byte chunks, in turn (a command reads every other of its damages each way);
        // make stress: every command, both ways (test/helpers/scale.ts).
        const turn = combos++;
        for (const [j, argv] of COMMANDS.entries()) {
          if (!STRESS && (j + turn) % 2 !== 0) continue;
          for (const chunkSize of STRESS ? [0, 61] : [Math.floor(turn / 2) % 2 === 0 ? 0 : 61]) {
            const r = await runCli([...argv], { stdin: input, chunkSize });
            assert.equal(r.code, 5, `${argv.join(" ")}: ${label}: exit status`);
            const m = /^cursorlog: error \(at <stdin>:(\d+)\): (.*)\n$/.exec(r.stderr);
            assert.ok(m, `${argv.join(" ")}: ${label}: ${r.stderr}`);
            assert.equal(Number(m[1]), no, `${argv.join(" ")}: ${label}: the line named`);
            messages.add(m[2]!);
          }
        }
        assert.equal(messages.size, 1, `${label}: one message from every command: ${[...messages].join(" | ")}`);
        const v = await runCli(["validate"], { stdin: input });
        assert.equal(v.code, 1, `validate: ${label}`);
        assert.ok(v.stdout.split("\n").includes(`<stdin>:${no}: ${[...messages][0]} (parse)`), `validate: ${label}: ${v.stdout}`);
      }
    }
  }
});

test("invalid UTF-8 anywhere in a string is read as U+FFFD by every command and reported by validate as rule utf8", async () => {
  let place = 0;
  for (const target of [2, 4]) {
    const line = LINES[target]!;
    for (const [where, at] of places(line).slice(1, 3)) {
      const bad = log(target, splice(line, at, 1, Buffer.from([0xff])));
      const replaced = log(target, splice(line, at, 1, Buffer.from("\ufffd")));
      // make test: half of the commands a place, in turn; make stress: every command at every place.
      const turn = place++;
      for (const argv of COMMANDS.filter((_, j) => STRESS || (j + turn) % 2 === 0)) {
        const got = await runCli([...argv], { stdin: bad, chunkSize: 61 });
        const want = await runCli([...argv], { stdin: replaced });
        assert.deepEqual(got, want, `${argv.join(" ")}: ${events[target]!.type} line, invalid UTF-8 ${where}`);
      }
      const v = await runCli(["validate"], { stdin: bad });
      assert.equal(v.code, 1);
      assert.match(v.stdout, new RegExp(`^<stdin>:${target + 1}: not valid UTF-8 at byte ${at + 1} \\(0xff\\): read as U\\+FFFD \\(utf8\\)$`, "m"));
    }
  }
  // Outside a string it is not JSON: fatal everywhere, as any damage.
  const input = log(2, splice(LINES[2]!, LINES[2]!.length - 1, 1, Buffer.from([0xff])));
  for (const argv of COMMANDS) {
    const r = await runCli([...argv], { stdin: input });
    assert.equal(r.code, 5, argv.join(" "));
    assert.match(r.stderr, /^cursorlog: error \(at <stdin>:3\): invalid JSON: /);
  }
});

test("the undamaged log is read without a problem by every command (the cases above are the damage, not the log)", async () => {
  const input = log(-1, Buffer.alloc(0));
  for (const argv of COMMANDS) {
    const r = await runCli([...argv], { stdin: input });
    assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr, "");
  }
  const v = await runCli(["validate"], { stdin: input });
  assert.equal(v.stdout.split("\n").at(-2), "checked 7 lines in 1 file: 7 valid, 0 invalid; 0 errors, 0 warnings");
});

test("a long line is checked whole too: longer than a read chunk, longer than the scanner's 1 MiB slice, longer than the 8 MiB it scans alone", () => {
  const read = (data: Buffer, size: number): unknown[] => {
    const reader = new JsonReader("f", 1e9);
    const splitter = new LineSplitter(1e9, skipTypes(["thinking"]));
    const items: InputItem[] = [];
    for (let i = 0; i < data.length; i += size) reader.read(splitter.push(data.subarray(i, i + size)), items);
    reader.read(splitter.end(), items);
    reader.end(items);
    return items.map((it) => ("kind" in it ? [it.line, it.message.replace(/ at column \d+$/, "")] : [it.line, it.skipped === true ? "skipped" : "parsed"]));
  };
  // make test: the 3 MiB line whole, the 9 MiB one in 64 KiB reads (as a file is read); make stress:
  // each both ways.
  for (const mib of [3, 9]) {
    const text = "y".repeat(mib << 20);
    const line = Buffer.from(`{"type":"thinking","subtype":"delta","text":"${text}","timestamp_ms":1}`);
    const data = Buffer.concat([LINES[0]!, Buffer.from("\n"), line, Buffer.from("\n"), LINES[6]!, Buffer.from("\n")]);
    // Past 8 MiB a line is parsed instead of skipped: JSON.parse checks it.
    const whole = mib < 8 ? "skipped" : "parsed";
    for (const size of STRESS ? [64 << 10, data.length] : [mib < 8 ? data.length : 64 << 10]) {
      assert.deepEqual(read(data, size), [[1, "parsed"], [2, whole], [3, "parsed"]], `${mib} MiB, chunks of ${size}`);
      const bad = Buffer.from(data);
      bad[LINES[0]!.length + 1 + (mib << 20) - 1000] = 0x01;
      assert.deepEqual(read(bad, size), [[1, "parsed"], [2, "invalid JSON: Bad control character in string literal"], [3, "parsed"]], `${mib} MiB, damaged, chunks of ${size}`);
    }
  }
});

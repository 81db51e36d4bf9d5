// The outputs speak the run model's vocabulary (issue 25): no output reads cursor-agent's raw
// field names (that is the dialect's job, src/dialects/cursor/), but for what an output
// deliberately prints as the CLI wrote it, each such line marked `// as written: <why>`, and few.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

/**
 * cursor-agent's field names (FORMAT.md) that an output has no business reading. (`exitCode`,
 * `diffString` and `agentId` are also the run model's own member names — Call.exitCode,
 * FileChange.diffString, Subagent.agentId, Run.permissionMode — so they are not in this list.)
 */
const NAMES = "\\w+ToolCall|startedAtMs|completedAtMs|timestamp_ms|shellId|isBackground|task_notification|task_id|call_id|tool_call|session_id|model_call_id|is_error|interleavedOutput|beforeFullFileContent|afterFullFileContent|request_id";
/**
 * A READ of one of them: a member access (`.timestamp_ms`, `["tool_call"]`), a comparison with it
 * as a string (`type === "tool_call"`), an `in` test. The same name as a key an output writes (a
 * CSV column, a JSON key of its own, a trace's attribute) is the output's vocabulary, not a read.
 */
const RAW = new RegExp(`\\.(?:${NAMES})\\b|\\[\\s*["'](?:${NAMES})["']\\s*\\]|[=!]==?\\s*["'](?:${NAMES})["']|["'](?:${NAMES})["']\\s*[=!]==?|["'](?:${NAMES})["']\\s+in\\b|\\bname\\(\\s*["'](?:${NAMES})["']`);
const MARK = /\/\/ as written: \S/;
/** At most this many marked lines in all the outputs: "a handful". */
const MAX_MARKED = 8;

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The code of a line: comments removed (a doc comment may name a field to say where a value comes from). */
export function codeOf(line: string, inBlock: { open: boolean }): string {
  let s = line;
  if (inBlock.open) {
    const end = s.indexOf("*/");
    if (end === -1) return "";
    s = s.slice(end + 2);
    inBlock.open = false;
  }
  s = s.replace(/\/\*.*?\*\//g, "");
  const start = s.indexOf("/*");
  if (start !== -1) {
    inBlock.open = true;
    s = s.slice(0, start);
  }
  // A // comment outside a string: good enough for this code base (no "//" in its string literals but URLs).
  const m = /(^|[^:"'`])\/\/.*$/.exec(s);
  return m === null ? s : s.slice(0, m.index + m[1]!.length);
}

function scan(root: string): { raw: string[]; marked: string[] } {
  const raw: string[] = [];
  const marked: string[] = [];
  for (const f of files(root)) {
    const block = { open: false };
    readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const code = codeOf(line, block);
        if (!RAW.test(code)) return;
        (MARK.test(line) ? marked : raw).push(`${f}:${i + 1}: ${line.trim()}`);
      });
  }
  return { raw, marked };
}

test("outputs: no raw cursor-agent field name in code, but for the few lines printed as written (marked)", () => {
  const { raw, marked } = scan("src/outputs");
  assert.deepEqual(raw, [], `${raw.length} lines of src/outputs read cursor-agent's fields:\n${raw.join("\n")}`);
  assert.ok(marked.length <= MAX_MARKED, `${marked.length} lines marked "as written" (at most ${MAX_MARKED}):\n${marked.join("\n")}`);
  console.log(`# ${marked.length} lines read a field as written:\n${marked.map((l) => `#   ${l}`).join("\n")}`);
});

test("outputs vocabulary check: it finds a raw name in code, not in a comment, and lets a marked line pass", () => {
  const block = { open: false };
  assert.equal(RAW.test(codeOf(`  const ms = ev.timestamp_ms;`, block)), true);
  assert.equal(RAW.test(codeOf(`  // the started event's timestamp_ms`, block)), false);
  assert.equal(RAW.test(codeOf(`/** startedAtMs, else`, block)), false);
  assert.equal(block.open, true);
  assert.equal(RAW.test(codeOf(` * exitCode */ const x = 1;`, block)), false);
  assert.equal(block.open, false);
  assert.equal(RAW.test(codeOf(`const o = { shellToolCall: 1 };`, block)), false, "a key an output writes");
  assert.equal(RAW.test(codeOf(`if (ev.type === "tool_call") x();`, block)), true);
  assert.equal(RAW.test(codeOf(`const t = o["isBackground"];`, block)), true);
  assert.equal(RAW.test(codeOf(`if ("shellId" in o) x();`, block)), true);
  assert.equal(RAW.test(codeOf(`const columns = ["call_id", "seq"];`, block)), false, "a column an output writes");
  assert.equal(MARK.test(`  a["cursor.model_call_id"] = id; // as written: the OTLP attribute's name`), true);
});


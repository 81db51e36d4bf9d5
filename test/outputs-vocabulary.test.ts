// The outputs speak the run model's vocabulary (issue 25): no output reads cursor-agent's raw
// field names: that is the dialect's job (src/dialects/cursor/). What an output prints as the
// agent wrote it (json's result object, the result's subtype) it reads from the model too (Run.result,
// Run.stated); the keys it writes under the log's own names (a column, an attribute) are not reads.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

/**
 * cursor-agent's field names (FORMAT.md) that an output has no business reading. The model's
 * members have names of their own (a call's `exitStatus`, not the shell result's `exitCode`; its
 * `responseId`, not `modelCallId`). (`diffString` and `agentId` are also the run model's own
 * member names — FileChange.diffString, Subagent.agentId — so they are not in this list.)
 */
const NAMES = "exitCode|modelCallId|\\w+ToolCall|startedAtMs|completedAtMs|timestamp_ms|shellId|isBackground|task_notification|task_id|call_id|tool_call|session_id|model_call_id|is_error|interleavedOutput|beforeFullFileContent|afterFullFileContent|request_id|duration_ms|duration_api_ms";
/**
 * A READ of one of them: a member access (`.timestamp_ms`, `["tool_call"]`) that is not assigned
 * to, a comparison with it as a string (`type === "tool_call"`), an `in` test. The same name as a
 * key an output writes (a CSV column, a JSON key or an attribute of its own, `args.call_id = …`)
 * is the output's vocabulary, not a read; so is a name inside a string (`"cursor.duration_ms"`).
 */
const MEMBER = new RegExp(`\\.(?:${NAMES})\\b(?!\\s*=[^=])`);
const QUOTED = new RegExp(`\\[\\s*["'](?:${NAMES})["']\\s*\\](?!\\s*=[^=])|[=!]==?\\s*["'](?:${NAMES})["']|["'](?:${NAMES})["']\\s*[=!]==?|["'](?:${NAMES})["']\\s+in\\b|\\bname\\(\\s*["'](?:${NAMES})["']`);
const STRINGS = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g;

/** Whether a line's code reads one of NAMES. */
function reads(code: string): boolean {
  return MEMBER.test(code.replace(STRINGS, '""')) || QUOTED.test(code);
}

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

/** The lines of `root`'s code that read one of NAMES, as `file:line: text`. */
function scan(root: string): string[] {
  const raw: string[] = [];
  for (const f of files(root)) {
    const block = { open: false };
    readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (reads(codeOf(line, block))) raw.push(`${f}:${i + 1}: ${line.trim()}`);
      });
  }
  return raw;
}

test("outputs: no line of code reads a cursor-agent field name", () => {
  const raw = scan("src/outputs");
  assert.deepEqual(raw, [], `${raw.length} lines of src/outputs read cursor-agent's fields:\n${raw.join("\n")}`);
});

test("outputs vocabulary check: it finds a raw name read in code, not in a comment, a string or a key written", () => {
  const block = { open: false };
  assert.equal(reads(codeOf(`  const ms = ev.timestamp_ms;`, block)), true);
  assert.equal(reads(codeOf(`  // the started event's timestamp_ms`, block)), false);
  assert.equal(reads(codeOf(`/** startedAtMs, else`, block)), false);
  assert.equal(block.open, true);
  assert.equal(reads(codeOf(` * exitCode */ const x = 1;`, block)), false);
  assert.equal(block.open, false);
  assert.equal(reads(codeOf(`const o = { shellToolCall: 1 };`, block)), false, "a key an output writes");
  assert.equal(reads(codeOf(`if (ev.type === "tool_call") x();`, block)), true);
  assert.equal(reads(codeOf(`const t = o["isBackground"];`, block)), true);
  assert.equal(reads(codeOf(`if ("shellId" in o) x();`, block)), true);
  assert.equal(reads(codeOf(`const columns = ["call_id", "seq"];`, block)), false, "a column an output writes");
  assert.equal(reads(codeOf(`if (d !== undefined) a["cursor.duration_ms"] = d;`, block)), false, "an attribute an output writes");
  assert.equal(reads(codeOf(`args.model_call_id = c.responseId;`, block)), false, "a key an output assigns");
  assert.equal(reads(codeOf(`args.model_call_id = c.modelCallId;`, block)), true, "the log's name for the model's responseId");
  assert.equal(reads(codeOf(`if (c.exitCode !== 0) x();`, block)), true, "the log's name for the model's exitStatus");
  assert.equal(reads(codeOf(`const d = r.duration_ms;`, block)), true);
  assert.equal(reads(codeOf(`if (r.request_id === x) y();`, block)), true, "a comparison reads");
});


/**
 * An agent's own words for a fact, which outputs print from Run.words (model/run.ts AgentWords)
 * and never as their own text: a constant "is_error" in an output would say cursor-agent's word
 * for a Codex run that ended with turn.failed.
 */
const WORDS = /is_error|task_notification|turn\.failed|status: \\?"error\\?"/;
/** Where an output writes such a word as a key of an object of the agent's own shape, by file and why. */
const WORDS_WRITTEN = new Map([["src/outputs/json/index.ts", "the key of the synthesized result object, which stands in for the CLI's own"]]);

test("outputs: no agent's word for a fact (is_error, task_notification, turn.failed) is an output's own text: it comes from Run.words", () => {
  const found: string[] = [];
  for (const f of files("src/outputs")) {
    const block = { open: false };
    readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const strings = codeOf(line, block).match(STRINGS) ?? [];
        if (strings.some((s) => WORDS.test(s)) && !WORDS_WRITTEN.has(f)) found.push(`${f}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], `${found.length} lines of src/outputs print an agent's word as their own:\n${found.join("\n")}`);
  // The check finds one: a string in code, not a comment.
  assert.equal(WORDS.test(`"ended in error (is_error)"`), true);
  assert.equal(codeOf(`// the result's is_error`, { open: false }).match(STRINGS), null);
});

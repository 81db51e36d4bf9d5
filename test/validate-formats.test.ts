// The three diagnostic formats on hand-made findings: escaping of log text in each.
import assert from "node:assert/strict";
import { test } from "node:test";
import pc from "picocolors";
import type { Finding, Summary } from "../src/validate/finding.js";
import { githubFormat } from "../src/validate/format-github.js";
import { jsonFormat } from "../src/validate/format-json.js";
import { textFormat } from "../src/validate/format-text.js";
import { summaryText } from "../src/validate/summary-text.js";

const schemaError: Finding = { file: "logs/run.ndjson", line: 17, severity: "error", rule: "schema", path: "/tool_call/shellToolCall/args/command", message: "must be string", keyword: "type", schemaPath: "#/properties/args/properties/command/type" };
const warning: Finding = { file: "run.ndjson", line: 12, severity: "warning", rule: "unknown-type", path: "", message: 'unknown event type "hologram"' };
const hostile: Finding = { file: "a,b:c%d\u001b[2J.ndjson", line: 3, severity: "error", rule: "unknown-field", path: "/x\u202e", message: 'unknown field "k\u001b]0;t\u0007\r\n100%"' };
const summary: Summary = { files: 2, lines: 51, valid: 49, invalid: 2, errors: 4, warnings: 1 };

test("text: the issue's example, warnings marked, log text escaped", () => {
  const text = textFormat(pc.createColors(false));
  assert.equal(text.finding(schemaError), "logs/run.ndjson:17: /tool_call/shellToolCall/args/command: must be string (type)\n");
  assert.equal(text.finding(warning), 'run.ndjson:12: warning: unknown event type "hologram" (unknown-type)\n');
  assert.equal(text.finding(hostile), 'a,b:c%d\\u001b[2J.ndjson:3: /x\\u202e: unknown field "k\\u001b]0;t\\u0007\\r\\n100%" (unknown-field)\n');
});

test("text with colour: only the marker and the keyword are coloured", () => {
  const out = textFormat(pc.createColors(true)).finding(warning);
  assert.match(out, /^run\.ndjson:12: \u001b\[33mwarning\u001b\[39m: unknown event type "hologram" \u001b\[2m\(unknown-type\)\u001b\[22m\n$/);
});

test("json: one object per line with every key, nulls where a field does not apply", () => {
  const line = jsonFormat.finding(warning);
  assert.ok(line.endsWith("}\n") && !line.slice(0, -1).includes("\n"));
  assert.deepEqual(JSON.parse(line), { type: "diagnostic", file: "run.ndjson", line: 12, severity: "warning", rule: "unknown-type", keyword: null, path: "", message: 'unknown event type "hologram"', schemaPath: null, related: [] });
  assert.deepEqual(JSON.parse(jsonFormat.summary({ ...summary, stoppedAfter: 4 })), { type: "summary", files: 2, lines: 51, valid: 49, invalid: 2, errors: 4, warnings: 1, stoppedAfter: 4 });
});

test("json: controls, bidi overrides and line separators are \\u escapes, and the values survive", () => {
  const f = { ...hostile, message: "a\u2028b\u202ec\u0085d\u001b" };
  const line = jsonFormat.finding(f);
  assert.doesNotMatch(line.slice(0, -1), /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  assert.equal((JSON.parse(line) as Finding).message, f.message);
  assert.equal((JSON.parse(line) as Finding).file, hostile.file);
});

test("github: error and warning commands, file and line properties, message after ::", () => {
  assert.equal(githubFormat.finding(schemaError), "::error file=logs/run.ndjson,line=17,title=cursorlog validate::/tool_call/shellToolCall/args/command: must be string (type)\n");
  assert.equal(githubFormat.finding(warning), '::warning file=run.ndjson,line=12,title=cursorlog validate::unknown event type "hologram" (unknown-type)\n');
});

test("github: property values escape % CR LF : and , — the message escapes % CR LF; controls never raw", () => {
  const out = githubFormat.finding(hostile);
  assert.equal(out, '::error file=a%2Cb%3Ac%25d\\u001b[2J.ndjson,line=3,title=cursorlog validate::/x\\u202e: unknown field "k\\u001b]0;t\\u0007\\r\\n100%25" (unknown-field)\n');
  assert.doesNotMatch(out.slice(0, -1), /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
});

test("github: standard input has no file to annotate, so the location goes in the message", () => {
  assert.equal(githubFormat.finding({ ...warning, file: "<stdin>" }), '::warning title=cursorlog validate::<stdin>:12: unknown event type "hologram" (unknown-type)\n');
});

test("summary: counts, singulars, and where --max-errors stopped", () => {
  assert.equal(summaryText(summary), "checked 51 lines in 2 files: 49 valid, 2 invalid; 4 errors, 1 warning");
  assert.equal(summaryText({ files: 1, lines: 1, valid: 0, invalid: 1, errors: 1, warnings: 0, stoppedAfter: 1 }), "checked 1 line in 1 file: 0 valid, 1 invalid; 1 error, 0 warnings; stopped after 1 error (--max-errors)");
});

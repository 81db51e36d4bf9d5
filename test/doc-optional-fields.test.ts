// Issue 26 A: a field the vendor's doc (or FORMAT.md, from real runs) calls optional or absent is
// never required by the bundled schemas, whatever the captures hold. Each case below names the
// doc line; the run around it is a real run's shape, so `validate` (and `--strict`, which reports
// any field no schema declares) must pass it with no finding at all.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runCli } from "./helpers/run-cli.js";

const SID = "5e1c0a52-0000-4000-8000-000000000001";
const RID = "9b2d7c10-0000-4000-8000-000000000002";
const TS = 1790859572325;

const init = { type: "system", subtype: "init", apiKeySource: "login", cwd: "/home/u/p", session_id: SID, model: "Auto", permissionMode: "default" };
const user = { type: "user", message: { role: "user", content: [{ type: "text", text: "count to 100000" }] }, session_id: SID };
const assistant = { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "done" }] }, session_id: SID };
const result = {
  type: "result",
  subtype: "success",
  duration_ms: 1902,
  duration_api_ms: 1902,
  is_error: false,
  result: "done",
  session_id: SID,
  request_id: RID,
  usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
};
const SHELL_ARGS = { command: "seq 1 100000", workingDirectory: "", timeout: 30000, toolCallId: "c1" };
const shellStarted = {
  type: "tool_call",
  subtype: "started",
  call_id: "c1",
  tool_call: { shellToolCall: { args: SHELL_ARGS } },
  model_call_id: `${RID}-0-abcd`,
  session_id: SID,
  timestamp_ms: TS,
};
const shellCompleted = (success: Record<string, unknown>) => ({
  ...shellStarted,
  subtype: "completed",
  tool_call: { shellToolCall: { args: SHELL_ARGS, result: { success } } },
  timestamp_ms: TS + 40,
});

function without<T extends Record<string, unknown>>(obj: T, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...obj };
  delete copy[key];
  return copy;
}

interface Case {
  field: string;
  /** The doc line that makes the field optional. */
  doc: string;
  lines: object[];
  /** Extra validate options (--no-lifecycle for a lone object). */
  options?: string[];
}

const CASES: Case[] = [
  {
    field: "result.request_id",
    doc: "vendor doc (cursor.com/docs/cli/reference/output-format, every revision), result fields: `request_id` | Optional request identifier (may be omitted); FORMAT.md 5.5: the vendor's doc calls `request_id` optional",
    lines: [init, user, assistant, without(result, "request_id")],
  },
  {
    field: "result.request_id (--output-format json, one object)",
    doc: "vendor doc, JSON format success response: `request_id` | Optional request identifier (may be omitted)",
    lines: [without(result, "request_id")],
    options: ["--no-lifecycle"],
  },
  {
    field: "shellToolCall result.success.stdout and .stderr when outputLocation replaces them",
    doc: "FORMAT.md 5.5: Output over 40,000 bytes is replaced by `outputLocation {filePath, sizeBytes, lineCount}`",
    lines: [
      init,
      user,
      shellStarted,
      shellCompleted({
        command: "seq 1 100000",
        workingDirectory: "",
        exitCode: 0,
        signal: "",
        executionTime: 40,
        outputLocation: { filePath: "/home/u/.cursor/projects/p/terminals/c1.txt", sizeBytes: 588895, lineCount: 100000 },
      }),
      assistant,
      result,
    ],
  },
];

const dir = mkdtempSync(join(tmpdir(), "cursorlog-doc-optional-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("fields the doc calls optional are never required", () => {
  CASES.forEach((c, i) => {
    for (const strict of [false, true]) {
      test(`${c.field}${strict ? " (--strict)" : ""}`, async () => {
        const file = join(dir, `case-${i}.ndjson`);
        writeFileSync(file, c.lines.map((l) => JSON.stringify(l) + "\n").join(""));
        const r = await runCli(["validate", ...(c.options ?? []), ...(strict ? ["--strict"] : []), file]);
        const n = c.lines.length;
        assert.equal(
          r.stdout,
          `checked ${n} line${n === 1 ? "" : "s"} in 1 file: ${n} valid, 0 invalid; 0 errors, 0 warnings\n`,
          `${c.doc}\n${r.stdout}`,
        );
        assert.equal(r.stderr, "");
        assert.equal(r.code, 0);
      });
    }
  });
});

describe("what stays required still fails", () => {
  test("a shell success with neither stdout nor outputLocation", async () => {
    const file = join(dir, "no-stdout.ndjson");
    const bad = shellCompleted({ command: "true", workingDirectory: "", exitCode: 0, signal: "", stderr: "" });
    writeFileSync(file, [init, user, shellStarted, bad, assistant, result].map((l) => JSON.stringify(l) + "\n").join(""));
    const r = await runCli(["validate", file]);
    assert.equal(
      r.stdout,
      `${file}:4: /tool_call/shellToolCall/result/success: must have required property 'stdout' (required)\n` +
        "checked 6 lines in 1 file: 5 valid, 1 invalid; 1 error, 0 warnings\n",
    );
    assert.equal(r.code, 1);
  });

  test("a success result without duration_api_ms (the doc lists it without 'optional')", async () => {
    const file = join(dir, "no-api-ms.ndjson");
    writeFileSync(file, [init, user, assistant, without(result, "duration_api_ms")].map((l) => JSON.stringify(l) + "\n").join(""));
    const r = await runCli(["validate", file]);
    assert.equal(
      r.stdout,
      `${file}:4: must have required property 'duration_api_ms' (required)\n` + "checked 4 lines in 1 file: 3 valid, 1 invalid; 1 error, 0 warnings\n",
    );
    assert.equal(r.code, 1);
  });
});

// What each dialect tells the outputs as data (src/dialects/dialect.ts): the types of the lines
// that tell its calls (filter --tool/--status), its bundled schema set (validate).
import assert from "node:assert/strict";
import { test } from "node:test";
import { DIALECTS } from "../src/dialects/index.js";
import { claudeDialect } from "../src/dialects/claude/reader.js";
import { cursorDialect } from "../src/dialects/cursor/reader.js";
import { bundledSchemaSetInfo, CLAUDE_CODE_ENTRY_ID, CURSOR_ENTRY_ID } from "../src/validate/bundled-schemas.js";

test("each dialect names its bundled schema set by the entry's $id", () => {
  assert.equal(cursorDialect.schemaEntryId, CURSOR_ENTRY_ID);
  assert.equal(claudeDialect.schemaEntryId, CLAUDE_CODE_ENTRY_ID);
  for (const d of DIALECTS) assert.equal(bundledSchemaSetInfo(d.schemaEntryId).entryId, d.schemaEntryId, d.agent);
});

test("cursor-agent tells each call on tool_call lines; Claude Code's calls span line types (no skipping by type)", () => {
  assert.deepEqual(cursorDialect.callLineTypes, ["tool_call"]);
  assert.equal(claudeDialect.callLineTypes, undefined);
});

test("Claude Code's runs go on after their result (lines after it stay in the run); cursor-agent's do not", () => {
  assert.equal(claudeDialect.linesAfterResult, true);
  assert.equal(cursorDialect.linesAfterResult, undefined);
});

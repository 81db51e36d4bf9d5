// test-run: scaled
// `cursorlog text` over every Codex fixture (issue 28): an action line per completed call in
// cursor-agent's words (AGENTS.md §4: command_execution "Ran terminal command", file_change
// "Created new file" / "Edited file" / "Deleted file" one line per change, mcp_tool_call "Called MCP
// tool", web_search "Searched the web" / "Fetched web page", todo_list "Updated todos",
// collab_tool_call "Ran subagent task"); -v targets (a command without its login-shell wrapper);
// failures and refusals marked as cursor-agent's are (failed, exit 1; declined; error: …);
// --final the run's last agent_message. Goldens: test/golden/codex/text/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push({ name: `codex/text/${f}`, argv: ["text", codexFixture(f)] });
  cases.push({ name: `codex/text/v-${f}`, argv: ["text", "-v", codexFixture(f)] });
  cases.push({ name: `codex/text/final-${f}`, argv: ["text", "--final", codexFixture(f)] });
}
cases.push(
  { name: "codex/text/allow-incomplete-interrupted", argv: ["text", "-v", "--allow-incomplete", codexFixture("interrupted")] },
  { name: "codex/text/final-allow-incomplete-interrupted", argv: ["text", "--final", "--allow-incomplete", codexFixture("interrupted")] },
  { name: "codex/text/H-resumed", argv: ["text", "-v", "-H", codexFixture("resumed")] },
  // Colour: a failure red, a refusal yellow.
  { name: "codex/text/color-commands-mcp-web", argv: ["text", "-v", "--color", "always", codexFixture("commands"), codexFixture("mcp-web")] },
);

goldenTests(cases);

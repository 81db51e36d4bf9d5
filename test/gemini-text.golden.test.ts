// test-run: scaled
// `cursorlog text` over every Gemini CLI fixture (issue 28): an action line per completed call in
// cursor-agent's words (AGENTS.md §4: read_file/read_many_files "Read file", write_file/replace
// "Edited file" (create vs overwrite is not in the stream), run_shell_command "Ran terminal
// command", list_directory "Listed directory", glob "Searched for files", grep_search "Searched file
// contents", web_fetch "Fetched web page", google_web_search "Searched the web", write_todos
// "Updated todos", invoke_agent "Ran subagent task", mcp_… "Called MCP tool"); -v targets; a
// failing shell reported success is not marked failed; a policy_violation marked as a refusal;
// --final the run's last message (the chunks after its last call). Goldens: test/golden/gemini/text/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { GEMINI_FIXTURES, geminiFixture } from "./helpers/gemini-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of GEMINI_FIXTURES) {
  cases.push({ name: `gemini/text/${f}`, argv: ["text", geminiFixture(f)] });
  cases.push({ name: `gemini/text/v-${f}`, argv: ["text", "-v", geminiFixture(f)] });
  cases.push({ name: `gemini/text/final-${f}`, argv: ["text", "--final", geminiFixture(f)] });
}
cases.push(
  { name: "gemini/text/allow-incomplete-cut-off", argv: ["text", "-v", "--allow-incomplete", geminiFixture("cut-off")] },
  { name: "gemini/text/H-two-runs", argv: ["text", "-v", "-H", geminiFixture("two-runs")] },
  // Colour: a failure red, a refusal yellow.
  { name: "gemini/text/color-denied", argv: ["text", "-v", "--color", "always", geminiFixture("denied")] },
);

goldenTests(cases);

// test-run: scaled
// `cursorlog json` over every Codex fixture (issue 28): per run, the object built from the stream in
// cursor-agent's keys (Codex writes no result line): `result` the last agent_message's text,
// `session_id` the thread id, `is_error` from turn.failed, `usage` the last turn.completed's as
// logged (Codex's names, the thread's total: two resumed runs each print their own); no duration,
// no request id. Exit status from the model: turn.failed 1 (its message on stderr), no terminal
// event 4, and with --allow-incomplete the synthesized object of a run cut off; error items and
// events a warning. Goldens: test/golden/codex/json/.
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { CODEX_FIXTURES, codexFixture } from "./helpers/codex-fixtures.js";

const cases: GoldenCase[] = [];
for (const f of CODEX_FIXTURES) {
  cases.push({ name: `codex/json/${f}`, argv: ["json", codexFixture(f)] });
  cases.push({ name: `codex/json/allow-incomplete-${f}`, argv: ["json", "--allow-incomplete", codexFixture(f)] });
}
cases.push(
  { name: "codex/json/pretty-turn-failed", argv: ["json", "--pretty", codexFixture("turn-failed")] },
  { name: "codex/json/H-resumed", argv: ["json", "-H", codexFixture("resumed")] },
  // Every fixture in one run: each run's object in input order, the status the worst of them (4: a run cut off).
  { name: "codex/json/all", argv: ["json", ...CODEX_FIXTURES.map(codexFixture)] },
);

goldenTests(cases);

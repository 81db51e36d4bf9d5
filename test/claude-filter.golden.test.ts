// test-run: scaled
// `cursorlog filter` over Claude Code logs (issue 27): lines as written, byte for byte; --type is
// the line's own type; --tool, --status and --call-id select calls on the run model (the assistant
// line that starts a call and the user line that answers it), --pair holds a line that starts
// several calls once; --since/--until on the lines' ISO timestamp; a folder of Cursor and Claude
// Code logs gives what each file gives alone, with and without --jobs. Goldens: test/golden/claude/filter/.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { goldenTests, type GoldenCase } from "./helpers/golden.js";
import { runCli } from "./helpers/run-cli.js";

const C = "test/fixtures/claude";
const FIXTURES = ["after-result", "auth-failure", "background", "cut-off", "denied", "early-2026", "hooks-first", "max-turns", "mcp-web", "partial", "subagent", "tools"];

const cases: GoldenCase[] = [];
// A call's two lines, for every fixture: Bash's (--tool shell), the failed calls', the refused ones'.
for (const f of FIXTURES) {
  cases.push(
    { name: `claude/filter/tool-shell-${f}`, argv: ["filter", "--tool", "shell", `${C}/${f}.ndjson`] },
    { name: `claude/filter/status-failed-${f}`, argv: ["filter", "--status", "failed", `${C}/${f}.ndjson`] },
    { name: `claude/filter/pair-status-refused-${f}`, argv: ["filter", "--pair", "--status", "refused", `${C}/${f}.ndjson`] },
  );
}
cases.push(
  // --type: the line's own.
  { name: "claude/filter/type-assistant-tools", argv: ["filter", "--type", "assistant", `${C}/tools.ndjson`] },
  { name: "claude/filter/type-stream_event-partial", argv: ["filter", "--type", "stream_event", `${C}/partial.ndjson`] },
  { name: "claude/filter/type-system-subtype-hooks-first", argv: ["filter", "--type", "system", "--subtype", "hook_started", "--subtype", "init", `${C}/hooks-first.ndjson`] },
  { name: "claude/filter/exclude-type-system-hooks-first", argv: ["filter", "--exclude-type", "system", `${C}/hooks-first.ndjson`] },
  // --tool by Claude Code's names and cursorlog's kinds; a line with two calls (2.1.15) once.
  { name: "claude/filter/tool-Read-early-2026", argv: ["filter", "--tool", "Read", `${C}/early-2026.ndjson`] },
  { name: "claude/filter/pair-tool-read-early-2026", argv: ["filter", "--pair", "--tool", "read", `${C}/early-2026.ndjson`] },
  { name: "claude/filter/tool-agent-subagent", argv: ["filter", "--tool", "Agent", `${C}/subagent.ndjson`] },
  { name: "claude/filter/tool-read-subagent", argv: ["filter", "--tool", "read", `${C}/subagent.ndjson`] },
  { name: "claude/filter/tool-mcp-web", argv: ["filter", "--tool", "mcp", "--tool", "webSearch", `${C}/mcp-web.ndjson`] },
  { name: "claude/filter/tool-edit-count-tools", argv: ["filter", "-c", "--tool", "edit", `${C}/tools.ndjson`] },
  // --status on the model's bins: ok, failed, refused; --pair brings the start out.
  { name: "claude/filter/status-ok-tools", argv: ["filter", "--status", "ok", "--tool", "read", `${C}/tools.ndjson`] },
  { name: "claude/filter/pair-status-failed-tools", argv: ["filter", "--pair", "--status", "failed", `${C}/tools.ndjson`] },
  { name: "claude/filter/status-permission-rule-denied", argv: ["filter", "--status", "permission-rule", `${C}/denied.ndjson`] },
  { name: "claude/filter/status-timeout-none", argv: ["filter", "-e", "--status", "timeout", `${C}/tools.ndjson`] },
  // --call-id, --where (the line as written), together with --tool.
  { name: "claude/filter/call-id-tools", argv: ["filter", "--call-id", "toolu_01VyZH1NqUohcsdILQBVbc6z", `${C}/tools.ndjson`] },
  { name: "claude/filter/where-command-tools", argv: ["filter", "--where", "message.content[0].input.command ~ ^npm", `${C}/tools.ndjson`] },
  { name: "claude/filter/where-is-error-and-tool", argv: ["filter", "--tool", "shell", "--where", "message.content[*].is_error == true", `${C}/tools.ndjson`, `${C}/denied.ndjson`] },
  // -v: the other lines (never the agent CLI's text), -c -H per file.
  { name: "claude/filter/invert-count-tool-shell", argv: ["filter", "-v", "-c", "--tool", "shell", `${C}/tools.ndjson`] },
  { name: "claude/filter/count-per-file-tool-shell", argv: ["filter", "-c", "-H", "--tool", "shell", ...FIXTURES.map((f) => `${C}/${f}.ndjson`)] },
  // --since/--until on the lines' ISO timestamp; a log without one (early-2026).
  { name: "claude/filter/since-until-tools", argv: ["filter", "--since", "2026-10-01T12:00:10Z", "--until", "2026-10-01T12:00:16Z", `${C}/tools.ndjson`] },
  { name: "claude/filter/since-tool-shell-tools", argv: ["filter", "--since", "2026-10-01T12:00:20Z", "--tool", "shell", `${C}/tools.ndjson`] },
  { name: "claude/filter/since-early-2026", argv: ["filter", "-c", "--since", "2026-01-01T00:00Z", `${C}/early-2026.ndjson`] },
  { name: "claude/filter/until-early-2026", argv: ["filter", "-c", "--until", "2026-01-01T00:00Z", `${C}/early-2026.ndjson`] },
  // Cursor and Claude Code files in one run; --agent forcing Claude Code's reading.
  { name: "claude/filter/mixed-tool-shell", argv: ["filter", "--tool", "shell", "--status", "failure", "test/fixtures/rejected-errored.ndjson", `${C}/tools.ndjson`, "test/fixtures/2026-long.ndjson", `${C}/max-turns.ndjson`] },
  { name: "claude/filter/mixed-pair-tool-read", argv: ["filter", "--pair", "--tool", "read", "test/fixtures/two-sessions.ndjson", `${C}/subagent.ndjson`] },
  { name: "claude/filter/agent-claude-tool-shell", argv: ["filter", "--agent", "claude", "--tool", "shell", `${C}/hooks-first.ndjson`] },
);
goldenTests(cases);

const read = (f: string): string => readFileSync(f, "utf8");

test("filter: every Claude Code fixture comes out byte for byte, with no predicate and with one that holds for every line", async () => {
  for (const f of FIXTURES) {
    const path = `${C}/${f}.ndjson`;
    for (const args of [[], ["--where", "type exists"], ["--exclude-type", "no_such_type"]]) {
      const r = await runCli(["filter", ...args, path]);
      assert.equal(r.code, 0, `${f} ${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, read(path), `${f} ${args.join(" ")}`);
    }
  }
});

test("filter: X and -v X split a Claude Code log in two, for the call predicates (on the model) too", async () => {
  for (const f of FIXTURES) {
    const path = `${C}/${f}.ndjson`;
    const lines = read(path).split("\n").filter((l) => l !== "");
    for (const args of [["--tool", "shell"], ["--status", "failed"], ["--tool", "read", "--type", "user"], ["--since", "2026-10-01T12:44:14Z"]]) {
      const kept = (await runCli(["filter", ...args, path])).stdout.split("\n").filter((l) => l !== "");
      const rest = (await runCli(["filter", "-v", ...args, path])).stdout.split("\n").filter((l) => l !== "");
      assert.deepEqual([...kept, ...rest].sort(), [...lines].sort(), `${f} ${args.join(" ")}`);
    }
  }
});

test("filter --tool shell keeps a Bash call's assistant line and the user line of its result; --status failed its result alone", async () => {
  const r = await runCli(["filter", "--tool", "shell", `${C}/tools.ndjson`]);
  const kept = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; message: { content: Array<{ type: string; name?: string }> } });
  assert.deepEqual(kept.map((l) => l.type), ["assistant", "user", "assistant", "user"]);
  assert.deepEqual(kept.filter((l) => l.type === "assistant").map((l) => l.message.content[0]!.name), ["Bash", "Bash"]);
  const failed = (await runCli(["filter", "--status", "failed", `${C}/tools.ndjson`])).stdout.trim().split("\n");
  assert.equal(failed.length, 2, "the Bash exit 1 and the Edit whose string was not found");
  assert.ok(failed.every((l) => (JSON.parse(l) as { type: string }).type === "user"));
});

const ALONE_FILES = ["test/fixtures/2026-long.ndjson", `${C}/denied.ndjson`, `${C}/early-2026.ndjson`, "test/fixtures/rejected-errored.ndjson", `${C}/subagent.ndjson`, `${C}/tools.ndjson`, "test/fixtures/two-sessions.ndjson"];

test("filter over a folder of Cursor and Claude Code logs: what each file gives alone, in order; --jobs 2 the same", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cursorlog-mixed-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = ALONE_FILES.map((f, i) => {
    const to = join(dir, `${String(i).padStart(2, "0")}-${basename(f)}`);
    copyFileSync(f, to);
    return to;
  });
  const predicates = [
    [],
    ["--type", "assistant"],
    ["--tool", "shell"],
    ["--tool", "read", "--status", "success"],
    ["--status", "failed"],
    ["--pair", "--tool", "shell"],
    ["--pair", "--status", "refused"],
    ["-v", "--tool", "edit"],
    ["--since", "2026-01-01T00:00Z"],
    ["--where", "message.content[0].type == tool_use"],
    ["-H", "--tool", "read"],
  ];
  for (const args of predicates) {
    let alone = "";
    for (const f of files) {
      const r = await runCli(["filter", ...args, f]);
      assert.equal(r.code, 0, `${args.join(" ")} ${f}: ${r.stderr}`);
      alone += r.stdout;
    }
    const together = await runCli(["filter", ...args, dir]);
    assert.equal(together.code, 0, together.stderr);
    assert.equal(together.stdout, alone, `filter ${args.join(" ")} DIR`);
    const jobs = await runCli(["filter", "--jobs", "2", ...args, dir]);
    assert.deepEqual(jobs, together, `filter --jobs 2 ${args.join(" ")} DIR`);
  }
  // A count: the sum of the files' (one line), or per file with -H.
  let sum = 0;
  let perFile = "";
  for (const f of files) {
    const n = Number((await runCli(["filter", "-c", "--tool", "shell", f])).stdout);
    sum += n;
    perFile += `${f}:${n}\n`;
  }
  for (const jobs of [[], ["--jobs", "2"]]) {
    assert.equal((await runCli(["filter", ...jobs, "-c", "--tool", "shell", dir])).stdout, `${sum}\n`);
    assert.equal((await runCli(["filter", ...jobs, "-c", "-H", "--tool", "shell", dir])).stdout, perFile);
  }
});

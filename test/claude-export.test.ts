// `cursorlog export` of Claude Code logs, on lines built for each case (test/helpers/claude-events.ts,
// AGENTS.md §1's shapes): the file output parsed strictly as OTLP TracesData
// (test/helpers/otlp-proto.ts), and the Chrome trace, for what the goldens' fixtures do not hold.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assistant, bashResult, init, result, taskNotification, taskUpdated, text, toolResult, toolUse, user, type Ev } from "./helpers/claude-events.js";
import { decodeOtlpJson, type DecodedSpan } from "./helpers/otlp-proto.js";
import { runCli, type CliResult } from "./helpers/run-cli.js";

const S = "5b0e7c2a-1d3f-4a6b-8c9d-0e1f2a3b4c5d";
const T = Date.parse("2026-10-03T08:00:00.000Z");
const log = (lines: Ev[]) => Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");

async function exportOf(lines: Ev[], argv: string[] = [], env?: Record<string, string>): Promise<{ r: CliResult; spans: DecodedSpan[] }> {
  const r = await runCli(["export", ...argv], { stdin: log(lines), ...(env === undefined ? {} : { env }) });
  const docs = decodeOtlpJson(r.stdout);
  assert.equal(docs.length, 1, r.stderr);
  assert.equal(docs[0]!.error, undefined);
  return { r, spans: docs[0]!.spans! };
}

const ms = (span: DecodedSpan, end = false) => Number(BigInt(end ? span.end : span.start) / 1_000_000n);
const byId = (spans: DecodedSpan[], id: string) => spans.find((s) => s.attributes["gen_ai.tool.call.id"] === id)!;

test("a call with no time of its own: a zero-length span at the latest time logged up to its line, marked; before any time, at the run's start", async () => {
  const lines = [
    init(S),
    // No timestamp on either line of the first call: no time has been logged yet.
    assistant(S, "msg_1", [toolUse("toolu_early", "Bash", { command: "ls" })]),
    user(S, [toolResult("toolu_early", "a.txt")], { toolUseResult: bashResult("a.txt") }),
    assistant(S, "msg_2", [toolUse("toolu_timed", "Bash", { command: "make" })], { at: T + 1000 }),
    user(S, [toolResult("toolu_timed", "ok")], { at: T + 3000, toolUseResult: bashResult("ok") }),
    // Neither line of this call is stamped: placed at T + 3000, the latest time before it.
    assistant(S, "msg_3", [toolUse("toolu_bare", "Read", { file_path: "/work/project/a.txt" })]),
    user(S, [toolResult("toolu_bare", "1\tx")], { toolUseResult: { type: "text", file: { filePath: "/work/project/a.txt", content: "x", numLines: 1, startLine: 1, totalLines: 1 } } }),
    assistant(S, "msg_4", [text("Done.")], { at: T + 5000 }),
    result(S),
  ];
  const { r, spans } = await exportOf(lines);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const root = spans.find((s) => s.parentSpanId === "")!;
  assert.deepEqual([ms(root), ms(root, true)], [T + 1000, T + 5000]);
  const early = byId(spans, "toolu_early");
  assert.deepEqual([ms(early), ms(early, true)], [T + 1000, T + 1000], "before any time: at the run's start");
  const bare = byId(spans, "toolu_bare");
  assert.deepEqual([ms(bare), ms(bare, true)], [T + 3000, T + 3000]);
  for (const s of [early, bare]) {
    assert.equal(s.attributes["cursor.time.absent"], true);
    assert.equal(s.attributes["cursor.time.start_unknown"], true);
    assert.equal(s.attributes["cursor.time.end_unknown"], true);
  }
  const timed = byId(spans, "toolu_timed");
  assert.deepEqual([ms(timed), ms(timed, true)], [T + 1000, T + 3000]);
  assert.equal(timed.attributes["cursor.time.absent"], undefined);

  const chrome = await runCli(["export", "--format", "chrome-trace"], { stdin: log(lines) });
  const slices = (JSON.parse(chrome.stdout) as { traceEvents: Array<{ ph: string; ts: number; dur: number; args: Record<string, unknown> }> }).traceEvents.filter((e) => e.ph === "X");
  const slice = (id: string) => slices.find((e) => e.args.call_id === id)!;
  assert.deepEqual([slice("toolu_bare").ts, slice("toolu_bare").dur, slice("toolu_bare").args.time_absent], [(T + 3000) * 1000, 0, true]);
  assert.deepEqual([slice("toolu_early").ts, slice("toolu_early").args.time_absent], [(T + 1000) * 1000, true]);
  assert.equal(slice("toolu_timed").args.time_absent, undefined);
});

test("a subagent's calls go under its subagent span; one whose task call is not in the run, under the root, naming it", async () => {
  const lines = [
    init(S),
    assistant(S, "msg_1", [toolUse("toolu_task", "Agent", { subagent_type: "Explore", description: "Look around", prompt: "…" })], { at: T }),
    assistant(S, "msg_2", [toolUse("toolu_sub", "Read", { file_path: "/work/project/a.txt" })], { at: T + 100, parent: "toolu_task" }),
    user(S, [toolResult("toolu_sub", "1\tx")], { at: T + 200, parent: "toolu_task" }),
    // A line naming a task the run never started (its start was in another file): kept, under the root.
    assistant(S, "msg_3", [toolUse("toolu_stray", "Bash", { command: "pwd" })], { at: T + 250, parent: "toolu_elsewhere" }),
    user(S, [toolResult("toolu_stray", "/work/project")], { at: T + 260, parent: "toolu_elsewhere" }),
    user(S, [toolResult("toolu_task", [{ type: "text", text: "Found a.txt" }])], { at: T + 300 }),
    result(S),
  ];
  const { spans } = await exportOf(lines);
  const root = spans.find((s) => s.parentSpanId === "")!;
  const task = byId(spans, "toolu_task");
  const subagent = spans.find((s) => s.name === "invoke_agent subagent")!;
  assert.equal(subagent.parentSpanId, task.spanId);
  assert.deepEqual([subagent.attributes["gen_ai.provider.name"], subagent.attributes["gen_ai.agent.name"]], ["anthropic", "subagent"]);
  assert.equal(byId(spans, "toolu_sub").parentSpanId, subagent.spanId);
  const stray = byId(spans, "toolu_stray");
  assert.equal(stray.parentSpanId, root.spanId);
  assert.equal(stray.attributes["cursor.tool.parent_call_id"], "toolu_elsewhere");
  assert.equal(byId(spans, "toolu_sub").attributes["cursor.tool.parent_call_id"], undefined);
});

test("a background task that ends after the result: its end is in the run's trace, which ends with it", async () => {
  const lines = [
    init(S),
    assistant(S, "msg_1", [toolUse("toolu_bg", "Bash", { command: "sleep 60", run_in_background: true })], { at: T }),
    user(S, [toolResult("toolu_bg", "Command running in background with ID: b1.")], { at: T + 100, toolUseResult: bashResult("", { backgroundTaskId: "b1" }) }),
    assistant(S, "msg_2", [text("Started.")], { at: T + 200 }),
    result(S),
    taskUpdated(S, "b1", "completed", T + 60_100),
    taskNotification(S, "b1", "toolu_bg", "completed", "sleep 60"),
  ];
  const { spans } = await exportOf(lines);
  const root = spans.find((s) => s.parentSpanId === "")!;
  const bg = spans.find((s) => s.name === "background_shell")!;
  assert.deepEqual([ms(bg), ms(bg, true)], [T + 100, T + 60_100]);
  assert.deepEqual([bg.attributes["cursor.background.finished"], bg.attributes["cursor.background.status"], bg.attributes["cursor.log.line"]], [true, "completed", 7]);
  assert.equal(ms(root, true), T + 60_100);
  assert.equal(root.attributes["cursor.log.last_line"], 7);
});

test("service.name: --service-name, else OTEL_SERVICE_NAME (not blank), else the run's agent", async () => {
  const lines = [init(S), assistant(S, "msg_1", [text("Hi.")], { at: T }), result(S)];
  const name = async (argv: string[], env?: Record<string, string>) => (await exportOf(lines, argv, env)).spans[0]!.resource["service.name"];
  assert.equal(await name([]), "claude-code");
  assert.equal(await name([], { TZ: "UTC", OTEL_SERVICE_NAME: "  " }), "claude-code");
  assert.equal(await name([], { TZ: "UTC", OTEL_SERVICE_NAME: "nightly" }), "nightly");
  assert.equal(await name(["--service-name", "ci"], { TZ: "UTC", OTEL_SERVICE_NAME: "nightly" }), "ci");
});

test("runs with no time at all: exported at the epoch, marked, and said on stderr once, at the first", async () => {
  const early = (id: string) => [
    init(id, { version: "2.1.15" }),
    assistant(id, "msg_1", [text("Listing."), toolUse("toolu_1", "Bash", { command: "ls" })], { early: true }),
    user(id, [toolResult("toolu_1", "a.txt")], { early: true }),
    result(id),
  ];
  const r = await runCli(["export"], { stdin: log([...early(S), ...early("6c1f8d3b-2e4a-4b5c-9d0e-1f2a3b4c5d6e")]) });
  assert.equal(r.code, 0);
  const docs = decodeOtlpJson(r.stdout);
  assert.equal(docs.length, 2);
  for (const d of docs) {
    const root = d.spans!.find((s) => s.parentSpanId === "")!;
    assert.deepEqual([root.start, root.attributes["cursor.time.unknown"]], ["0", true]);
    // Every span of it marked, the root's and its call's (issue 27): the call zero-length at 1 ns,
    // the root from 0 to 2 ns, holding it (an order, not a duration).
    assert.deepEqual(
      d.spans!.map((s) => [s.parentSpanId === "" ? "root" : "call", s.start, s.end, s.attributes["cursor.time.unknown"]]),
      [
        ["root", "0", "2", true],
        ["call", "1", "1", true],
      ],
    );
  }
  assert.match(
    r.stderr,
    /^cursorlog: warning \(at <stdin>:1\): session 5b0e7c2a-1d3f-4a6b-8c9d-0e1f2a3b4c5d has no time in the log: its spans are placed at the Unix epoch, .*, as are those of any other run without times\n$/,
  );
});

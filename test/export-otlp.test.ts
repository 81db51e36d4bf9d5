import assert from "node:assert/strict";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { decodeOtlpJson, type DecodedSpan } from "./helpers/otlp-proto.js";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

// `cursorlog export` (OTLP/JSON): the file output parsed strictly as OTLP TracesData
// (test/helpers/otlp-proto.ts, in Node), and what the spans say checked against the log itself and
// the GenAI semantic conventions. make stress parses the same output with Python's official
// opentelemetry-proto too (test/stress/otlp-python.test.ts).

const F = "test/fixtures";
const LONG = `${F}/2026-long.ndjson`;

type Ev = Record<string, any>;
const events = (path: string): Ev[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Ev);

async function spansOf(argv: string[]): Promise<DecodedSpan[][]> {
  const r = await runCli(["export", ...argv]);
  assert.notEqual(r.stdout, "", r.stderr);
  const docs = decodeOtlpJson(r.stdout);
  for (const d of docs) assert.equal(d.error, undefined, `line ${d.line} is not a valid TracesData: ${d.error}`);
  return docs.map((d) => d.spans!);
}

const ns = (ms: string | number) => (BigInt(ms) * 1_000_000n).toString();

test("every fixture's OTLP/JSON parses strictly as TracesData, one document per run", async () => {
  const fixtures: Array<[string, number]> = [
    [`${F}/2025-shape.ndjson`, 1],
    [LONG, 1],
    [`${F}/two-sessions.ndjson`, 2],
    [`${F}/hostile.ndjson`, 1],
    [`${F}/crash-no-result.ndjson`, 1],
    [`${F}/rejected-errored.ndjson`, 1],
    [`${F}/large-results.ndjson`, 1],
    [`${F}/filter/reused-call-ids.ndjson`, 2],
    [`${F}/timeline/no-timestamps-2025.ndjson`, 1],
    [`${F}/timeline/clocks-and-ends.ndjson`, 2],
    [`${F}/stats/usage-runs.ndjson`, 3],
    [`${F}/export/background-mcp.ndjson`, 1],
  ];
  for (const [path, runs] of fixtures) {
    for (const content of [false, true]) {
      const docs = await spansOf(content ? ["--include-content", "--allow-incomplete", path] : ["--allow-incomplete", path]);
      assert.equal(docs.length, runs, path);
      for (const spans of docs) {
        const root = spans[0]!;
        assert.equal(root.name, "invoke_agent cursor-agent");
        assert.equal(root.parentSpanId, "");
        assert.match(root.traceId, /^[0-9a-f]{32}$/);
        assert.ok(!/^0+$/.test(root.traceId));
        const ids = new Set(spans.map((s) => s.spanId));
        assert.equal(ids.size, spans.length, `${path}: span ids are unique within a trace`);
        for (const s of spans) {
          assert.equal(s.traceId, root.traceId, "one trace per run");
          assert.match(s.spanId, /^[0-9a-f]{16}$/);
          assert.equal(s.kind, 1, "SPAN_KIND_INTERNAL");
          if (s !== root) assert.ok(ids.has(s.parentSpanId), `${path}: ${s.name} has a parent in the trace`);
          assert.ok(BigInt(s.end) >= BigInt(s.start), `${path}: ${s.name} ends after it starts`);
          assert.deepEqual(s.resource, { "service.name": "cursor-agent" });
          assert.equal(s.scope.name, "cursorlog");
        }
      }
    }
  }
});

test("the strict TracesData parse these tests use refuses what is not one (make stress checks it against opentelemetry-proto)", async () => {
  const line = (await runCli(["export", LONG])).stdout.split("\n")[0]!;
  const edit = (f: (span: any, doc: any) => void) => {
    const d = JSON.parse(line);
    f(d.resourceSpans[0].scopeSpans[0].spans[0], d);
    return JSON.stringify(d);
  };
  const refused = [
    edit((_, d) => (d.extra = 1)),
    edit((s) => (s.foo = "bar")),
    edit((s) => (s.kind = "bogus")),
    edit((s) => (s.startTimeUnixNano = "1.5")),
    edit((s) => (s.droppedAttributesCount = -1)),
    edit((s) => (s.name = 5)),
    edit((s) => (s.traceId = "xyz")),
    edit((s) => (s.attributes = {})),
    edit((s) => s.attributes.push(null)),
    edit((s) => s.attributes.push({ key: "x", value: { stringValue: "a", intValue: 1 } })),
    edit((s) => s.attributes.push({ key: "x", value: { boolValue: "true" } })),
    "{",
  ];
  const accepted = [line, edit((s) => (s.kind = "SPAN_KIND_INTERNAL")), edit((s) => s.attributes.push({ key: "x", value: { intValue: "12" } }))];
  const docs = decodeOtlpJson([...refused, ...accepted].join("\n") + "\n");
  assert.deepEqual(
    docs.map((d) => d.error === undefined),
    [...refused.map(() => false), ...accepted.map(() => true)],
  );
  assert.deepEqual(docs.at(-2)!.spans, docs.at(-3)!.spans, "SPAN_KIND_INTERNAL is kind 1");
});

test("the run's root span: GenAI attributes, cached tokens inside input_tokens, cursor.* facts, times", async () => {
  const [spans] = await spansOf([LONG]);
  const root = spans![0]!;
  const evs = events(LONG);
  const result = evs.at(-1)!;
  const u = result.usage;
  assert.deepEqual(root.attributes, {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.provider.name": "cursor",
    "gen_ai.agent.name": "cursor-agent",
    "gen_ai.conversation.id": result.session_id,
    "gen_ai.request.model": "GPT-5.3 Codex High",
    "gen_ai.usage.input_tokens": u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    "gen_ai.usage.output_tokens": u.outputTokens,
    "gen_ai.usage.cache_read.input_tokens": u.cacheReadTokens,
    "gen_ai.usage.cache_creation.input_tokens": u.cacheWriteTokens,
    "cursor.usage.input_tokens": u.inputTokens,
    "cursor.request.id": result.request_id,
    "cursor.cwd": "/home/dev/app",
    "cursor.permission_mode": "default",
    "cursor.result.subtype": "success",
    "cursor.duration_ms": result.duration_ms,
    "cursor.duration_api_ms": result.duration_api_ms,
    "cursor.tool_calls": 19,
    "cursor.log.file": LONG,
    "cursor.log.first_line": 1,
    "cursor.log.last_line": evs.length,
  });
  assert.equal(root.types["gen_ai.usage.input_tokens"], "int_value");
  assert.equal(root.types["gen_ai.conversation.id"], "string_value");
  assert.deepEqual(root.status, { code: 0, message: "" });
  // The run's start and end (model/run.ts): its first and last logged time. The result's
  // duration_ms is an attribute only (it starts before the first logged time: the init and user
  // events carry none), as the Chrome trace's run slice has it.
  const times = evs.flatMap((e) => [e.timestamp_ms, e.tool_call?.startedAtMs, e.tool_call?.completedAtMs]).filter((x) => x !== undefined).map(Number);
  assert.equal(root.end, ns(Math.max(...times)));
  assert.equal(root.start, ns(Math.min(...times)));
});

test("the root span starts and ends where the Chrome trace's run slice does, in every run (the model's Run.start/Run.end)", async () => {
  const paths = [LONG, `${F}/two-sessions.ndjson`, `${F}/timeline/clocks-and-ends.ndjson`, `${F}/stats/usage-runs.ndjson`, `${F}/export/background-mcp.ndjson`, `${F}/merged-stderr.ndjson`, `${F}/large-results.ndjson`];
  for (const path of paths) {
    const docs = await spansOf(["--allow-incomplete", path]);
    const r = await runCli(["export", "--format", "chrome-trace", "--allow-incomplete", path]);
    const slices = (JSON.parse(r.stdout) as { traceEvents: Ev[] }).traceEvents.filter((e) => e.ph === "X" && e.tid === 0);
    assert.equal(slices.length, docs.length, path);
    docs.forEach((spans, i) => {
      const root = spans[0]!;
      const s = slices[i]!;
      // A run without times is laid out in start order by each (no instants to agree on).
      if (root.attributes["cursor.time.unknown"] === true) return assert.equal(s.args.time_unknown, true);
      // Chrome trace times are µs.
      assert.deepEqual([root.start, root.end], [(BigInt(s.ts) * 1000n).toString(), (BigInt(s.ts + s.dur) * 1000n).toString()], `${path}: run ${i + 1}`);
    });
  }
});

test("one execute_tool span per call: exact call id, tool name and type, times from startedAtMs/completedAtMs", async () => {
  const [spans] = await spansOf([LONG]);
  const root = spans![0]!;
  const byId = new Map(spans!.filter((s) => s.name.startsWith("execute_tool ")).map((s) => [s.attributes["gen_ai.tool.call.id"], s]));
  const completed = events(LONG).filter((e) => e.type === "tool_call" && e.subtype === "completed");
  assert.equal(byId.size, completed.length);
  for (const e of completed) {
    const s = byId.get(e.call_id);
    assert.ok(s, `a span for ${JSON.stringify(e.call_id)}`);
    assert.equal(s.parentSpanId, root.spanId);
    const kind = Object.keys(e.tool_call).find((k) => k.endsWith("ToolCall"))!;
    const mcp = kind === "mcpToolCall";
    const name = mcp ? e.tool_call[kind].args.toolName : kind.slice(0, -"ToolCall".length);
    assert.equal(s.name, `execute_tool ${name}`);
    assert.equal(s.attributes["gen_ai.operation.name"], "execute_tool");
    assert.equal(s.attributes["gen_ai.tool.name"], name);
    assert.equal(s.attributes["gen_ai.tool.type"], mcp ? "extension" : "function");
    assert.equal(s.attributes["mcp.method.name"], mcp ? "tools/call" : undefined);
    assert.equal(s.start, ns(e.tool_call.startedAtMs));
    assert.equal(s.end, ns(e.tool_call.completedAtMs));
    const arm = Object.keys(e.tool_call[kind].result ?? {})[0];
    if (arm === "success") {
      assert.deepEqual(s.status, { code: 0, message: "" });
      assert.equal(s.attributes["error.type"], undefined);
    } else {
      assert.equal(s.status.code, 2, `${name} ${arm}: STATUS_CODE_ERROR`);
      assert.equal(s.attributes["error.type"], arm);
    }
    if (kind === "shellToolCall") {
      const r = e.tool_call[kind].result[arm];
      assert.equal(s.attributes["process.exit.code"], r.exitCode);
      assert.equal(s.types["process.exit.code"], "int_value");
    }
    // Without --include-content: no arguments, results or targets.
    for (const k of ["gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "cursor.tool.target"]) assert.equal(s.attributes[k], undefined, k);
  }
  const task = spans!.find((s) => s.name === "execute_tool task")!;
  const sub = spans!.find((s) => s.name === "invoke_agent subagent")!;
  assert.equal(sub.parentSpanId, task.spanId);
  assert.deepEqual([sub.start, sub.end], [task.start, task.end]);
  assert.equal(sub.attributes["gen_ai.agent.id"], "a1");
  assert.equal(sub.attributes["gen_ai.request.model"], "fast");
});

test("--include-content adds the arguments, results, prompt and answer, as the conventions name them", async () => {
  const [spans] = await spansOf(["--include-content", LONG]);
  const evs = events(LONG);
  const root = spans![0]!;
  assert.deepEqual(JSON.parse(root.attributes["gen_ai.input.messages"] as string), [
    { role: "user", parts: [{ type: "text", content: evs[1]!.message.content[0].text }] },
  ]);
  assert.deepEqual(JSON.parse(root.attributes["gen_ai.output.messages"] as string), [
    { role: "assistant", parts: [{ type: "text", content: evs.at(-1)!.result }] },
  ]);
  const read = spans!.find((s) => s.name === "execute_tool read")!;
  const done = evs.find((e) => e.type === "tool_call" && e.subtype === "completed" && e.tool_call.readToolCall)!;
  assert.deepEqual(JSON.parse(read.attributes["gen_ai.tool.call.arguments"] as string), done.tool_call.readToolCall.args);
  assert.deepEqual(JSON.parse(read.attributes["gen_ai.tool.call.result"] as string), done.tool_call.readToolCall.result.success);
  assert.equal(read.attributes["cursor.tool.target"], "src/sum.ts");
});

test("a large result is exported whole with --include-content (the input layer does not shorten it)", async () => {
  const path = `${F}/large-results.ndjson`;
  const docs = await spansOf(["--include-content", path]);
  const got = new Map(docs.flat().map((s) => [s.attributes["gen_ai.tool.call.id"], s.attributes["gen_ai.tool.call.result"]]));
  let checked = 0;
  for (const e of events(path)) {
    if (e.type !== "tool_call" || e.subtype !== "completed") continue;
    const kind = Object.keys(e.tool_call).find((k) => k.endsWith("ToolCall"))!;
    const [arm] = Object.keys(e.tool_call[kind].result);
    assert.equal(got.get(e.call_id), JSON.stringify(e.tool_call[kind].result[arm!]));
    checked++;
  }
  assert.ok(checked > 0);
});

test("ids: the same log gives the same trace, wherever the file is; runs and reused call ids get their own", async () => {
  const dir = tempDir("cursorlog-export-");
  const copy = join(dir, "renamed.ndjson");
  copyFileSync(LONG, copy);
  const a = await runCli(["export", LONG]);
  const b = await runCli(["export", copy]);
  const idsOf = (s: string) => [...s.matchAll(/"(traceId|spanId|parentSpanId)":"([0-9a-f]+)"/g)].map((m) => m[2]).join(" ");
  assert.equal(idsOf(a.stdout), idsOf(b.stdout));
  assert.equal(a.stdout, (await runCli(["export", LONG])).stdout, "byte for byte the same twice");

  const two = await spansOf([`${F}/two-sessions.ndjson`]);
  assert.notEqual(two[0]![0]!.traceId, two[1]![0]!.traceId, "two runs, two traces");

  // Kimi-style ids (Read_0) repeat across runs of one file, and could within one run: each call is its own span.
  const S = "5b0a2c1e-9d3f-4e7a-8b6c-1f2e3d4c5b6a";
  const read = (sub: string, ms: number) =>
    JSON.stringify({ type: "tool_call", subtype: sub, call_id: "Read_0", tool_call: { readToolCall: { args: { path: "a.txt" }, ...(sub === "completed" ? { result: { success: { content: "a" } } } : {}) } }, session_id: S, timestamp_ms: ms });
  const log = [read("started", 1000), read("completed", 1100), read("started", 1200), read("completed", 1300)].join("\n") + "\n";
  const r = await runCli(["export", "--allow-incomplete"], { stdin: log });
  const [spans] = decodeOtlpJson(r.stdout).map((d) => d.spans!);
  const tools = spans!.filter((s) => s.name === "execute_tool read");
  assert.deepEqual(tools.map((s) => s.attributes["gen_ai.tool.call.id"]), ["Read_0", "Read_0"]);
  assert.notEqual(tools[0]!.spanId, tools[1]!.spanId);
  const across = await spansOf(["--allow-incomplete", `${F}/filter/reused-call-ids.ndjson`]);
  assert.notEqual(across[0]![1]!.spanId, across[1]![1]!.spanId, "Read_0 of two runs: two traces, two spans");
});

test("a run without result: error status, error.type=incomplete, its open call runs to the run's end", async () => {
  const r = await runCli(["export", `${F}/crash-no-result.ndjson`]);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /crash-no-result\.ndjson:9\): session .* has no result/);
  const [spans] = decodeOtlpJson(r.stdout).map((d) => d.spans!);
  const root = spans![0]!;
  assert.equal(root.status.code, 2);
  assert.equal(root.attributes["error.type"], "incomplete");
  const open = spans!.find((s) => s.attributes["cursor.tool.status"] === "incomplete")!;
  assert.equal(open.status.code, 2);
  assert.equal(open.attributes["error.type"], "incomplete");
  assert.equal(open.end, root.end);
  assert.equal((await runCli(["export", "--allow-incomplete", `${F}/crash-no-result.ndjson`])).code, 0);
});

test("a log without times (2025): spans at the Unix epoch, zero-length, in start order, marked, never given durations", async () => {
  const [spans] = await spansOf(["--allow-incomplete", `${F}/timeline/no-timestamps-2025.ndjson`]);
  const [root, ...calls] = spans!;
  assert.equal(root!.attributes["cursor.time.unknown"], true);
  assert.equal(root!.start, "0");
  calls.forEach((s, i) => {
    assert.equal(s.start, String(i + 1), "1 ns apart in start order");
    assert.equal(s.end, s.start, "zero-length");
  });
  assert.ok(BigInt(root!.end) >= BigInt(calls.at(-1)!.end));
});

test("background shells: a background_shell span from the launch to its task_notification (or the run's end)", async () => {
  const [spans] = await spansOf([`${F}/export/background-mcp.ndjson`]);
  const root = spans![0]!;
  const bg = spans!.filter((s) => s.name === "background_shell");
  assert.equal(bg.length, 2);
  const [dev, watch] = bg;
  const parentOf = (s: DecodedSpan) => spans!.find((p) => p.spanId === s.parentSpanId)!;
  assert.equal(parentOf(dev!).attributes["cursor.shell.id"], "4");
  assert.equal(dev!.start, ns(1767300001600));
  assert.equal(dev!.end, ns(1767300009600), "ends at the task_notification");
  assert.equal(dev!.attributes["cursor.background.status"], "success");
  assert.equal(watch!.attributes["cursor.background.finished"], false);
  assert.equal(watch!.end, root.end, "no notification: runs to the run's end");
  const mcp = spans!.find((s) => s.attributes["mcp.method.name"] === "tools/call")!;
  assert.equal(mcp.name, "execute_tool get_status");
  assert.equal(mcp.attributes["cursor.mcp.server"], "ci");
  assert.equal(mcp.attributes["error.type"], "error");
  assert.deepEqual(mcp.status, { code: 2, message: "error: server ci is not connected" });
});

test("on a terminal, C1 controls and bidi characters are \\u escapes: the same JSON, nothing raw", async () => {
  const hostile = `${F}/hostile.ndjson`;
  const tty = await runCli(["export", "--include-content", hostile], { stdoutIsTTY: true });
  const pipe = await runCli(["export", "--include-content", hostile]);
  assert.doesNotMatch(tty.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  assert.match(pipe.stdout, /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/, "the fixture has some");
  assert.deepEqual(tty.stdout.trim().split("\n").map((l) => JSON.parse(l)), pipe.stdout.trim().split("\n").map((l) => JSON.parse(l)));
});

test("--service-name, then OTEL_SERVICE_NAME, name the resource", async () => {
  const a = await runCli(["export", "--service-name", "ci-agent", LONG]);
  assert.match(a.stdout, /"service.name","value":\{"stringValue":"ci-agent"\}/);
  const b = await runCli(["export", LONG], { env: { TZ: "UTC", NO_COLOR: "1", OTEL_SERVICE_NAME: "nightly" } });
  assert.match(b.stdout, /"service.name","value":\{"stringValue":"nightly"\}/);
});

test("usage errors: chrome-trace with sending options, --protocol without a destination, bad URLs, gRPC", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["export", "--format", "chrome-trace", "--endpoint", "http://localhost:4318", LONG], /--endpoint cannot be used with --format chrome-trace/],
    [["export", "--format", "chrome-trace", "--include-content", LONG], /--include-content cannot be used with --format chrome-trace/],
    [["export", "--protocol", "http/json", LONG], /--protocol needs --endpoint or --send/],
    [["export", "--endpoint", "localhost:4318", LONG], /expected an http:\/\/ or https:\/\/ URL/],
    [["export", "--endpoint", "http://a", "--send", LONG], /--endpoint and --send cannot be used together/],
    [["export", "--header", "novalue", "--send", LONG], /expected NAME=VALUE/],
  ];
  for (const [argv, re] of cases) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, argv.join(" "));
    assert.match(r.stderr, re);
    assert.equal(r.stdout, "");
  }
  const grpc = await runCli(["export", "--send", LONG], { env: { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" } });
  assert.equal(grpc.code, 2);
  assert.match(grpc.stderr, /gRPC is not supported: use http\/protobuf/);
});

test("thinking lines count for their time, whether read from their bytes or parsed (timestamp_ms not last)", async () => {
  const S = "5b0a2c1e-9d3f-4e7a-8b6c-1f2e3d4c5b6a";
  const lines = (first: string) =>
    [
      JSON.stringify({ type: "system", subtype: "init", session_id: S, model: "Auto" }),
      first,
      JSON.stringify({ type: "thinking", subtype: "completed", session_id: S, timestamp_ms: 5000 }),
      JSON.stringify({ type: "result", subtype: "success", duration_ms: 100, is_error: false, result: "", session_id: S, request_id: "r" }),
    ].join("\n") + "\n";
  const asWritten = lines(JSON.stringify({ type: "thinking", subtype: "delta", text: "x".repeat(3000), session_id: S, timestamp_ms: 1000 }));
  const reordered = lines(JSON.stringify({ type: "thinking", timestamp_ms: 1000, subtype: "delta", text: "x".repeat(3000), session_id: S }));
  for (const log of [asWritten, reordered]) {
    const r = await runCli(["export"], { stdin: log });
    const [spans] = decodeOtlpJson(r.stdout).map((d) => d.spans!);
    assert.deepEqual([spans![0]!.start, spans![0]!.end], [ns(1000), ns(5000)]);
  }
  // A cut thinking line is still reported at its line.
  const cut = lines('{"type":"thinking","subtype":"delta","text":"abc","session_id":"' + S + '","timestamp_ms":10');
  const bad = await runCli(["export"], { stdin: cut.replace('"timestamp_ms":10\n', '"timestamp_ms":10') });
  assert.equal(bad.code, 5, bad.stderr);
  assert.match(bad.stderr, /<stdin>:2/);
});

test("a completion that logs no arguments: its start's are exported whole (not the few the run keeps of an open call, cut)", async () => {
  const S = "6c1b3d2e-0a4f-4b8c-9d7e-2f3e4d5c6b7a";
  const command = "echo " + "y".repeat(300);
  const log =
    [
      JSON.stringify({ type: "system", subtype: "init", session_id: S, model: "Auto" }),
      JSON.stringify({ type: "tool_call", subtype: "started", call_id: "c1", tool_call: { shellToolCall: { args: { command, timeout: 5 } }, startedAtMs: "1000" }, session_id: S, timestamp_ms: 1000 }),
      JSON.stringify({ type: "tool_call", subtype: "completed", call_id: "c1", tool_call: { shellToolCall: { result: { success: { exitCode: 0 } } }, startedAtMs: "1000", completedAtMs: "1500" }, session_id: S, timestamp_ms: 1500 }),
      JSON.stringify({ type: "result", subtype: "success", duration_ms: 600, is_error: false, result: "", session_id: S, request_id: "r" }),
    ].join("\n") + "\n";
  const r = await runCli(["export", "--include-content"], { stdin: log });
  assert.equal(r.code, 0, r.stderr);
  const [spans] = decodeOtlpJson(r.stdout).map((d) => d.spans!);
  const call = spans!.find((s) => s.name === "execute_tool shell")!;
  assert.equal(call.attributes["gen_ai.tool.call.arguments"], JSON.stringify({ command, timeout: 5 }));
  assert.equal(call.attributes["cursor.tool.target"], command);
  assert.deepEqual([call.start, call.end], [ns(1000), ns(1500)]);
});

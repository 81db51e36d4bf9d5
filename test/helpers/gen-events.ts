import fc from "fast-check";
import { binaryString } from "./binary-unit.js";

// fast-check arbitraries for cursor-agent stream-json logs, built from the shapes in
// /work/shared/FORMAT.md: every event type and era, the tool kinds and their result arms, parallel
// calls completing out of order, completions without a start (and starts without a completion),
// --stream-partial-output repetitions, newline call ids, sessions without a result, resumed runs,
// unknown events, and text that is hard on a converter (multi-byte UTF-8, escape sequences, CR/LF
// inside values, formula-looking cells, __proto__ keys). Each line is JSON.stringify(event), as the
// real CLI writes it; the layout (CRLF, BOM, blank lines, no final newline, a pretty-printed value)
// varies on top.

export type Ev = Record<string, unknown>;

/** A generated log: its events in file order and the bytes of the file. */
export interface GenLog {
  events: Ev[];
  bytes: Buffer;
}

/** Pieces of hostile text: terminal escapes (OSC, CSI, BEL, 8-bit CSI), bidi overrides, CR/LF, formula starts. */
export const HOSTILE_PIECES = [
  "\u001b]0;pwned\u0007",
  "\u001b]8;;http://evil.example/\u001b\\link\u001b]8;;\u001b\\",
  "\u001b[2J",
  "\u001b[31m",
  "\u001b[1A\u001b[K",
  "\u0007",
  "\u009b2J",
  "\u009d0;title\u009c",
  "\u202e",
  "\u2066",
  "\u0000",
  "\u007f",
  "\r",
  "\n",
  "\r\n",
  "\t",
  "\b",
];

const PIECES = [
  ...HOSTILE_PIECES,
  "a",
  "npm test",
  "src/sum.ts",
  " ",
  "é",
  "日本語",
  "😀",
  "\u2028",
  '"',
  "\\",
  ",",
  "=HYPERLINK(\"http://x\")",
  "+1",
  "-2",
  "@SUM(A1)",
  "__proto__",
  "constructor",
  "\ud800",
];

/** Short text that mixes plain words, multi-byte characters and hostile pieces. */
export const logText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: binaryString({ maxLength: 6 }) }), {
    maxLength: 6,
  })
  .map((parts) => parts.join(""));

const KINDS = [
  "shell",
  "read",
  "edit",
  "write",
  "delete",
  "grep",
  "glob",
  "ls",
  "updateTodos",
  "mcp",
  "webFetch",
  "task",
  "await",
  "semSearch",
  "readLints",
  "webSearch",
  "futureGizmo",
  "constructor",
] as const;
type Kind = (typeof KINDS)[number];

const ARMS = ["success", "failure", "rejected", "error", "timeout", "permissionDenied", "readPermissionDenied", "spawnError"] as const;

interface CallSpec {
  kind: Kind;
  arm: (typeof ARMS)[number];
  text: string;
  /** Which of the call's events appear. */
  shape: "both" | "started" | "completed";
  /** The completed event repeats the args (it may omit them, FORMAT.md §5.3). */
  completedArgs: boolean;
  envelope: "keyed" | "keyed" | "function" | "case";
  exitCode: number;
  duration: number;
}

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  kind: fc.constantFrom(...KINDS),
  arm: fc.constantFrom(...ARMS),
  text: logText,
  shape: fc.constantFrom("both", "both", "both", "both", "started", "completed"),
  completedArgs: fc.boolean(),
  envelope: fc.constantFrom("keyed", "keyed", "keyed", "keyed", "function", "case"),
  exitCode: fc.integer({ min: 1, max: 255 }),
  duration: fc.nat({ max: 5000 }),
});

interface RoundSpec {
  thinking: string[];
  /** Mid-turn assistant text before the calls (with model_call_id). */
  mid: string | undefined;
  calls: CallSpec[];
  /** Seed for the order the calls complete in (parallel calls finish by time, not start order). */
  order: number;
  extras: Ev[];
}

/** Events of the types that appear only on some runs, and events of types nobody knows yet. */
const extraEvent: fc.Arbitrary<Ev> = fc.oneof(
  fc.constant<Ev>({ type: "interaction_query", subtype: "request", query_type: "webSearchRequestQuery", query: { id: 1, webSearchRequestQuery: { args: { searchTerm: "q", toolCallId: "ws1" } } } }),
  fc.constant<Ev>({ type: "interaction_query", subtype: "response", query_type: "shellRequestQuery", response: { id: 2, shellRequestResponse: { rejected: { reason: "no" } } } }),
  fc.constant<Ev>({ type: "connection", subtype: "reconnecting", attempt: 1, endpoint_url: "https://api2.cursor.sh" }),
  fc.constant<Ev>({ type: "connection", subtype: "reconnected", attempt: 1 }),
  fc.constant<Ev>({ type: "retry", subtype: "starting", attempt: 2, is_resume: false }),
  fc.constant<Ev>({ type: "retry", subtype: "resuming", attempt: 2, checkpoint_turn_count: 3 }),
  logText.map((title): Ev => ({ type: "system", subtype: "task_notification", task_id: "7", status: "success", title })),
  fc.constant<Ev>({ type: "tool_call", subtype: "progress", call_id: "p1", tool_call: {} }),
  fc.jsonValue({ maxDepth: 3 }).map((payload): Ev => ({ type: "hologram", subtype: "projected", payload, ...protoKeys() })),
);

/** Own `__proto__` and `constructor` keys, as JSON.parse makes them. */
function protoKeys(): Ev {
  return JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as Ev;
}

const roundSpec: fc.Arbitrary<RoundSpec> = fc.record({
  thinking: fc.array(logText, { maxLength: 3 }),
  mid: fc.option(logText, { nil: undefined }),
  calls: fc.array(callSpec, { minLength: 1, maxLength: 3 }),
  order: fc.nat(),
  extras: fc.array(extraEvent, { maxLength: 2 }),
});

export interface SessionSpec {
  era: 2025 | 2026;
  sessionId: string;
  requestId: string;
  model: string;
  prompt: string;
  rounds: RoundSpec[];
  /** --stream-partial-output: the final message comes as deltas first, then consolidated. */
  partial: boolean;
  final: string;
  end: "success" | "error" | "is_error_success" | "none";
  usage: boolean;
  /** A result that carries unknown fields, __proto__ among them. */
  oddResult: boolean;
  idStyle: "openai" | "uuid" | "toolu" | "kimi";
}

export const sessionSpec: fc.Arbitrary<SessionSpec> = fc.record({
  era: fc.constantFrom<2025 | 2026>(2025, 2026, 2026),
  sessionId: fc.uuid(),
  requestId: fc.uuid(),
  model: fc.constantFrom("Auto", "Claude 4.5 Sonnet", "GPT-5.3 Codex High", "Kimi K2.7 Code"),
  prompt: logText,
  rounds: fc.array(roundSpec, { maxLength: 4 }),
  partial: fc.boolean(),
  final: logText,
  end: fc.constantFrom("success", "success", "success", "error", "is_error_success", "none"),
  usage: fc.boolean(),
  oddResult: fc.boolean(),
  idStyle: fc.constantFrom("openai", "uuid", "toolu", "kimi"),
});

function callId(style: SessionSpec["idStyle"], uuid: string, round: number, n: number, kind: string): string {
  switch (style) {
    case "openai":
      return `call_${String(round * 10 + n).padStart(24, "x")}\nfc_0${round}${n}a9`;
    case "uuid":
      return `call-${uuid}-${n}\nfc_${uuid}_${round}`;
    case "toolu":
      return `toolu_vrtx_01${round}${n}Ke8WTcbHT5Hy2rLzFpjZVr`;
    default:
      return `${kind[0]!.toUpperCase()}${kind.slice(1)}_${round * 10 + n}`;
  }
}

/** The args and the result arm's value of one call. */
function callBody(spec: CallSpec, id: string): { args: Ev; arm: string; value: Ev } {
  const t = spec.text;
  const p = `src/${t}.ts`;
  let args: Ev;
  let success: Ev;
  switch (spec.kind) {
    case "shell":
      args = { command: t, workingDirectory: "/home/dev/app", timeout: 120000, toolCallId: id, simpleCommands: [t], hasInputRedirect: false, hasOutputRedirect: false, isBackground: false, fileOutputThresholdBytes: "40000" };
      success = { command: t, workingDirectory: "/home/dev/app", exitCode: 0, signal: "", stdout: t, stderr: "", executionTime: spec.duration, interleavedOutput: t };
      if (spec.arm === "failure") return { args, arm: "failure", value: { ...success, exitCode: spec.exitCode, aborted: false } };
      if (spec.arm === "rejected") return { args, arm: "rejected", value: { command: t, workingDirectory: "/home/dev/app", reason: t, isReadonly: false } };
      break;
    case "read":
      args = { path: p };
      success = { content: t, isEmpty: t === "", exceededLimit: false, totalLines: 1, fileSize: t.length, path: `/home/dev/app/${p}`, readRange: { startLine: 1, endLine: 1 }, relatedCursorRulePaths: [], relatedCursorRules: [] };
      if (spec.arm === "error") return { args, arm: "error", value: { errorMessage: t } };
      break;
    case "edit":
      args = { path: p, streamContent: t };
      success = spec.duration % 2 === 0
        ? { path: p, linesAdded: 1, linesRemoved: 0, diffString: `--- /dev/null\n+++ b/${p}\n+${t}\n`, afterFullFileContent: t, message: `Wrote contents to ${p}` }
        : { path: p, linesAdded: 1, linesRemoved: 1, diffString: `--- a/${p}\n+++ b/${p}\n-x\n+${t}\n`, beforeFullFileContent: "x", afterFullFileContent: t, message: `The file ${p} has been updated.` };
      if (spec.arm === "error") return { args, arm: "error", value: { path: "", error: t, modelVisibleError: t } };
      break;
    case "write":
      args = { path: p, fileText: t, toolCallId: id };
      success = { path: p, linesCreated: 1, fileSize: t.length };
      break;
    case "delete":
      args = { path: p, toolCallId: id };
      success = { path: p, deletedFile: p, fileSize: "12", prevContent: t };
      break;
    case "grep":
      args = { pattern: t, path: "src", outputMode: "content", caseInsensitive: false, multiline: false, toolCallId: id, offset: 0 };
      success = { pattern: t, path: "src", outputMode: "content", workspaceResults: { "/home/dev/app": { content: { matches: [{ file: p, matches: [{ lineNumber: 1, content: t, contentTruncated: false, isContextLine: false }] }], totalLines: 1, totalMatchedLines: 1, clientTruncated: false, ripgrepTruncated: false } } } };
      break;
    case "glob":
      args = { targetDirectory: "src", globPattern: t, toolCallId: id };
      success = { pattern: t, path: "src", files: [p], totalFiles: 1, clientTruncated: false, ripgrepTruncated: false };
      break;
    case "ls":
      args = { path: t, ignore: [], toolCallId: id };
      success = { directoryTreeRoot: { absPath: t, childrenDirs: [], childrenFiles: [{ name: t }], childrenWereProcessed: true, fullSubtreeExtensionCounts: {}, numFiles: 1 } };
      break;
    case "updateTodos":
      args = { todos: [{ id: "1", content: t, status: "TODO_STATUS_PENDING", createdAt: "1", updatedAt: "1", dependencies: [] }], merge: false };
      success = { todos: [], totalCount: 1, wasMerge: false };
      break;
    case "mcp":
      args = { name: `github-${t}`, args: protoKeys(), toolCallId: id, providerIdentifier: "github", toolName: t, smartModeApprovalOnly: false, skipApproval: true, serverIdentifier: "github" };
      success = { content: [{ text: { text: t } }], isError: false, systemReminders: [] };
      break;
    case "webFetch":
      args = { url: `https://example.com/${t}`, toolCallId: id };
      success = { url: `https://example.com/${t}`, markdown: t };
      break;
    case "task":
      args = { description: t, prompt: t, subagentType: { unspecified: {} }, model: "fast", agentId: "a1", attachments: [], mode: "agent" };
      success = { conversationSteps: [{ assistantMessage: { text: t } }], agentId: "a1", isBackground: false, durationMs: String(spec.duration), backgroundReason: "" };
      break;
    case "await":
      args = { taskId: t, blockUntilMs: 30000 };
      success = { complete: { taskId: t, runtimeMs: String(spec.duration), outputFilePath: "/tmp/t", outputLength: "1", regexRequested: false, exitCode: 0 } };
      break;
    case "semSearch":
      args = { query: t, targetDirectories: [], explanation: "" };
      success = { results: `<search_result path="${p}">${t}</search_result>` };
      break;
    case "readLints":
      args = { paths: [p, t] };
      success = { fileDiagnostics: [], totalFiles: 2, totalDiagnostics: 0 };
      break;
    case "webSearch":
      args = { searchTerm: t, toolCallId: id };
      success = { references: [] };
      break;
    default:
      args = { path: t, ...protoKeys() };
      success = {};
  }
  if (spec.arm === "success" || spec.arm === "failure" || spec.arm === "rejected") return { args, arm: "success", value: success };
  if (spec.arm === "error") return { args, arm: "error", value: { error: t } };
  return { args, arm: spec.arm, value: spec.arm === "readPermissionDenied" ? { path: p } : { command: t, error: t } };
}

/** The `tool_call` payload of one event, in the envelope the spec asks for. */
function envelope(spec: CallSpec, tool: string, body: Ev, meta: Ev): Ev {
  if (spec.envelope === "function") {
    const fn: Ev = { name: tool, arguments: JSON.stringify(body.args ?? {}) };
    if (body.result !== undefined) fn.result = body.result;
    return { function: fn };
  }
  if (spec.envelope === "case") {
    const value: Ev = { ...body };
    if (body.result !== undefined) {
      const [arm, v] = Object.entries(body.result as Ev)[0]!;
      value.result = { result: { case: arm, value: v } };
    }
    return { tool: { case: tool, value } };
  }
  return { [tool]: body, ...meta };
}

/** Turns a session spec into its events, on a clock that starts at `t0`. */
export function sessionEvents(s: SessionSpec, t0: number, withInit = true): Ev[] {
  let t = t0;
  const tick = (d = 37) => (t += d);
  const is26 = s.era === 2026;
  const sid = s.sessionId;
  const mc = (n: number) => `${s.requestId}-${n}-ab1z`;
  const out: Ev[] = [];
  const push = (e: Ev, time = is26) => out.push(time ? { ...e, session_id: sid, timestamp_ms: tick() } : { ...e, session_id: sid });
  if (withInit) out.push({ type: "system", subtype: "init", apiKeySource: "login", cwd: "/home/dev/app", session_id: sid, model: s.model, permissionMode: "default" });
  out.push({ type: "user", message: { role: "user", content: [{ type: "text", text: s.prompt }] }, session_id: sid });
  let assistantText = "";
  s.rounds.forEach((r, ri) => {
    if (is26) {
      for (const text of r.thinking) push({ type: "thinking", subtype: "delta", text });
      if (r.thinking.length > 0) push({ type: "thinking", subtype: "completed" });
    }
    if (r.mid !== undefined) {
      assistantText += r.mid;
      const e: Ev = { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: r.mid }] } };
      if (is26) e.model_call_id = mc(ri);
      push(e);
    }
    const calls = r.calls.map((spec, n) => {
      const id = callId(s.idStyle, s.sessionId, ri, n, spec.kind);
      const tool = spec.envelope === "function" ? spec.kind : `${spec.kind}ToolCall`;
      return { spec, id, tool, body: callBody(spec, id) };
    });
    const startedAt = t;
    for (const c of calls) {
      if (c.spec.shape === "completed") continue;
      const meta: Ev = is26 ? { hookAdditionalContexts: [], toolCallId: c.id, startedAtMs: String(startedAt) } : {};
      const e: Ev = { type: "tool_call", subtype: "started", call_id: c.id, tool_call: envelope(c.spec, c.tool, { args: c.body.args }, meta) };
      if (is26) e.model_call_id = mc(ri);
      push(e);
    }
    for (const e of r.extras) push(e);
    // Completions in an order of their own: by a rotation and maybe a reversal of the start order.
    const order = calls.map((_, i) => (i + r.order) % calls.length);
    if (r.order % 2 === 1) order.reverse();
    for (const i of order) {
      const c = calls[i]!;
      if (c.spec.shape === "started") continue;
      const body: Ev = { result: { [c.body.arm]: c.body.value } };
      if (c.spec.completedArgs || c.spec.shape === "completed") body.args = c.body.args;
      const meta: Ev = is26 ? { hookAdditionalContexts: [], toolCallId: c.id, startedAtMs: String(startedAt), completedAtMs: String(startedAt + c.spec.duration) } : {};
      const e: Ev = { type: "tool_call", subtype: "completed", call_id: c.id, tool_call: envelope(c.spec, c.tool, { args: body.args, result: body.result }, meta) };
      if (is26) e.model_call_id = mc(ri);
      push(e);
    }
  });
  if (s.partial && is26) {
    const half = Math.ceil(s.final.length / 2);
    for (const piece of [s.final.slice(0, half), s.final.slice(half)]) push({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: piece }] } });
  }
  assistantText += s.final;
  out.push({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: s.final }] }, session_id: sid });
  if (s.end !== "none") {
    const error = s.end !== "success";
    const result: Ev = {
      type: "result",
      subtype: s.end === "error" ? "error" : "success",
      duration_ms: t - t0,
      duration_api_ms: t - t0,
      is_error: error,
      result: assistantText,
      session_id: sid,
      request_id: s.requestId,
    };
    if (s.usage) result.usage = { inputTokens: 5120, outputTokens: 734, cacheReadTokens: 20480, cacheWriteTokens: 1024 };
    out.push(s.oddResult ? { ...result, ...protoKeys(), extra_future: s.final } : result);
  }
  return out;
}

export interface Layout {
  crlf: boolean;
  bom: boolean;
  finalNewline: boolean;
  /** Blank or white-space lines inserted before these event indexes (modulo the event count). */
  blanks: number[];
  /** Events written pretty-printed over several lines (jq . output), by index modulo the count. */
  pretty: number[];
}

export const layout: fc.Arbitrary<Layout> = fc.record({
  crlf: fc.boolean(),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
  blanks: fc.array(fc.nat(), { maxLength: 2 }),
  pretty: fc.array(fc.nat(), { maxLength: 1 }),
});

/** The bytes of a log: one JSON.stringify per event, laid out as `l` says. */
export function serialize(events: readonly Ev[], l: Layout = { crlf: false, bom: false, finalNewline: true, blanks: [], pretty: [] }): Buffer {
  const eol = l.crlf ? "\r\n" : "\n";
  const blanks = new Set(l.blanks.map((i) => (events.length === 0 ? 0 : i % events.length)));
  const pretty = new Set(l.pretty.map((i) => (events.length === 0 ? 0 : i % events.length)));
  const lines: string[] = [];
  events.forEach((e, i) => {
    if (blanks.has(i)) lines.push(i % 2 === 0 ? "" : "   ");
    lines.push(pretty.has(i) ? JSON.stringify(e, null, 2).replace(/\n/g, eol) : JSON.stringify(e));
  });
  let text = lines.join(eol);
  if (l.finalNewline && lines.length > 0) text += eol;
  return Buffer.from((l.bom ? "\ufeff" : "") + text, "utf8");
}

export interface LogOptions {
  maxSessions?: number;
  /** Allow the layout variations (CRLF, BOM, blank lines, pretty-printed values). Default true. */
  layouts?: boolean;
}

/**
 * A whole log: 1 to `maxSessions` sessions, some resumed (same session_id), the first maybe
 * without its init (a log cut at the front), the others maybe with events before their init.
 */
export function genLog(opts: LogOptions = {}): fc.Arbitrary<GenLog> {
  return fc
    .record({
      sessions: fc.array(sessionSpec, { minLength: 1, maxLength: opts.maxSessions ?? 3 }),
      resume: fc.boolean(),
      noFirstInit: fc.boolean(),
      layout: opts.layouts === false ? fc.constant<Layout>({ crlf: false, bom: false, finalNewline: true, blanks: [], pretty: [] }) : layout,
    })
    .map(({ sessions, resume, noFirstInit, layout: l }) => {
      const events: Ev[] = [];
      let t0 = 1767225600000;
      sessions.forEach((s, i) => {
        const spec = resume && i === 1 ? { ...s, sessionId: sessions[0]!.sessionId } : s;
        const evs = sessionEvents(spec, t0, i === 0 && noFirstInit ? false : true);
        events.push(...evs);
        t0 += 3_600_000;
      });
      const bytes = serialize(events, l);
      // Counterexamples print as the log's text, not as an array of byte values.
      return { events, bytes, [fc.toStringMethod]: () => `log(${JSON.stringify(bytes.toString("utf8"))})` };
    });
}

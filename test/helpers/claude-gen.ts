import fc from "fast-check";
import * as C from "./claude-events.js";
import { layout as anyLayout, logText, serialize, type GenLog, type Layout } from "./gen-events.js";

// fast-check arbitraries for Claude Code stream-json logs (`claude -p --output-format stream-json
// --verbose`), built from the shapes of /work/shared/AGENTS.md §1 with the line builders of
// claude-events.ts: both eras (2.1.15: one assistant line holding a message's text and several
// tool_use blocks, one user line holding their tool_results, no times, user lines without uuid;
// 2.1.28x: one assistant line per block with an ISO timestamp, one user line per result with its
// tool_use_result), hook and commands_changed lines before init, every tool of §1.3 and one
// unknown, results out of order, failures (`Exit code N`, `<tool_use_error>`), denials
// (permission_denied + tool_result_meta + permission_denials), calls never answered, results
// without a call, a tool_use id started twice, a subagent's own calls (parent_tool_use_id),
// background shells whose end comes after the result, partial-message stream_events, rate limit
// and thinking_tokens lines, results that fail with `success` (is_error) and max turns, runs cut
// off, a second run after a result (a new turn, or a resumed session), and an unknown line type.
// Lines are JSON.stringify(event), as Claude Code writes them; the layout (CRLF, BOM, blank lines,
// no final newline, a pretty-printed value) varies on top (gen-events.ts serialize).

export type Ev = C.Ev;

/** Plain text that is hard on a converter's bytes but not hostile: multi-byte UTF-8, quotes, escapes, tabs, newlines. */
export const plainText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom("a", "make test", "src/app.ts", " ", "é", "日本語", "😀", "👩‍💻", '"', "\\", "\n", "\t", ",", "ok", "naïve", "Ω"), { maxLength: 5 })
  .map((p) => p.join(""));

const TOOLS = ["Bash", "Read", "Edit", "Write", "Grep", "Glob", "WebFetch", "WebSearch", "mcp__linear__list_issues", "TodoWrite", "TaskCreate", "Skill", "FutureGizmo"] as const;
type Tool = (typeof TOOLS)[number];

/** How a call ends. */
const OUTCOMES = ["ok", "ok", "ok", "failed", "tool_error", "denied", "open", "twice", "restart"] as const;

interface CallSpec {
  tool: Tool;
  outcome: (typeof OUTCOMES)[number];
  text: string;
  exit: number;
  /** A Bash call run in the background (its end told by task lines, maybe after the result). */
  background: boolean;
}

interface TurnSpec {
  thinking: string | undefined;
  said: string | undefined;
  calls: CallSpec[];
  /** The results come in an order of their own: a rotation, and a reversal when odd. */
  order: number;
  /** A subagent (an Agent call) whose own calls come before its result. */
  subagent: { description: string; calls: CallSpec[] } | undefined;
  /** A tool_result answering no call of the run. */
  orphan: boolean;
  extras: Array<"rate" | "thinking_tokens" | "stream" | "progress" | "unknown" | "api_retry" | "compact">;
}

export interface RunSpec {
  era: "early" | "late";
  hooks: boolean;
  prompt: string | undefined;
  turns: TurnSpec[];
  end: "success" | "api_error" | "max_turns" | "none";
  final: string;
  /** The next run continues this run's session (a resumed session: its hook_started says `resume`). */
  resume: boolean;
}

const callSpec = (text: fc.Arbitrary<string>): fc.Arbitrary<CallSpec> =>
  fc.record({
    tool: fc.constantFrom(...TOOLS),
    outcome: fc.constantFrom(...OUTCOMES),
    text,
    exit: fc.integer({ min: 1, max: 255 }),
    background: fc.boolean(),
  });

const turnSpec = (text: fc.Arbitrary<string>): fc.Arbitrary<TurnSpec> =>
  fc.record({
    thinking: fc.option(text, { nil: undefined }),
    said: fc.option(text, { nil: undefined }),
    calls: fc.array(callSpec(text), { maxLength: 3 }),
    order: fc.nat(),
    subagent: fc.option(fc.record({ description: text, calls: fc.array(callSpec(text), { minLength: 1, maxLength: 2 }) }), { nil: undefined, freq: 4 }),
    orphan: fc.boolean(),
    extras: fc.array(fc.constantFrom("rate", "thinking_tokens", "stream", "progress", "unknown", "api_retry", "compact"), { maxLength: 2 }),
  });

const runSpec = (text: fc.Arbitrary<string>): fc.Arbitrary<RunSpec> =>
  fc.record({
    era: fc.constantFrom<"early" | "late">("early", "late", "late"),
    hooks: fc.boolean(),
    prompt: fc.option(text, { nil: undefined, freq: 3 }),
    turns: fc.array(turnSpec(text), { minLength: 1, maxLength: 3 }),
    end: fc.constantFrom<RunSpec["end"]>("success", "success", "success", "api_error", "max_turns", "none"),
    final: text,
    resume: fc.boolean(),
  });

/** The `input` of a call of `tool` built from `t`. */
function inputOf(tool: Tool, t: string, background: boolean): Ev {
  const path = `/home/dev/app/src/${t}.ts`;
  switch (tool) {
    case "Bash":
      return background ? { command: `sleep 5; ${t}`, description: t, run_in_background: true } : { command: t, description: t };
    case "Read":
      return { file_path: path };
    case "Edit":
      return { file_path: path, old_string: "a", new_string: t, replace_all: false };
    case "Write":
      return { file_path: path, content: `${t}\n` };
    case "Grep":
      return { pattern: t, path: "src", output_mode: "content" };
    case "Glob":
      return { pattern: `**/${t}*.ts` };
    case "WebFetch":
      return { url: `https://example.com/${t}`, prompt: t };
    case "WebSearch":
      return { query: t };
    case "mcp__linear__list_issues":
      return { query: t, limit: 5 };
    case "TodoWrite":
      return { todos: [{ content: t, status: "pending", activeForm: t }] };
    case "TaskCreate":
      return { subject: t, description: t };
    case "Skill":
      return { skill: t };
    default:
      // Own keys named like Object.prototype's (a computed key is an own property, never the prototype).
      return { path: t, ["__proto__"]: { polluted: t }, constructor: t };
  }
}

/** What a successful call's line carries: its tool_result `content` and its `tool_use_result` (undefined: none, as Grep's). */
function successOf(tool: Tool, t: string, input: Ev, taskId: string | undefined): { content: string | Ev[]; result: unknown } {
  switch (tool) {
    case "Bash":
      if (taskId !== undefined) return { content: `Command running in background with ID: ${taskId}. Output is being written to: /tmp/tasks/${taskId}.output`, result: C.bashResult("", { backgroundTaskId: taskId }) };
      return { content: t, result: C.bashResult(t) };
    case "Read":
      return { content: `1\t${t}`, result: { type: "text", file: { filePath: input.file_path, content: t, numLines: 1, startLine: 1, totalLines: 1 } } };
    case "Edit":
      return {
        content: `The file ${String(input.file_path)} has been updated.`,
        result: { filePath: input.file_path, oldString: "a", newString: t, originalFile: "a\n", structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-a", `+${t}`] }], userModified: false, replaceAll: false },
      };
    case "Write":
      return { content: `File created successfully at: ${String(input.file_path)}`, result: { type: "create", filePath: input.file_path, content: input.content, structuredPatch: [], originalFile: null, userModified: false } };
    case "Grep":
      return { content: `src/a.ts:1:${t}`, result: undefined };
    case "Glob":
      return { content: "src/a.ts", result: { filenames: ["src/a.ts"], durationMs: 3, numFiles: 1, truncated: false } };
    case "WebFetch":
      return { content: t, result: { bytes: t.length, code: 200, codeText: "OK", result: t, durationMs: 120, url: input.url } };
    case "WebSearch":
      return { content: t, result: { query: t, results: [{ tool_use_id: "srvtoolu_01", content: [{ title: t, url: "https://example.com" }] }, t], durationSeconds: 1.25, searchCount: 1 } };
    case "mcp__linear__list_issues": {
      const blocks = [C.text(t)];
      return { content: blocks, result: blocks };
    }
    case "TodoWrite":
      return { content: "Todos have been modified successfully.", result: { oldTodos: [], newTodos: input.todos } };
    default:
      return { content: t, result: { [t]: t, ["__proto__"]: { x: t } } };
  }
}

/** Builds the events of one log from its runs' specs (deterministic; ids unique within the log). */
export function claudeEvents(runs: readonly RunSpec[], sessionIds: readonly string[]): Ev[] {
  const out: Ev[] = [];
  let clock = Date.UTC(2026, 9, 1, 12);
  let seq = 0;
  let session = sessionIds[0]!;
  runs.forEach((run, ri) => {
    if (ri > 0 && !runs[ri - 1]!.resume) session = sessionIds[ri % sessionIds.length]!;
    const S = session;
    const late = run.era === "late";
    const at = (): number | undefined => (late ? (clock += 250) : undefined);
    const early = !late;
    /** Background shells started in this run: their end comes after the result. */
    const background: Array<{ taskId: string; id: string; summary: string }> = [];
    if (run.hooks) {
      const name = ri > 0 && runs[ri - 1]!.resume ? "SessionStart:resume" : "SessionStart:startup";
      out.push(C.hookStarted(S, name), C.hookResponse(S, name), C.commandsChanged(S));
    }
    out.push(C.init(S, { version: late ? "2.1.285" : "2.1.15" }));
    if (run.prompt !== undefined) out.push(C.user(S, run.prompt, { at: at(), early }));

    /** The lines of a call group (its assistant lines, then its results in `order`), under `parent` (a subagent's). */
    const group = (calls: readonly CallSpec[], msg: string, turn: { thinking?: string; said?: string; order: number }, parent: string | undefined): void => {
      const made = calls.map((spec) => {
        const id = `toolu_${(++seq).toString(36).padStart(6, "0")}vrtx01`;
        const bg = spec.tool === "Bash" && spec.background && spec.outcome === "ok" && parent === undefined;
        return { spec, id, input: inputOf(spec.tool, spec.text, bg), taskId: bg ? `b${seq.toString(36)}` : undefined };
      });
      const f = (extra: Partial<C.LineFields> = {}) => ({ at: at(), early, ...(parent === undefined ? {} : { parent }), ...extra });
      const blocks: Ev[] = [];
      if (turn.thinking !== undefined) blocks.push(C.thinking(turn.thinking));
      if (turn.said !== undefined) blocks.push(C.text(turn.said));
      for (const c of made) blocks.push(C.toolUse(c.id, c.spec.tool, c.input));
      // A call started twice while open: its block again (2.1.15: in the same line).
      for (const c of made) if (c.spec.outcome === "restart") blocks.push(C.toolUse(c.id, c.spec.tool, c.input));
      if (late) for (const b of blocks) out.push(C.assistant(S, msg, [b], f()));
      else if (blocks.length > 0) out.push(C.assistant(S, msg, blocks, f()));
      for (const c of made) {
        if (c.taskId !== undefined) out.push(C.taskStarted(S, c.taskId, c.id, true));
        if (c.spec.outcome === "denied") out.push(C.permissionDenied(S, c.id, c.spec.tool, `Permission to use ${c.spec.tool} has been denied. ${c.spec.text}`));
      }
      const order = made.map((_, i) => (i + turn.order) % made.length);
      if (turn.order % 2 === 1) order.reverse();
      const answers: Array<{ block: Ev; result: unknown; meta?: Ev[] }> = [];
      for (const i of order) {
        const c = made[i]!;
        const t = c.spec.text;
        switch (c.spec.outcome) {
          case "open":
            break;
          case "failed": {
            const msgText = c.spec.tool === "Bash" ? `Exit code ${c.spec.exit}\n${t}` : t;
            answers.push({ block: C.toolResult(c.id, msgText, true), result: `Error: ${msgText}` });
            break;
          }
          case "tool_error":
            answers.push({ block: C.toolResult(c.id, `<tool_use_error>${t}</tool_use_error>`, true), result: `Error: ${t}` });
            break;
          case "denied":
            answers.push({ block: C.toolResult(c.id, `Permission to use ${c.spec.tool} has been denied.`, true), result: `Error: Permission to use ${c.spec.tool} has been denied.`, meta: [{ id: c.id, non_execution_kind: "permission-rule" }] });
            break;
          default: {
            const ok = successOf(c.spec.tool, t, c.input, c.taskId);
            answers.push({ block: C.toolResult(c.id, ok.content), result: ok.result });
            // A second result for the same call.
            if (c.spec.outcome === "twice") answers.push({ block: C.toolResult(c.id, t, true), result: `Error: ${t}` });
            if (c.taskId !== undefined) background.push({ taskId: c.taskId, id: c.id, summary: `Background command "${t}" completed (exit code 0)` });
          }
        }
      }
      if (late) {
        for (const a of answers) out.push(C.user(S, [a.block], { ...f(), ...(a.result === undefined || parent !== undefined ? {} : { toolUseResult: a.result }), ...(a.meta ? { meta: a.meta } : {}) }));
      } else if (answers.length > 0) {
        // 2.1.15: one user line holding every result; a tool_use_result only when it answers one call.
        const meta = answers.flatMap((a) => a.meta ?? []);
        const only = answers.length === 1 && answers[0]!.result !== undefined ? { toolUseResult: answers[0]!.result } : {};
        out.push(C.user(S, answers.map((a) => a.block), { ...f(), ...only, ...(meta.length > 0 ? { meta } : {}) }));
      }
    };

    run.turns.forEach((turn, ti) => {
      const msg = `msg_01${ri}${ti}${"x".repeat(20)}`;
      for (const e of turn.extras) {
        switch (e) {
          case "rate":
            out.push(C.rateLimit(S));
            break;
          case "thinking_tokens":
            out.push(C.system(S, "thinking_tokens", { estimated_tokens: 120, estimated_tokens_delta: 40 }));
            break;
          case "stream":
            if (turn.said !== undefined) out.push(C.textDelta(S, turn.said.slice(0, 3)), C.textDelta(S, turn.said.slice(3)));
            break;
          case "progress":
            out.push({ type: "tool_progress", tool_use_id: `toolu_p${ti}-heartbeat-1`, tool_name: "Bash", parent_tool_use_id: null, elapsed_time_seconds: 30, heartbeat: 1, session_id: S, uuid: "u" });
            break;
          case "unknown":
            out.push({ type: "hologram", payload: { t: turn.said ?? "" }, session_id: S, uuid: "u" });
            break;
          case "api_retry":
            out.push(C.system(S, "api_retry", { attempt: 1, max_retries: 10, retry_delay_ms: 500, error_status: 529, error: "overloaded" }));
            break;
          case "compact":
            out.push(C.user(S, `This session is being continued from a previous conversation. ${turn.said ?? ""}`, { at: at(), early, synthetic: true }));
            break;
        }
      }
      group(turn.calls, msg, turn, undefined);
      if (turn.subagent !== undefined) {
        const agent = `toolu_${(++seq).toString(36).padStart(6, "0")}agent1`;
        out.push(C.assistant(S, `${msg}a`, [C.toolUse(agent, "Agent", { description: turn.subagent.description, prompt: turn.subagent.description, subagent_type: "general-purpose" })], { at: at(), early }));
        out.push(C.system(S, "task_started", { task_id: `a${seq}`, tool_use_id: agent, description: turn.subagent.description, is_backgrounded: false, task_type: "local_agent", subagent_type: "general-purpose" }));
        group(turn.subagent.calls, `${msg}s`, { order: turn.order + 1 }, agent);
        out.push(C.user(S, [C.toolResult(agent, [C.text(`Subagent done: ${turn.subagent.description}`)])], { at: at(), early }));
      }
      if (turn.orphan) out.push(C.user(S, [C.toolResult(`toolu_orphan${ri}${ti}`, "from nowhere")], { at: at(), early }));
    });
    if (run.end !== "none") {
      const fields: C.ResultFields =
        run.end === "api_error"
          ? { is_error: true, result: run.final, terminal_reason: "api_error", api_error_status: null }
          : run.end === "max_turns"
            ? { subtype: "error_max_turns", is_error: true, result: null, errors: ["Reached maximum number of turns (2)"], terminal_reason: "max_turns" }
            : { result: run.final, terminal_reason: "completed", result_index: 0 };
      out.push(C.result(S, fields));
    }
    // Background shells end after the result, as they do when the CLI's turn ends first.
    for (const b of background) out.push(C.taskUpdated(S, b.taskId, "completed", (clock += 1000)), C.taskNotification(S, b.taskId, b.id, "completed", b.summary));
  });
  return out;
}

export interface ClaudeLogOptions {
  maxRuns?: number;
  /** Allow the layout variations (CRLF, BOM, blank lines, pretty-printed values). Default true. */
  layouts?: boolean;
  /** The text in commands, paths, messages, results (default plainText; gen-events' logText is hostile). */
  text?: fc.Arbitrary<string>;
}

/** A whole Claude Code log: 1 to `maxRuns` runs, in one or more sessions. */
export function genClaudeLog(opts: ClaudeLogOptions = {}): fc.Arbitrary<GenLog & { runs: RunSpec[] }> {
  const text = opts.text ?? plainText;
  return fc
    .record({
      runs: fc.array(runSpec(text), { minLength: 1, maxLength: opts.maxRuns ?? 3 }),
      sessions: fc.array(fc.uuid(), { minLength: 1, maxLength: 2 }),
      layout: opts.layouts === false ? fc.constant<Layout>({ crlf: false, bom: false, finalNewline: true, blanks: [], pretty: [] }) : anyLayout,
    })
    .map(({ runs, sessions, layout }) => {
      const events = claudeEvents(runs, sessions);
      const bytes = serialize(events, layout);
      // Counterexamples print as the log's text, not as an array of byte values.
      return { events, bytes, runs, [fc.toStringMethod]: () => `claudeLog(${JSON.stringify(bytes.toString("utf8"))})` };
    });
}

/** Hostile text (terminal escapes, C1 controls, bidi overrides, CR, NUL, lone surrogates) for genClaudeLog's `text`. */
export const hostileText: fc.Arbitrary<string> = logText;

import * as C from "./claude-events.js";

// A Claude Code log whose every text from the log is hostile to a terminal: each value holds
// OSC 0 (retitles the window), CSI (clears the screen), an 8-bit CSI (U+009B), a bidi override
// (U+202E), a CR and a NUL. Where each one lands: the init's model, cwd and session id; the
// prompt; thinking; the agent's text; a Bash command, its description and its failure output;
// a Read path and its error; a Write path (diff's names) and content; an Edit's path and patch; a
// subagent's description and type, and its own call; an MCP tool's name; a denial's message and
// word; a tool of unknown name and its id; a background shell's task id and end summary; a call
// never answered; the result's text, errors, terminal_reason and a modelUsage model name; the
// agent CLI's own text line.

/** The hostile piece every value carries. */
export const EVIL = "\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e\r\u0000";
/** EVIL as cursorlog writes it escaped on a terminal (sanitize.ts escapeControls). */
export const EVIL_SHOWN = "\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e\\r\\u0000";

/**
 * The log. `plainIds`: the call ids, the unknown tool's name and the background task id without
 * EVIL (show writes a tool's name and a task id, and the HTML timeline a call id, as they are:
 * see the todo tests of claude-hostile.test.ts).
 */
export function hostileClaudeLog(opts: { plainIds?: boolean } = {}): Buffer {
  const E = EVIL;
  const I = opts.plainIds === true ? "" : EVIL;
  const S = `sess${E}`;
  const cwd = `/home/dev/app${E}`;
  const t0 = Date.UTC(2026, 9, 1, 12);
  const events = [
    C.init(S, { cwd, model: `claude${E}` }),
    C.user(S, `prompt ${E}`, { at: t0 }),
    C.assistant(S, "msg_1", [C.thinking(`think ${E}`)], { at: t0 + 1, model: `claude${E}` }),
    C.assistant(S, "msg_1", [C.text(`said ${E}`)], { at: t0 + 2 }),
    C.assistant(S, "msg_1", [C.toolUse(`toolu_1${I}`, "Bash", { command: `echo ${E}`, description: `desc ${E}` })], { at: t0 + 3 }),
    C.user(S, [C.toolResult(`toolu_1${I}`, `Exit code 1\nout ${E}`, true)], { at: t0 + 4, toolUseResult: `Error: Exit code 1\nout ${E}` }),
    C.assistant(S, "msg_2", [C.toolUse("toolu_2", "Read", { file_path: `${cwd}/r${E}.txt` })], { at: t0 + 5 }),
    C.user(S, [C.toolResult("toolu_2", `<tool_use_error>File ${E} missing</tool_use_error>`, true)], { at: t0 + 6, toolUseResult: `Error: File ${E} missing` }),
    C.assistant(S, "msg_3", [C.toolUse("toolu_3", "Write", { file_path: `${cwd}/w${E}.txt`, content: `hello ${E}\n` })], { at: t0 + 7 }),
    C.user(S, [C.toolResult("toolu_3", `File created ${E}`)], { at: t0 + 8, toolUseResult: { type: "create", filePath: `${cwd}/w${E}.txt`, content: `hello ${E}\n`, structuredPatch: [], originalFile: null } }),
    C.assistant(S, "msg_4", [C.toolUse("toolu_4", "Agent", { description: `sub ${E}`, subagent_type: `general${E}`, prompt: `do ${E}` })], { at: t0 + 9 }),
    C.assistant(S, "msg_5", [C.toolUse("toolu_5", "Bash", { command: `ls ${E}` })], { at: t0 + 10, parent: "toolu_4" }),
    C.user(S, [C.toolResult("toolu_5", `ok ${E}`, false)], { at: t0 + 11, parent: "toolu_4" }),
    C.user(S, [C.toolResult("toolu_4", [C.text(`agent said ${E}`)])], { at: t0 + 12 }),
    C.assistant(S, "msg_6", [C.toolUse("toolu_6", `mcp__ev${E}il__tool${E}`, { q: `x ${E}` })], { at: t0 + 13 }),
    C.user(S, [C.toolResult("toolu_6", [C.text(`r ${E}`)])], { at: t0 + 14 }),
    C.assistant(S, "msg_7", [C.toolUse("toolu_7", "Bash", { command: `rm ${E}` })], { at: t0 + 15 }),
    C.permissionDenied(S, "toolu_7", "Bash", `denied ${E}`),
    C.user(S, [C.toolResult("toolu_7", `Permission ${E} denied`, true)], { at: t0 + 16, meta: [{ id: "toolu_7", non_execution_kind: `permission-rule${E}` }] }),
    C.assistant(S, "msg_8", [C.toolUse(`toolu_8${I}`, `Tool${I}`, { path: `/p${E}` })], { at: t0 + 17 }),
    C.user(S, [C.toolResult(`toolu_8${I}`, "x")], { at: t0 + 18 }),
    C.assistant(S, "msg_9", [C.toolUse("toolu_9", "Bash", { command: `sleep ${E}`, run_in_background: true })], { at: t0 + 19 }),
    C.taskStarted(S, `bg${I}`, "toolu_9", true),
    C.user(S, [C.toolResult("toolu_9", `Command running in background with ID: bg${I}`)], { at: t0 + 20, toolUseResult: C.bashResult("", { backgroundTaskId: `bg${I}` }) }),
    C.assistant(S, "msg_10", [C.toolUse("toolu_10", "Edit", { file_path: `${cwd}/e${E}.txt`, old_string: "a", new_string: `b${E}` })], { at: t0 + 21 }),
    C.user(S, [C.toolResult("toolu_10", "ok")], {
      at: t0 + 22,
      toolUseResult: { filePath: `${cwd}/e${E}.txt`, oldString: "a", newString: `b${E}`, originalFile: "a\n", structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-a", `+b${E}`] }], userModified: false, replaceAll: false },
    }),
    C.assistant(S, "msg_11", [C.toolUse(`toolu_11${I}`, "Bash", { command: `never ${E}` })], { at: t0 + 23 }),
    C.result(S, { result: `done ${E}`, is_error: true, terminal_reason: `api${E}`, errors: [`err ${E}`], modelUsage: { [`claude${E}`]: { inputTokens: 1, outputTokens: 2, costUSD: 0.1 } } }),
    C.taskUpdated(S, `bg${I}`, "completed", t0 + 30),
    C.taskNotification(S, `bg${I}`, "toolu_9", `completed${E}`, `summary ${E}`),
  ];
  // The agent CLI's own text (not JSON): a NUL would make it a line cursorlog cannot read as text, so none here.
  return Buffer.from(events.map((e) => JSON.stringify(e) + "\n").join("") + `Error: ${E.replace("\u0000", "")}\n`);
}

// Contract tests for schemas/*.schema.json.
//
// 1. Every schema is a valid draft 2020-12 schema with a unique, stable $id, and all of them compile
//    together under Ajv's strict mode (every $defs entry included), with the Claude Code set
//    (schemas/claude-code/, checked in test/claude-schemas.test.ts) loaded into the same Ajv.
// 2. Realistic events of every type/subtype, every tool kind in every era and every result arm
//    validate against the entry schema with zero errors.
// 3. Broken events fail with the exact instancePath and keyword we expect, through the entry
//    schema's if/then dispatch.
//
// Shapes follow /work/shared/FORMAT.md; ids and texts are made up.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject } from "ajv";

// ajv is CommonJS: under NodeNext the default import is module.exports, whose `default` is the class.
const Ajv2020 = Ajv2020Module.default;
type Ajv = InstanceType<typeof Ajv2020>;
type Json = Record<string, unknown>;

const SCHEMA_DIR = fileURLToPath(new URL("../schemas/", import.meta.url));
const ID_BASE = "https://cursorlog.dev/schemas/";
const ENTRY_ID = `${ID_BASE}cursor-agent-event.schema.json`;
const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

interface SchemaFile {
  file: string;
  schema: Json;
}

function loadSchemas(): SchemaFile[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ file, schema: JSON.parse(readFileSync(SCHEMA_DIR + file, "utf8")) as Json }));
}

function newAjv(): Ajv {
  return new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
}

function ajvWithAll(schemas: SchemaFile[]): Ajv {
  const ajv = newAjv();
  for (const { schema } of schemas) ajv.addSchema(schema);
  return ajv;
}

/** Every "$defs" entry of a schema, nested ones included, as JSON pointers. */
function defPointers(node: unknown, pointer = ""): string[] {
  if (node === null || typeof node !== "object") return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "$defs" && value !== null && typeof value === "object") {
      for (const [name, def] of Object.entries(value)) {
        const defPointer = `${pointer}/$defs/${name}`;
        out.push(defPointer, ...defPointers(def, defPointer));
      }
    } else {
      out.push(...defPointers(value, `${pointer}/${key}`));
    }
  }
  return out;
}

const SCHEMAS = loadSchemas();
const validateEvent = ajvWithAll(SCHEMAS).getSchema(ENTRY_ID)!;

function errorsOf(event: unknown): ErrorObject[] {
  return validateEvent(event) ? [] : [...(validateEvent.errors ?? [])];
}

function describeErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `  ${e.instancePath || "(root)"} ${e.message} [${e.keyword}] ${JSON.stringify(e.params)}`).join("\n");
}

// ---------------------------------------------------------------------------------------------
// 1. The schemas themselves
// ---------------------------------------------------------------------------------------------

describe("schema files", () => {
  test("the expected files are present", () => {
    const files = SCHEMAS.map((s) => s.file);
    for (const name of [
      "defs",
      "cursor-agent-event",
      "system",
      "user",
      "thinking",
      "assistant",
      "tool_call",
      "result",
      "interaction_query",
      "connection",
      "retry",
    ]) {
      assert.ok(files.includes(`${name}.schema.json`), `missing schemas/${name}.schema.json`);
    }
  });

  for (const { file, schema } of SCHEMAS) {
    test(`${file} is a valid draft 2020-12 schema with a stable $id`, () => {
      assert.equal(schema.$schema, DRAFT_2020_12);
      assert.equal(schema.$id, ID_BASE + file);
      const ajv = newAjv();
      const ok = ajv.validateSchema(schema);
      assert.ok(ok, `meta-schema errors:\n${describeErrors(ajv.errors ?? [])}`);
    });

    test(`${file} is plain JSON with 2-space indentation`, () => {
      const text = readFileSync(SCHEMA_DIR + file, "utf8");
      assert.ok(text.endsWith("}\n"), "ends with a newline");
      text.split("\n").forEach((line, i) => {
        const indent = /^ */.exec(line)![0].length;
        assert.ok(!line.startsWith("\t") && indent % 2 === 0, `line ${i + 1} is not indented by 2-space steps`);
      });
    });
  }

  test("$ids are unique", () => {
    const ids = SCHEMAS.map((s) => s.schema.$id);
    assert.equal(new Set(ids).size, ids.length);
  });

  test("all schemas and every $defs entry compile together in strict mode", () => {
    const ajv = ajvWithAll(SCHEMAS);
    for (const { schema } of SCHEMAS) {
      const id = schema.$id as string;
      assert.ok(ajv.getSchema(id), `cannot compile ${id}`);
      for (const pointer of defPointers(schema)) {
        assert.ok(ajv.getSchema(`${id}#${pointer}`), `cannot compile ${id}#${pointer}`);
      }
    }
  });

  test("schemas/README.md lists every schema file and its $id", () => {
    const readme = readFileSync(SCHEMA_DIR + "README.md", "utf8");
    for (const { file, schema } of SCHEMAS) {
      assert.ok(readme.includes(file), `README.md does not mention ${file}`);
      assert.ok(readme.includes(schema.$id as string), `README.md does not mention ${schema.$id}`);
    }
  });

  test("the Claude Code set (schemas/claude-code/) loads into the same Ajv in strict mode: $ids unique, every $defs entry compiles, both entries resolve", () => {
    const claude = readdirSync(SCHEMA_DIR + "claude-code/")
      .filter((file) => file.endsWith(".json"))
      .sort()
      .map((file) => ({ file: `claude-code/${file}`, schema: JSON.parse(readFileSync(`${SCHEMA_DIR}claude-code/${file}`, "utf8")) as Json }));
    assert.ok(claude.length > 0, "schemas/claude-code/ holds no schema");
    const both = [...SCHEMAS, ...claude];
    const ids = both.map((s) => s.schema.$id);
    assert.equal(new Set(ids).size, ids.length, "a Claude Code $id is also a cursor-agent one");
    const ajv = ajvWithAll(both);
    for (const { file, schema } of both) {
      const id = schema.$id as string;
      assert.equal(id, ID_BASE + file);
      assert.ok(ajv.getSchema(id), `cannot compile ${id}`);
      for (const pointer of defPointers(schema)) assert.ok(ajv.getSchema(`${id}#${pointer}`), `cannot compile ${id}#${pointer}`);
    }
    // The cursor-agent entry judges as it does alone.
    const cursor = ajv.getSchema(ENTRY_ID)!;
    assert.equal(cursor({ type: "system", subtype: "init", apiKeySource: "login", cwd: "/w", session_id: "5b1c7e0a-3f2d-4e8b-9a61-2c4d8e0f7a13", model: "m", permissionMode: "default" }), true);
    assert.equal(cursor({ type: "result", subtype: "success" }), false);
    assert.ok(ajv.getSchema(`${ID_BASE}claude-code/claude-code-event.schema.json`));
  });

  test("tool_call.schema.json defines every kind it lists, and lists every kind it defines", () => {
    const toolCall = SCHEMAS.find((s) => s.file === "tool_call.schema.json")!.schema as {
      $defs: Record<string, { properties?: Record<string, unknown> }>;
    };
    const listed = Object.keys(toolCall.$defs.toolCall.properties ?? {}).sort();
    const defined = Object.keys(toolCall.$defs).filter((k) => k.endsWith("ToolCall")).sort();
    assert.deepEqual(listed, defined);
    for (const { kind } of KIND_SAMPLES) {
      if (kind !== UNKNOWN_KIND) assert.ok(listed.includes(kind), `${kind} has no $defs entry`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Valid events
// ---------------------------------------------------------------------------------------------

const SID = "5b1c7e0a-3f2d-4e8b-9a61-2c4d8e0f7a13";
const RID = "9d3e2f1a-6b7c-4d8e-8f90-a1b2c3d4e5f6";
const MCID = `${RID}-0-k3xq`;
const TS = 1790859572310;

type Era = "2025" | "2026-early" | "2026-late";
const ERAS: Era[] = ["2025", "2026-early", "2026-late"];

const CALL_IDS: Record<Era, string> = {
  "2025": "toolu_vrtx_01Q8n3Jm5TqW7yZbC4dE6fGh",
  "2026-early": "call_Zk4mQ8rT2vX6yB1nC5dF9hJ3\nfc_0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5",
  "2026-late": "call-2d783320-70b7-436e-8fbe-6a578a6dd1c4-0\nfc_97a616b3-2970-9bc8-b39a-84b255ff23fc_0",
};

/** A tool_call event in the shape of one era. body is the value under the kind key. */
function toolEvent(era: Era, subtype: string, kind: string, body: Json, callId = CALL_IDS[era]): Json {
  if (era === "2025") {
    return { type: "tool_call", subtype, call_id: callId, tool_call: { [kind]: body }, session_id: SID };
  }
  const toolCall: Json = { [kind]: body };
  if (era === "2026-late") {
    toolCall.hookAdditionalContexts = [];
    toolCall.toolCallId = callId;
    toolCall.startedAtMs = "1790859572325";
    if (subtype === "completed") toolCall.completedAtMs = "1790859573072";
  }
  return {
    type: "tool_call",
    subtype,
    call_id: callId,
    tool_call: toolCall,
    model_call_id: MCID,
    session_id: SID,
    timestamp_ms: subtype === "completed" ? TS + 746 : TS,
  };
}

/** One realistic args/result pair per tool kind (FORMAT.md §5.2). */
interface KindSample {
  kind: string;
  args: Json;
  result: Json;
}

const SHELL_ARGS: Json = {
  command: "ls -la src",
  workingDirectory: "",
  timeout: 30000,
  simpleCommands: ["ls"],
  hasInputRedirect: false,
  hasOutputRedirect: false,
  parsingResult: {
    parsingFailed: false,
    executableCommands: [
      {
        name: "ls",
        args: [
          { type: "word", value: "-la" },
          { type: "word", value: "src" },
        ],
        fullText: "ls -la src",
      },
    ],
    hasRedirects: false,
    hasCommandSubstitution: false,
    redirects: [],
  },
  fileOutputThresholdBytes: "40000",
  isBackground: false,
  skipApproval: false,
  timeoutBehavior: "TIMEOUT_BEHAVIOR_BACKGROUND",
  hardTimeout: 86400000,
  closeStdin: true,
  conversationId: SID,
  adminCommandDenylist: [],
  requestId: RID,
};

const SHELL_OUTCOME: Json = {
  command: "ls -la src",
  workingDirectory: "",
  exitCode: 0,
  signal: "",
  stdout: "main.ts\n",
  stderr: "",
  executionTime: 212,
  interleavedOutput: "main.ts\n",
  localExecutionTimeMs: 48,
};

const TODO = {
  id: "1",
  content: "Write the schemas",
  status: "TODO_STATUS_IN_PROGRESS",
  createdAt: "1790859572000",
  updatedAt: "1790859572000",
  dependencies: [],
};

const UNKNOWN_KIND = "frobnicateToolCall";

const KIND_SAMPLES: KindSample[] = [
  { kind: "shellToolCall", args: SHELL_ARGS, result: { success: SHELL_OUTCOME, isBackground: false } },
  {
    kind: "readToolCall",
    args: { path: "/repo/README.md" },
    result: {
      success: {
        content: "# Project\n",
        isEmpty: false,
        exceededLimit: false,
        totalLines: 2,
        fileSize: 10,
        path: "/repo/README.md",
        readRange: { startLine: 1, endLine: 2 },
        relatedCursorRulePaths: [],
        relatedCursorRules: [],
      },
    },
  },
  {
    kind: "editToolCall",
    args: { path: "/repo/note.txt", streamContent: "bye" },
    result: {
      success: {
        path: "/repo/note.txt",
        linesAdded: 1,
        linesRemoved: 1,
        diffString: "--- a/repo/note.txt\n+++ b/repo/note.txt\n@@ -1 +1 @@\n-hi\n+bye",
        beforeFullFileContent: "hi\n",
        afterFullFileContent: "bye\n",
        message: "The file /repo/note.txt has been updated.",
      },
    },
  },
  {
    kind: "writeToolCall",
    args: { path: "summary.txt", fileText: "# Summary\n" },
    result: { success: { path: "/repo/summary.txt", linesCreated: 1, fileSize: 10 } },
  },
  {
    kind: "deleteToolCall",
    args: { path: "/repo/gone.txt" },
    result: { success: { path: "/repo/gone.txt", deletedFile: "/repo/gone.txt", fileSize: "2", prevContent: "x\n" } },
  },
  {
    kind: "grepToolCall",
    args: { pattern: "NEEDLE", caseInsensitive: false, multiline: false, offset: 0 },
    result: {
      success: {
        pattern: "NEEDLE",
        path: "",
        outputMode: "content",
        workspaceResults: {
          "/repo": {
            content: {
              matches: [
                {
                  file: "./found.txt",
                  matches: [{ lineNumber: 1, content: "NEEDLE-HERE", contentTruncated: false, isContextLine: false }],
                },
              ],
              totalLines: 1,
              totalMatchedLines: 1,
              clientTruncated: false,
              ripgrepTruncated: false,
            },
          },
        },
      },
    },
  },
  {
    kind: "globToolCall",
    args: { targetDirectory: "/repo", globPattern: "**/*.ts" },
    result: {
      success: {
        pattern: "**/*.ts",
        path: "/repo",
        files: ["src/main.ts"],
        totalFiles: 1,
        clientTruncated: false,
        ripgrepTruncated: false,
      },
    },
  },
  {
    kind: "lsToolCall",
    args: { path: "/repo", ignore: [] },
    result: {
      success: {
        directoryTreeRoot: {
          absPath: "/repo",
          childrenDirs: [
            {
              absPath: "/repo/src",
              childrenDirs: [],
              childrenFiles: [{ name: "main.ts" }],
              childrenWereProcessed: true,
              fullSubtreeExtensionCounts: { ".ts": 1 },
              numFiles: 1,
            },
          ],
          childrenFiles: [{ name: "README.md" }],
          childrenWereProcessed: true,
          fullSubtreeExtensionCounts: { ".ts": 1, ".md": 1 },
          numFiles: 2,
        },
      },
    },
  },
  {
    kind: "updateTodosToolCall",
    args: { todos: [TODO], merge: false },
    result: { success: { todos: [TODO], totalCount: 1, wasMerge: false } },
  },
  { kind: "readTodosToolCall", args: {}, result: { success: { todos: [TODO], totalCount: 1 } } },
  {
    kind: "mcpToolCall",
    args: {
      name: "local-echo",
      args: { text: "HELLO" },
      providerIdentifier: "local",
      toolName: "echo",
      smartModeApprovalOnly: false,
      skipApproval: false,
      serverIdentifier: "local",
    },
    result: { success: { content: [{ text: { text: "ECHOED: HELLO" } }], isError: false, systemReminders: [] } },
  },
  {
    kind: "getMcpToolsToolCall",
    args: { server: "local", toolName: "echo" },
    result: { success: { content: '{\n  "tool": "echo",\n  "description": "Echoes its text argument back."\n}' } },
  },
  { kind: "listMcpResourcesToolCall", args: {}, result: { success: { resources: [] } } },
  {
    kind: "readMcpResourceToolCall",
    args: { server: "docs", uri: "docs://readme" },
    result: { success: { contents: [{ uri: "docs://readme", text: "hello" }] } },
  },
  {
    kind: "semSearchToolCall",
    args: { query: "where is the parser?", targetDirectories: [], explanation: "find the parser" },
    result: { success: { results: '<search_result path="src/parse.ts" startLine="1" endLine="9">…</search_result>' } },
  },
  {
    kind: "readLintsToolCall",
    args: { paths: ["src/main.ts"] },
    result: {
      success: {
        fileDiagnostics: [{ path: "src/main.ts", diagnostics: [{ message: "unused variable", severity: "warning" }] }],
        totalFiles: 1,
        totalDiagnostics: 1,
      },
    },
  },
  {
    kind: "webFetchToolCall",
    args: { url: "https://example.com" },
    result: { success: { url: "https://example.com", markdown: "# Example Domain\n" } },
  },
  {
    kind: "webSearchToolCall",
    args: { searchTerm: "cursor agent stream-json" },
    result: { success: { references: [{ title: "Output format", url: "https://cursor.com/docs", chunk: "…" }] } },
  },
  { kind: "fetchToolCall", args: { url: "https://example.com/a.json" }, result: { success: { content: "{}" } } },
  {
    kind: "taskToolCall",
    args: {
      description: "Reply with PONG",
      prompt: "Reply with the single word PONG.",
      subagentType: { unspecified: {} },
      model: "default",
      agentId: "814b46e6-f254-4ef7-ab14-8ade66e2f88a",
      attachments: [],
      mode: "TASK_MODE_UNSPECIFIED",
      respondingToMessageIds: [],
      environment: "SUBAGENT_EXECUTION_ENVIRONMENT_UNSPECIFIED",
      machine: { sameMachine: {} },
    },
    result: {
      success: {
        conversationSteps: [{ assistantMessage: { text: "PONG" } }],
        agentId: "2b5d08c7-b817-46d8-94dc-6087744dc03e",
        isBackground: false,
        durationMs: "2890",
        backgroundReason: "SUBAGENT_BACKGROUND_REASON_UNSPECIFIED",
      },
    },
  },
  {
    kind: "awaitToolCall",
    args: { taskId: "339917", blockUntilMs: 10000 },
    result: {
      success: {
        complete: {
          taskId: "339917",
          runtimeMs: "5443",
          outputFilePath: "/home/u/.cursor/projects/p/terminals/339917.txt",
          outputLength: "341",
          regexRequested: false,
          exitCode: 0,
        },
      },
    },
  },
  {
    kind: "createPlanToolCall",
    args: { plan: "# Plan\n1. Do it", name: "Refactor", overview: "Split the parser", todos: [] },
    result: { success: {} },
  },
  {
    kind: "askQuestionToolCall",
    args: { questions: [{ id: "q1", prompt: "Which database?", options: ["sqlite", "postgres"] }] },
    result: { rejected: { reason: "Questions skipped by the user" } },
  },
  { kind: "applyAgentDiffToolCall", args: {}, result: { success: {} } },
  { kind: "switchModeToolCall", args: { targetModeId: "plan" }, result: { success: {} } },
  { kind: "generateImageToolCall", args: { prompt: "a cat" }, result: { success: { imagePath: "/tmp/cat.png" } } },
  { kind: "recordScreenToolCall", args: {}, result: { success: {} } },
  { kind: "computerUseToolCall", args: { action: "screenshot" }, result: { success: {} } },
  { kind: "writeShellStdinToolCall", args: { shellId: 339917, chars: "y\n" }, result: { success: {} } },
  { kind: "reflectToolCall", args: {}, result: { success: {} } },
  { kind: "setupVmEnvironmentToolCall", args: {}, result: { success: {} } },
  { kind: "truncatedToolCall", args: {}, result: { error: { error: "tool call truncated" } } },
  // A kind this schema does not know: only the generic body shape applies.
  { kind: UNKNOWN_KIND, args: { level: 11 }, result: { success: { frobnicated: true } } },
];

const LATE = "2026-late";
const LATE_CALL = CALL_IDS[LATE];

/** Hand-written events for every event type/subtype and every result arm. */
const EVENT_SAMPLES: Array<[string, Json]> = [
  [
    "system/init 2025",
    {
      type: "system",
      subtype: "init",
      apiKeySource: "login",
      cwd: "/Users/user/project",
      session_id: SID,
      model: "Claude 4 Sonnet",
      permissionMode: "default",
    },
  ],
  [
    "system/init 2026",
    {
      type: "system",
      subtype: "init",
      apiKeySource: "env",
      cwd: "/repo",
      session_id: SID,
      model: "Grok 4.7 256K Extra High",
      permissionMode: "default",
    },
  ],
  [
    "system/task_notification",
    {
      type: "system",
      subtype: "task_notification",
      task_id: "339917",
      status: "success",
      title: "Background sleep then echo",
      session_id: SID,
      timestamp_ms: TS + 20000,
    },
  ],
  ["system/background_shell_timeout", { type: "system", subtype: "background_shell_timeout", session_id: SID, timestamp_ms: TS, shell_id: 1 }],
  ["system with an unknown subtype", { type: "system", subtype: "hook_started", session_id: SID, hook: "beforeShellExecution" }],
  [
    "user",
    {
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "Reply with the single word: alpha" }] },
      session_id: SID,
    },
  ],
  [
    "user message with a non-text part",
    {
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image", url: "file:///a.png" }] },
      session_id: SID,
    },
  ],
  ["thinking/delta", { type: "thinking", subtype: "delta", text: "The user requested a", session_id: SID, timestamp_ms: TS }],
  ["thinking/delta blank line", { type: "thinking", subtype: "delta", text: "\n\n", session_id: SID, timestamp_ms: TS }],
  ["thinking/completed", { type: "thinking", subtype: "completed", session_id: SID, timestamp_ms: TS + 1 }],
  [
    "assistant 2025 (no model_call_id, no timestamp_ms)",
    { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "I'll " }] }, session_id: SID },
  ],
  [
    "assistant mid-turn (model_call_id + timestamp_ms)",
    {
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "Creating `note.txt` first." }] },
      session_id: SID,
      model_call_id: MCID,
      timestamp_ms: TS,
    },
  ],
  [
    "assistant partial-output delta (timestamp_ms only)",
    {
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "al" }] },
      session_id: SID,
      timestamp_ms: TS,
    },
  ],
  [
    "assistant final",
    { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "DONE" }] }, session_id: SID },
  ],
  [
    "tool_call shell failure, exitCode 1",
    toolEvent(LATE, "completed", "shellToolCall", {
      args: { ...SHELL_ARGS, command: "false" },
      result: {
        failure: { ...SHELL_OUTCOME, command: "false", exitCode: 1, stdout: "", interleavedOutput: "", aborted: false },
        isBackground: false,
      },
    }),
  ],
  [
    "tool_call shell rejected with empty reason (headless, no --force), no args",
    toolEvent(LATE, "completed", "shellToolCall", {
      result: { rejected: { command: "rm -rf build", workingDirectory: "", reason: "", isReadonly: false } },
    }),
  ],
  [
    "tool_call shell rejected by a hook",
    toolEvent(LATE, "completed", "shellToolCall", {
      result: {
        rejected: {
          command: "echo DENYME",
          workingDirectory: "",
          reason: "USER-DENY-MSG\n\nAgent note: Do not suggest workarounds to the blocked tool.",
          isReadonly: false,
        },
      },
    }),
  ],
  [
    "tool_call shell background success with terminalsFolder and description sibling",
    toolEvent(LATE, "completed", "shellToolCall", {
      args: {
        ...SHELL_ARGS,
        command: "sh -c 'sleep 5; echo BGDONE'",
        timeout: 0,
        isBackground: true,
        timeoutBehavior: "TIMEOUT_BEHAVIOR_UNSPECIFIED",
        description: "Background sleep then echo",
        toolCallId: LATE_CALL,
      },
      result: {
        success: {
          command: "sh -c 'sleep 5; echo BGDONE'",
          workingDirectory: "",
          exitCode: 0,
          signal: "",
          stdout: "",
          stderr: "",
          executionTime: 1990,
          shellId: 339917,
          pid: 51562,
          backgroundReason: "SHELL_BACKGROUND_REASON_USER_REQUEST",
        },
        isBackground: true,
        terminalsFolder: "/home/u/.cursor/projects/p/terminals",
      },
      description: "Background sleep then echo",
    }),
  ],
  [
    "tool_call shell permissionDenied",
    toolEvent(LATE, "completed", "shellToolCall", {
      result: {
        permissionDenied: {
          command: "curl example.com",
          error: "Command blocked by permissions configuration",
          isReadonly: false,
          workingDirectory: "",
        },
      },
    }),
  ],
  ["tool_call shell timeout", toolEvent(LATE, "completed", "shellToolCall", { args: SHELL_ARGS, result: { timeout: { command: "sleep 999" } } })],
  ["tool_call shell spawnError", toolEvent(LATE, "completed", "shellToolCall", { args: SHELL_ARGS, result: { spawnError: { error: "ENOENT" } } })],
  [
    "tool_call read error 'File not found', no args",
    toolEvent(LATE, "completed", "readToolCall", { result: { error: { errorMessage: "File not found" } } }),
  ],
  [
    "tool_call read 2025 success (totalChars)",
    toolEvent("2025", "completed", "readToolCall", {
      args: { path: "README.md" },
      result: { success: { content: "# Project\n", isEmpty: false, exceededLimit: false, totalLines: 54, totalChars: 1254 } },
    }),
  ],
  [
    "tool_call read readPermissionDenied",
    toolEvent(LATE, "completed", "readToolCall", { args: { path: "/etc/shadow" }, result: { readPermissionDenied: { path: "/etc/shadow" } } }),
  ],
  [
    "tool_call edit creating a file",
    toolEvent(LATE, "completed", "editToolCall", {
      args: { path: "/repo/note.txt", streamContent: "hi\n" },
      result: {
        success: {
          path: "/repo/note.txt",
          linesAdded: 1,
          linesRemoved: 0,
          diffString: "--- /dev/null\n+++ b/repo/note.txt\n@@ -1,0 +1 @@\n+hi",
          afterFullFileContent: "hi\n",
          message: "Wrote contents to /repo/note.txt",
        },
      },
    }),
  ],
  [
    "tool_call edit refused by a hook, no args",
    toolEvent(LATE, "completed", "editToolCall", {
      result: { error: { path: "", error: "Blocked by hook", modelVisibleError: "Blocked by hook" } },
    }),
  ],
  [
    "tool_call edit writePermissionDenied",
    toolEvent(LATE, "completed", "editToolCall", {
      args: { path: "/repo/.env", streamContent: "X=1" },
      result: { writePermissionDenied: { path: "/repo/.env", error: "Write blocked", isReadonly: true } },
    }),
  ],
  [
    "tool_call delete error",
    toolEvent(LATE, "completed", "deleteToolCall", {
      args: { path: "/repo/nope.txt" },
      result: { error: { path: "", error: "File not found: /repo/nope.txt" } },
    }),
  ],
  [
    "tool_call glob error",
    toolEvent(LATE, "completed", "globToolCall", {
      args: { targetDirectory: "/nope", globPattern: "*" },
      result: { error: { error: "Path does not exist: /nope" } },
    }),
  ],
  [
    "tool_call grep files_with_matches",
    toolEvent(LATE, "completed", "grepToolCall", {
      args: { pattern: "TODO", outputMode: "files_with_matches", caseInsensitive: true, multiline: false, toolCallId: LATE_CALL },
      result: {
        success: {
          pattern: "TODO",
          path: "",
          outputMode: "files_with_matches",
          workspaceResults: {
            "/repo": { files: { files: ["a.ts", "b.ts"], totalFiles: 2, clientTruncated: false, ripgrepTruncated: false } },
          },
        },
      },
    }),
  ],
  [
    "tool_call ls rejected",
    toolEvent(LATE, "completed", "lsToolCall", { args: { path: "/" }, result: { rejected: { path: "/", reason: "outside workspace" } } }),
  ],
  [
    "tool_call mcp error",
    toolEvent(LATE, "completed", "mcpToolCall", {
      args: { name: "local-echo", args: {} },
      result: { error: { error: "MCP server not found: local", systemReminders: [] } },
      description: "Echo via local MCP",
    }),
  ],
  [
    "tool_call webFetch error",
    toolEvent(LATE, "completed", "webFetchToolCall", {
      args: { url: "https://nope.invalid" },
      result: { error: { url: "https://nope.invalid", error: "getaddrinfo ENOTFOUND" } },
    }),
  ],
  [
    "tool_call task error with no started event, no args",
    toolEvent(LATE, "completed", "taskToolCall", { result: { error: { error: "Invalid arguments:\nprompt: Required" } } }),
  ],
  [
    "tool_call with hookAdditionalContexts",
    {
      ...toolEvent(LATE, "completed", "shellToolCall", { args: SHELL_ARGS, result: { success: SHELL_OUTCOME, isBackground: false } }),
      tool_call: {
        shellToolCall: { args: SHELL_ARGS, result: { success: SHELL_OUTCOME, isBackground: false } },
        hookAdditionalContexts: [{ hookEventName: "postToolUse", content: "CTX-postToolUse-P1" }],
        toolCallId: LATE_CALL,
        startedAtMs: "1790899400772",
        completedAtMs: "1790899402634",
      },
    },
  ],
  [
    "tool_call with a Kimi-style call id",
    toolEvent(LATE, "started", "grepToolCall", { args: { pattern: "foo" } }, "Grep_0"),
  ],
  [
    "tool_call with an unknown metadata sibling",
    {
      ...toolEvent(LATE, "started", "readToolCall", { args: { path: "a" } }),
      tool_call: { readToolCall: { args: { path: "a" } }, toolCallId: LATE_CALL, startedAtMs: "1790859572325", sandboxPolicy: "strict" },
    },
  ],
  [
    "tool_call {function:{name, arguments}} envelope (2025 doc)",
    {
      type: "tool_call",
      subtype: "started",
      call_id: CALL_IDS["2025"],
      tool_call: { function: { name: "search_web", arguments: '{"query":"cursor"}' } },
      session_id: SID,
    },
  ],
  [
    "tool_call {tool:{case, value}} envelope (bundle readers)",
    {
      type: "tool_call",
      subtype: "completed",
      call_id: CALL_IDS["2026-early"],
      tool_call: {
        tool: {
          case: "shellToolCall",
          value: { args: { command: "ls" }, result: { result: { case: "success", value: { exitCode: 0 } } } },
        },
      },
      model_call_id: MCID,
      session_id: SID,
      timestamp_ms: TS,
    },
  ],
  ["tool_call with an unknown subtype and empty tool_call", { type: "tool_call", subtype: "progress", call_id: "ws1", tool_call: {}, session_id: SID }],
  [
    "result 2025 (no usage)",
    {
      type: "result",
      subtype: "success",
      duration_ms: 1234,
      duration_api_ms: 1234,
      is_error: false,
      result: "I'll read the README.md file",
      session_id: SID,
      request_id: RID,
    },
  ],
  [
    "result with usage",
    {
      type: "result",
      subtype: "success",
      duration_ms: 1902,
      duration_api_ms: 1902,
      is_error: false,
      result: "alpha",
      session_id: SID,
      request_id: RID,
      usage: { inputTokens: 10528, outputTokens: 28, cacheReadTokens: 5888, cacheWriteTokens: 0 },
    },
  ],
  [
    "result from --output-format json with thinking_blocks",
    {
      type: "result",
      subtype: "success",
      is_error: false,
      duration_ms: 1902,
      duration_api_ms: 1902,
      result: "alpha",
      session_id: SID,
      request_id: RID,
      usage: { inputTokens: 10528, outputTokens: 28, cacheReadTokens: 5888, cacheWriteTokens: 0 },
      thinking_blocks: [{ text: "The user requested a single word." }],
    },
  ],
  [
    "result with is_error (never seen live, defended against)",
    { type: "result", subtype: "error", duration_ms: 10, is_error: true, result: "Authentication required", session_id: SID },
  ],
  [
    "interaction_query/request webFetch",
    {
      type: "interaction_query",
      subtype: "request",
      query_type: "webFetchRequestQuery",
      query: { id: 3, webFetchRequestQuery: { args: { url: "https://example.com", toolCallId: LATE_CALL }, skipApproval: false } },
      session_id: SID,
    },
  ],
  [
    "interaction_query/request createPlan (toolCallId beside args)",
    {
      type: "interaction_query",
      subtype: "request",
      query_type: "createPlanRequestQuery",
      query: { id: 4, createPlanRequestQuery: { args: { plan: "# Plan\n1. x", name: "p", overview: "o" }, toolCallId: LATE_CALL } },
      session_id: SID,
    },
  ],
  [
    "interaction_query/response approved",
    {
      type: "interaction_query",
      subtype: "response",
      query_type: "webFetchRequestQuery",
      response: { id: 3, webFetchRequestResponse: { approved: {} } },
      session_id: SID,
    },
  ],
  [
    "interaction_query/response rejected",
    {
      type: "interaction_query",
      subtype: "response",
      response: { id: 5, askQuestionInteractionResponse: { rejected: { reason: "Questions skipped by the user" } } },
      session_id: SID,
    },
  ],
  [
    "connection/reconnecting",
    {
      type: "connection",
      subtype: "reconnecting",
      session_id: SID,
      timestamp_ms: TS,
      attempt: 1,
      endpoint_url: "https://agentn.global.api5.cursor.sh",
    },
  ],
  ["connection/reconnected", { type: "connection", subtype: "reconnected", session_id: SID, timestamp_ms: TS }],
  ["retry/starting", { type: "retry", subtype: "starting", session_id: SID, timestamp_ms: TS, attempt: 1, is_resume: false }],
  ["retry/resuming", { type: "retry", subtype: "resuming", session_id: SID, timestamp_ms: TS, attempt: 2, checkpoint_turn_count: 3 }],
  ["an unknown event type", { type: "compaction", subtype: "started", session_id: SID, timestamp_ms: TS, tokens: 120000 }],
  ["an unknown event type with no other fields", { type: "heartbeat" }],
];

describe("valid events pass the entry schema", () => {
  for (const { kind, args, result } of KIND_SAMPLES) {
    for (const era of ERAS) {
      for (const [subtype, body] of [
        ["started", { args }],
        ["completed", { args, result }],
      ] as const) {
        test(`${kind} ${subtype} (${era})`, () => {
          const errors = errorsOf(toolEvent(era, subtype, kind, body));
          assert.deepEqual(errors, [], `unexpected errors:\n${describeErrors(errors)}`);
        });
      }
    }
  }

  for (const [name, event] of EVENT_SAMPLES) {
    test(name, () => {
      const errors = errorsOf(event);
      assert.deepEqual(errors, [], `unexpected errors:\n${describeErrors(errors)}`);
    });
  }

  test("call_id keeps its line feed through JSON.stringify/parse", () => {
    const line = JSON.stringify(toolEvent(LATE, "started", "readToolCall", { args: { path: "a" } }));
    assert.ok(line.includes("\\nfc_") && !line.includes("\n"));
    assert.deepEqual(errorsOf(JSON.parse(line)), []);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Broken events
// ---------------------------------------------------------------------------------------------

interface BrokenCase {
  name: string;
  event: unknown;
  instancePath: string;
  keyword: string;
  /** Expected subset of the error's params, e.g. {missingProperty: "call_id"}. */
  params?: Json;
}

const okShellStarted = toolEvent(LATE, "started", "shellToolCall", { args: SHELL_ARGS });
const okResult = EVENT_SAMPLES.find(([n]) => n === "result with usage")![1];
const okInit = EVENT_SAMPLES.find(([n]) => n === "system/init 2026")![1];
const okAssistant = EVENT_SAMPLES.find(([n]) => n === "assistant mid-turn (model_call_id + timestamp_ms)")![1];
const okDelta = EVENT_SAMPLES.find(([n]) => n === "thinking/delta")![1];

function without(obj: Json, key: string): Json {
  const copy = { ...obj };
  delete copy[key];
  return copy;
}

function completed(kind: string, body: Json): Json {
  return toolEvent(LATE, "completed", kind, body);
}

const BROKEN: BrokenCase[] = [
  {
    name: "shell args.command is a number",
    event: toolEvent(LATE, "started", "shellToolCall", { args: { ...SHELL_ARGS, command: 42 } }),
    instancePath: "/tool_call/shellToolCall/args/command",
    keyword: "type",
  },
  {
    name: "result duration_ms is a string",
    event: { ...okResult, duration_ms: "1902" },
    instancePath: "/duration_ms",
    keyword: "type",
  },
  {
    name: "assistant message.content is not an array",
    event: { ...okAssistant, message: { role: "assistant", content: "hello" } },
    instancePath: "/message/content",
    keyword: "type",
  },
  {
    name: "system/init without session_id",
    event: without(okInit, "session_id"),
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "session_id" },
  },
  {
    name: "thinking delta text is a number",
    event: { ...okDelta, text: 7 },
    instancePath: "/text",
    keyword: "type",
  },
  {
    name: "thinking delta without text",
    event: without(okDelta, "text"),
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "text" },
  },
  {
    name: "tool_call without call_id",
    event: without(okShellStarted, "call_id"),
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "call_id" },
  },
  {
    name: "tool_call without tool_call",
    event: without(okShellStarted, "tool_call"),
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "tool_call" },
  },
  {
    name: "tool_call startedAtMs is a number",
    event: { ...okShellStarted, tool_call: { ...(okShellStarted.tool_call as Json), startedAtMs: 1790859572325 } },
    instancePath: "/tool_call/startedAtMs",
    keyword: "type",
  },
  {
    name: "tool_call completedAtMs is not digits",
    event: { ...okShellStarted, tool_call: { ...(okShellStarted.tool_call as Json), completedAtMs: "2026-10-01T12:00:00Z" } },
    instancePath: "/tool_call/completedAtMs",
    keyword: "pattern",
  },
  {
    name: "tool_call call_id is empty",
    event: { ...okShellStarted, call_id: "" },
    instancePath: "/call_id",
    keyword: "minLength",
  },
  {
    name: "tool_call model_call_id without timestamp_ms",
    event: without(okShellStarted, "timestamp_ms"),
    instancePath: "",
    keyword: "dependentRequired",
    params: { property: "model_call_id", missingProperty: "timestamp_ms" },
  },
  {
    name: "started tool_call that names no tool",
    event: { ...okShellStarted, tool_call: { toolCallId: LATE_CALL, startedAtMs: "1" } },
    instancePath: "/tool_call",
    keyword: "not",
  },
  {
    name: "completed tool_call without result",
    event: completed("readToolCall", { args: { path: "a" } }),
    instancePath: "/tool_call/readToolCall",
    keyword: "required",
    params: { missingProperty: "result" },
  },
  {
    name: "shell failure with exitCode 0",
    event: completed("shellToolCall", { args: SHELL_ARGS, result: { failure: { ...SHELL_OUTCOME, aborted: false } } }),
    instancePath: "/tool_call/shellToolCall/result/failure/exitCode",
    keyword: "not",
  },
  {
    name: "shell success without stdout",
    event: completed("shellToolCall", { args: SHELL_ARGS, result: { success: without(SHELL_OUTCOME, "stdout") } }),
    instancePath: "/tool_call/shellToolCall/result/success",
    keyword: "required",
    params: { missingProperty: "stdout" },
  },
  {
    name: "shell fileOutputThresholdBytes is a number",
    event: toolEvent(LATE, "started", "shellToolCall", { args: { ...SHELL_ARGS, fileOutputThresholdBytes: 40000 } }),
    instancePath: "/tool_call/shellToolCall/args/fileOutputThresholdBytes",
    keyword: "type",
  },
  {
    name: "shell rejected without reason",
    event: completed("shellToolCall", { result: { rejected: { command: "ls", workingDirectory: "", isReadonly: false } } }),
    instancePath: "/tool_call/shellToolCall/result/rejected",
    keyword: "required",
    params: { missingProperty: "reason" },
  },
  {
    name: "result with two arms",
    event: completed("shellToolCall", {
      args: SHELL_ARGS,
      result: { success: SHELL_OUTCOME, rejected: { reason: "" }, isBackground: false },
    }),
    instancePath: "/tool_call/shellToolCall/result",
    keyword: "propertyNames",
  },
  {
    name: "read error without errorMessage",
    event: completed("readToolCall", { result: { error: { error: "File not found" } } }),
    instancePath: "/tool_call/readToolCall/result/error",
    keyword: "required",
    params: { missingProperty: "errorMessage" },
  },
  {
    name: "delete success fileSize is a number",
    event: completed("deleteToolCall", {
      args: { path: "/repo/gone.txt" },
      result: { success: { path: "/repo/gone.txt", deletedFile: "/repo/gone.txt", fileSize: 2, prevContent: "x\n" } },
    }),
    instancePath: "/tool_call/deleteToolCall/result/success/fileSize",
    keyword: "type",
  },
  {
    name: "task success durationMs is a number",
    event: completed("taskToolCall", { result: { success: { agentId: "a", durationMs: 2890 } } }),
    instancePath: "/tool_call/taskToolCall/result/success/durationMs",
    keyword: "type",
  },
  {
    name: "edit success linesAdded is a string",
    event: completed("editToolCall", { args: { path: "a" }, result: { success: { path: "a", linesAdded: "1", linesRemoved: 0 } } }),
    instancePath: "/tool_call/editToolCall/result/success/linesAdded",
    keyword: "type",
  },
  {
    name: "unknown tool kind with args that are not an object",
    event: toolEvent(LATE, "started", "frobnicateToolCall", { args: "level=11" }),
    instancePath: "/tool_call/frobnicateToolCall/args",
    keyword: "type",
  },
  {
    name: "function envelope arguments is an object",
    event: { ...okShellStarted, tool_call: { function: { name: "search_web", arguments: { query: "x" } } } },
    instancePath: "/tool_call/function/arguments",
    keyword: "type",
  },
  {
    name: "hookAdditionalContexts is not an array",
    event: { ...okShellStarted, tool_call: { ...(okShellStarted.tool_call as Json), hookAdditionalContexts: {} } },
    instancePath: "/tool_call/hookAdditionalContexts",
    keyword: "type",
  },
  {
    name: "result is_error is a string",
    event: { ...okResult, is_error: "false" },
    instancePath: "/is_error",
    keyword: "type",
  },
  {
    name: "result without result text",
    event: without(okResult, "result"),
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "result" },
  },
  {
    // request_id is optional (the vendor's doc: "may be omitted"); duration_api_ms is not.
    name: "success result without duration_api_ms",
    event: without(okResult, "duration_api_ms"),
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "duration_api_ms" },
  },
  {
    name: "usage without cacheWriteTokens",
    event: { ...okResult, usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3 } },
    instancePath: "/usage",
    keyword: "required",
    params: { missingProperty: "cacheWriteTokens" },
  },
  {
    name: "user message with the assistant role",
    event: { type: "user", message: { role: "assistant", content: [{ type: "text", text: "hi" }] }, session_id: SID },
    instancePath: "/message/role",
    keyword: "const",
  },
  {
    name: "assistant text part without text",
    event: { ...okAssistant, message: { role: "assistant", content: [{ type: "text" }] } },
    instancePath: "/message/content/0",
    keyword: "required",
    params: { missingProperty: "text" },
  },
  {
    name: "assistant timestamp_ms is negative",
    event: { ...okAssistant, timestamp_ms: -1 },
    instancePath: "/timestamp_ms",
    keyword: "minimum",
  },
  {
    name: "assistant timestamp_ms is a string",
    event: { ...okAssistant, timestamp_ms: "1790859572310" },
    instancePath: "/timestamp_ms",
    keyword: "type",
  },
  {
    name: "connection/reconnecting without endpoint_url",
    event: { type: "connection", subtype: "reconnecting", session_id: SID, timestamp_ms: TS, attempt: 1 },
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "endpoint_url" },
  },
  {
    name: "retry/starting is_resume is a string",
    event: { type: "retry", subtype: "starting", session_id: SID, timestamp_ms: TS, attempt: 1, is_resume: "no" },
    instancePath: "/is_resume",
    keyword: "type",
  },
  {
    name: "interaction_query/request without query",
    event: { type: "interaction_query", subtype: "request", query_type: "webFetchRequestQuery", session_id: SID },
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "query" },
  },
  {
    name: "system/task_notification task_id is a number",
    event: { type: "system", subtype: "task_notification", task_id: 339917, status: "success", session_id: SID, timestamp_ms: TS },
    instancePath: "/task_id",
    keyword: "type",
  },
  {
    name: "event type is not a string",
    event: { type: 3, session_id: SID },
    instancePath: "/type",
    keyword: "type",
  },
  {
    name: "event without type",
    event: { subtype: "init", session_id: SID },
    instancePath: "",
    keyword: "required",
    params: { missingProperty: "type" },
  },
  {
    name: "event that is not an object",
    event: ["system", "init"],
    instancePath: "",
    keyword: "type",
  },
];

describe("broken events fail with a specific error", () => {
  for (const c of BROKEN) {
    test(c.name, () => {
      const errors = errorsOf(c.event);
      const matching = errors.filter(
        (e) =>
          e.instancePath === c.instancePath &&
          e.keyword === c.keyword &&
          Object.entries(c.params ?? {}).every(([k, v]) => (e.params as Json)[k] === v),
      );
      assert.ok(
        matching.length > 0,
        `expected an error at "${c.instancePath}" [${c.keyword}] ${JSON.stringify(c.params ?? {})}, got:\n${describeErrors(errors)}`,
      );
      // The dispatch must not report the same problem twice (e.g. once per candidate schema).
      assert.equal(matching.length, 1, `duplicate errors:\n${describeErrors(matching)}`);
    });
  }
});

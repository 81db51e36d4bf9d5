import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENTRY_FILE, readSchemaSet, type SchemaSet } from "./schema/set.js";

export { ENTRY_FILE };

/** schemas/ at the package root (from src/validate/ and from dist/validate/ alike). */
export const BUNDLED_SCHEMA_DIR = fileURLToPath(new URL("../../schemas/", import.meta.url));

/** The `$id` of the cursor-agent entry schema: the default set. */
export const CURSOR_ENTRY_ID = "https://cursorlog.dev/schemas/cursor-agent-event.schema.json";
/** The `$id` of the Claude Code entry schema (schemas/claude-code/). */
export const CLAUDE_CODE_ENTRY_ID = "https://cursorlog.dev/schemas/claude-code/claude-code-event.schema.json";
/** The `$id` of the Gemini CLI entry schema (schemas/gemini/). */
export const GEMINI_ENTRY_ID = "https://cursorlog.dev/schemas/gemini/gemini-event.schema.json";
/** The `$id` of the Codex entry schema (schemas/codex/). */
export const CODEX_ENTRY_ID = "https://cursorlog.dev/schemas/codex/codex-event.schema.json";

/** One bundled schema set: where its files are, which is its entry, and its precompiled module. */
export interface BundledSchemaSetInfo {
  /** The entry schema's `$id`: the set's name. */
  entryId: string;
  /** Its directory (every `*.json` file in it, not recursive). */
  dir: string;
  /** The entry schema's file name in `dir`. */
  entryFile: string;
  /** Its precompiled validators, from src/validate/ (scripts/build-validators.ts writes them, and their .d.ts beside). */
  generated: string;
  /** Its files as the generated module's header names them. */
  sources: string;
}

/** The bundled sets, the default (cursor-agent) first. */
export const BUNDLED_SETS: readonly BundledSchemaSetInfo[] = [
  { entryId: CURSOR_ENTRY_ID, dir: BUNDLED_SCHEMA_DIR, entryFile: ENTRY_FILE, generated: "generated/bundled-validators.js", sources: "schemas/*.schema.json" },
  {
    entryId: CLAUDE_CODE_ENTRY_ID,
    dir: fileURLToPath(new URL("../../schemas/claude-code/", import.meta.url)),
    entryFile: "claude-code-event.schema.json",
    generated: "generated/claude-code-validators.js",
    sources: "schemas/claude-code/*.schema.json",
  },
  {
    entryId: GEMINI_ENTRY_ID,
    dir: fileURLToPath(new URL("../../schemas/gemini/", import.meta.url)),
    entryFile: "gemini-event.schema.json",
    generated: "generated/gemini-validators.js",
    sources: "schemas/gemini/*.schema.json",
  },
  {
    entryId: CODEX_ENTRY_ID,
    dir: fileURLToPath(new URL("../../schemas/codex/", import.meta.url)),
    entryFile: "codex-event.schema.json",
    generated: "generated/codex-validators.js",
    sources: "schemas/codex/*.schema.json",
  },
];

/** The bundled set whose entry schema has this `$id`; a programming error when there is none. */
export function bundledSchemaSetInfo(entryId: string = CURSOR_ENTRY_ID): BundledSchemaSetInfo {
  const info = BUNDLED_SETS.find((s) => s.entryId === entryId);
  if (info === undefined) throw new Error(`no bundled schema set has the entry ${entryId} (known: ${BUNDLED_SETS.map((s) => s.entryId).join(", ")})`);
  return info;
}

/** The files of a bundled set, by its entry's `$id` (cursor-agent's by default). */
export function readBundledSchemaSet(entryId: string = CURSOR_ENTRY_ID): SchemaSet {
  const info = bundledSchemaSetInfo(entryId);
  return readSchemaSet(info.dir, info.entryFile);
}

/** The entry schema's name for `cursorlog schema NAME` (NAME.schema.json is its file). */
export const ENTRY_NAME = ENTRY_FILE.slice(0, -".schema.json".length);

/**
 * The bundled schema names `cursorlog schema NAME` accepts, of the set whose entry is `entryId`
 * (cursor-agent's by default; `--agent claude`: Claude Code's): the entry, event types, then
 * `defs`; NAME.schema.json is each one's file in the set's directory, so `schema NAME >
 * DIR/NAME.schema.json` for each of them makes a directory `validate --schema DIR` reads.
 */
export function bundledSchemaNames(entryId: string = CURSOR_ENTRY_ID): string[] {
  const { dir, entryFile } = bundledSchemaSetInfo(entryId);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".schema.json") && f !== entryFile)
    .map((f) => f.slice(0, -".schema.json".length));
  const types = names.filter((n) => n !== "defs");
  return [entryFile.slice(0, -".schema.json".length), ...types.sort(), ...names.filter((n) => n === "defs")];
}

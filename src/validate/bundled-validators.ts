import { CLAUDE_CODE_ENTRY_ID, CODEX_ENTRY_ID, CURSOR_ENTRY_ID, GEMINI_ENTRY_ID, bundledSchemaSetInfo, readBundledSchemaSet } from "./bundled-schemas.js";
import type { Validators } from "./validators.js";
import { lazy } from "../lazy.js";

/** What each generated module exports: the types build-validators.ts writes beside each (the same for every set). */
type GeneratedModule = typeof import("./generated/bundled-validators.js");

/**
 * Each bundled set's precompiled module, by its entry's `$id`. Written out import by import so
 * that the bundler sees each one (scripts/bundle.mjs puts the Claude Code one in a file of its own:
 * validating a cursor-agent log never parses it).
 */
const GENERATED: Readonly<Record<string, () => Promise<GeneratedModule>>> = {
  [CURSOR_ENTRY_ID]: lazy(() => import("./generated/bundled-validators.js")),
  [CLAUDE_CODE_ENTRY_ID]: lazy(() => import("./generated/claude-code-validators.js")),
  [GEMINI_ENTRY_ID]: lazy(() => import("./generated/gemini-validators.js")),
  [CODEX_ENTRY_ID]: lazy(() => import("./generated/codex-validators.js")),
};

/**
 * The bundled schemas, precompiled at build time (generated/*.js): importing them costs a few
 * milliseconds where compiling them with ajv costs about 80. Loaded on demand so that the other
 * commands never pay for them. `entryId` picks the set by its entry schema's `$id`: cursor-agent's
 * (CURSOR_ENTRY_ID) by default, Claude Code's with CLAUDE_CODE_ENTRY_ID; `.entry` is that entry
 * schema's validator. A set whose schemas name no tool kinds (Claude Code's) has no `toolKinds`:
 * no unknown-kind findings.
 */
export async function loadBundledValidators(entryId: string = CURSOR_ENTRY_ID): Promise<Validators> {
  bundledSchemaSetInfo(entryId); // an unknown id throws here, naming the known ones
  const mod = await GENERATED[entryId]!();
  const byType = new Map(Object.entries(mod.VALIDATORS));
  return {
    byType,
    entry: mod.ENTRY,
    types: new Set(byType.keys()),
    ...(mod.TOOL_KINDS.length > 0 && { toolKinds: new Set(mod.TOOL_KINDS) }),
    schemaSet: () => readBundledSchemaSet(entryId),
  };
}

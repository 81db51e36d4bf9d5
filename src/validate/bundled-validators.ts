import { readBundledSchemaSet } from "./bundled-schemas.js";
import type { ValidateFn, Validators } from "./validators.js";

interface GeneratedModule {
  VALIDATORS: Record<string, ValidateFn>;
  ENTRY: ValidateFn;
  TOOL_KINDS: string[];
}

/**
 * The bundled schemas, precompiled at build time (generated/bundled-validators.ts): importing
 * them costs a few milliseconds where compiling them with ajv costs about 80. Loaded on demand so
 * that the other commands never pay for them.
 */
export async function loadBundledValidators(): Promise<Validators> {
  const mod = (await import("./generated/bundled-validators.js")) as unknown as GeneratedModule;
  const byType = new Map(Object.entries(mod.VALIDATORS));
  return {
    byType,
    entry: mod.ENTRY,
    types: new Set(byType.keys()),
    toolKinds: new Set(mod.TOOL_KINDS),
    schemaSet: readBundledSchemaSet,
  };
}

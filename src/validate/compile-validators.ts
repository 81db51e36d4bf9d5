import Ajv2020Module from "ajv/dist/2020.js";
import { ExitCode } from "../exit-codes.js";
import { schemaFacts } from "./schema/facts.js";
import type { schemaPatternEngine } from "./schema/patterns.js";
import { SchemaPlans } from "./schema/plan.js";
import { SchemaSetError, type SchemaFile, type SchemaSet } from "./schema/set.js";
import type { ValidateFn, Validators } from "./validators.js";

const Ajv2020 = Ajv2020Module.default;

/**
 * Compiles a user's schema set (`--schema PATH`) with ajv at run time: JSON Schema 2020-12, all
 * errors, unknown keywords and formats tolerated (ajv's warnings go to `warn`), `pattern`s run in
 * linear time on `patterns` (schema/patterns.ts, bundled apart and loaded by the caller: a hostile
 * value cannot hang the run). Every file is
 * compiled, so a broken file is reported even when the entry does not use it. Every event goes to
 * the entry schema; the known types and tool kinds are read from it.
 */
export function compileValidators(set: SchemaSet, warn: (message: string) => void, patterns: typeof schemaPatternEngine): Validators {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    allowUnionTypes: true,
    code: { regExp: patterns(warn) },
    logger: { log: () => {}, warn: (...a: unknown[]) => warn(a.join(" ")), error: (...a: unknown[]) => warn(a.join(" ")) },
  });
  for (const f of set.files) attempt(f, () => ajv.addSchema(f.schema, idOf(f) === undefined ? f.name : undefined));
  let entry: ValidateFn | undefined;
  for (const f of set.files) {
    const v = attempt(f, () => ajv.getSchema(keyOf(f)));
    if (f === set.entry) entry = v as ValidateFn;
  }
  if (entry === undefined) throw new SchemaSetError("schema does not compile", ExitCode.SCHEMA, set.entry.path);
  const facts = schemaFacts(new SchemaPlans(set.files).root(set.entry));
  const v: Validators = { byType: new Map(), entry, schemaSet: () => set };
  if (facts.types) v.types = new Set(facts.types);
  if (facts.toolKinds) v.toolKinds = new Set(facts.toolKinds);
  return v;
}

/** ajv knows a schema by its `$id` as written, or by the key it was added with. */
function keyOf(f: SchemaFile): string {
  return idOf(f) ?? f.name;
}

function idOf(f: SchemaFile): string | undefined {
  const id = typeof f.schema === "object" ? (f.schema as { $id?: unknown }).$id : undefined;
  return typeof id === "string" ? id : undefined;
}

/** The `$id`s of the bundled schemas start with this. */
const BUNDLED_ID_BASE = "https://cursorlog.dev/schemas/";

function attempt<T>(f: SchemaFile, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").trim();
    // ajv's MissingRefError: a copy of a bundled file whose siblings were not copied with it.
    const missing = (err as { missingSchema?: unknown }).missingSchema;
    const hint =
      typeof missing === "string" && missing.startsWith(BUNDLED_ID_BASE)
        ? " (the bundled schemas $ref each other: write them all to the directory, as 'cursorlog schema --help' shows)"
        : "";
    throw new SchemaSetError(`schema does not compile: ${message}${hint}`, ExitCode.SCHEMA, f.path);
  }
}

import type { ErrorObject } from "ajv";
import { quote } from "../quote.js";

/** The part of a finding that comes from one ajv error. */
export interface SchemaError {
  path: string;
  keyword: string;
  message: string;
  schemaPath: string;
}

/**
 * ajv's errors for one event as findings: one per problem.
 * - `if` errors ("must match "then" schema") only repeat the errors of the branch: dropped.
 * - `propertyNames` comes with its subschema's error for the same name: kept once, naming the key.
 * - The same error reached through two schemas (a generic and a specific shape) is kept once.
 * - Messages name the values ajv leaves in `params` (const, enum, the extra property).
 */
export function schemaErrors(errors: readonly ErrorObject[] | null | undefined): SchemaError[] {
  const out: SchemaError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    if (e.keyword === "if" || e.propertyName !== undefined) continue;
    const message = messageOf(e);
    const key = `${e.instancePath}\u0000${e.keyword}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: e.instancePath, keyword: e.keyword, message, schemaPath: e.schemaPath });
  }
  return out;
}

/** `not` has no message worth reading; these say what the bundled schemas' `not`s mean. */
const NOT_MESSAGES: ReadonlyArray<readonly [string, string]> = [
  ["/namesATool/not", 'names no tool: expected a key ending in "ToolCall", or "function", or "tool"'],
  ["/exitCode/not", "must not be 0: a command that exits 0 completes as success, not failure"],
];

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "const":
      return `must be equal to constant ${quote(p.allowedValue)}`;
    case "enum": {
      const values = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      const shown = values.slice(0, 8).map((v) => quote(v)).join(", ");
      return `must be equal to one of the allowed values: ${shown}${values.length > 8 ? ", …" : ""}`;
    }
    case "additionalProperties":
      return `must NOT have additional property ${quote(p.additionalProperty)}`;
    case "unevaluatedProperties":
      return `must NOT have unevaluated property ${quote(p.unevaluatedProperty)}`;
    case "propertyNames":
      return `property name ${quote(p.propertyName)} is not allowed`;
    case "not":
      for (const [suffix, message] of NOT_MESSAGES) if (e.schemaPath.endsWith(suffix)) return message;
      return e.message ?? "must NOT be valid";
    default:
      return e.message ?? `fails "${e.keyword}"`;
  }
}

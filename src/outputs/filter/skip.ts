import type { PredicateSpec } from "../../query/predicate.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import { keepWhole, skipAllBut, skipTypes, type RawSkip } from "../../input/raw-skip.js";

/**
 * The lines `cursorlog filter` may leave undecoded and unparsed (raw-skip.ts): those whose type
 * alone makes the predicate false. `--type` keeps only its types; `--tool` and `--status` only
 * match tool_call events; `--exclude-type` drops its types. Other predicates can hold for any type,
 * so they add nothing here. Undefined when every line must be read.
 */
export function rawSkipFor(spec: PredicateSpec): RawSkip | undefined {
  const excluded = new Set(spec.excludeTypes ?? []);
  let kept: string[] | undefined;
  if (spec.types?.length) kept = [...spec.types];
  const calls = cursorDialect.callLineTypes ?? [];
  if (spec.tools?.length || spec.statuses?.length) kept = (kept ?? [...calls]).filter((t) => calls.includes(t));
  const skip = kept !== undefined ? skipAllBut(kept.filter((t) => !excluded.has(t))) : skipTypes([...excluded]);
  if (!typeOnly(spec)) return skip;
  // The type alone decides: a matching line is written as its bytes, never decoded or parsed.
  const types = spec.types?.length ? new Set(spec.types) : undefined;
  return keepWhole(skip, (t) => (types === undefined || types.has(t)) && !excluded.has(t));
}

/** Only --type / --exclude-type given (at least one): nothing but the type can reject a line. */
function typeOnly(spec: PredicateSpec): boolean {
  const other = [spec.subtypes, spec.tools, spec.statuses, spec.sessions, spec.callIds, spec.modelCallIds, spec.where];
  return (spec.types?.length ?? 0) + (spec.excludeTypes?.length ?? 0) > 0 && other.every((l) => !l?.length);
}

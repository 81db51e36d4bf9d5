import type { PredicateSpec } from "../events/predicate.js";
import { skipAllBut, skipTypes, type RawSkip } from "../input/raw-skip.js";

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
  if (spec.tools?.length || spec.statuses?.length) kept = (kept ?? ["tool_call"]).filter((t) => t === "tool_call");
  if (kept !== undefined) return skipAllBut(kept.filter((t) => !excluded.has(t)));
  return skipTypes([...excluded]);
}

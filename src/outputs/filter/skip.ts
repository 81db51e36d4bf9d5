import { hasCallPredicates, type PredicateSpec } from "../../query/predicate.js";
import { cursorDialect } from "../../dialects/cursor/reader.js";
import type { Dialect } from "../../dialects/dialect.js";
import { keepWhole, skipAllBut, skipTypes, type RawSkip } from "../../input/raw-skip.js";

/**
 * The lines `cursorlog filter` may leave undecoded and unparsed (raw-skip.ts) in a file of
 * `dialect` (cursor-agent's by default): those whose type alone makes the predicate false. `--type`
 * keeps only its types; `--tool` and `--status` only match the lines of the dialect's callLineTypes
 * (cursor-agent's tool_call events); `--exclude-type` drops its types. Other predicates can hold
 * for any type, so they add nothing here. Undefined when every line must be read.
 *
 * A dialect whose calls span line types (no callLineTypes: Claude Code's) with --tool, --status or
 * --call-id: its calls are selected on the run model, which reads every line but those the
 * dialect's reader does not need (Dialect.skipUnread), and those hold no call, so none can match.
 */
export function rawSkipFor(spec: PredicateSpec, dialect: Dialect = cursorDialect): RawSkip | undefined {
  if (dialect.callLineTypes === undefined && hasCallPredicates(spec)) return dialect.skipUnread({});
  const excluded = new Set(spec.excludeTypes ?? []);
  let kept: string[] | undefined;
  if (spec.types?.length) kept = [...spec.types];
  const calls = dialect.callLineTypes ?? [];
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

import type { JsonObject } from "../input/record.js";
import { toolCallOf } from "../dialects/cursor/tool-call.js";
import { isPlainObject } from "../dialects/cursor/types.js";

export type EventTest = (ev: JsonObject) => boolean;

/** The stateless predicates of `cursorlog filter`. Each list ORs its values; the lists AND together. */
export interface PredicateSpec {
  types?: readonly string[];
  subtypes?: readonly string[];
  excludeTypes?: readonly string[];
  /** Tool kind, by short name (`shell`) or full key (`shellToolCall`); tool_call events only. */
  tools?: readonly string[];
  /** Result arm (`success`, `failure`, `rejected`, `error`, …) of completed tool calls. */
  statuses?: readonly string[];
  sessions?: readonly string[];
  callIds?: readonly string[];
  modelCallIds?: readonly string[];
  /** Compiled `--where` clauses (see where-clause.ts). */
  where?: readonly EventTest[];
}

/**
 * Compiles the predicates once into a single test, cheapest first; `undefined` when there are
 * none (everything matches). `--type X` alone is one property read and one comparison.
 */
export function compilePredicate(spec: PredicateSpec): EventTest | undefined {
  const tests: EventTest[] = [];
  if (spec.types?.length) tests.push(fieldIn("type", spec.types));
  if (spec.subtypes?.length) tests.push(fieldIn("subtype", spec.subtypes));
  if (spec.excludeTypes?.length) {
    const isExcluded = fieldIn("type", spec.excludeTypes);
    tests.push((ev) => !isExcluded(ev));
  }
  if (spec.sessions?.length) tests.push(fieldIn("session_id", spec.sessions));
  if (spec.callIds?.length) tests.push(fieldIn("call_id", spec.callIds));
  if (spec.modelCallIds?.length) tests.push(fieldIn("model_call_id", spec.modelCallIds));
  if (spec.tools?.length || spec.statuses?.length) tests.push(toolTest(spec.tools, spec.statuses));
  if (spec.where) tests.push(...spec.where);
  if (tests.length === 0) return undefined;
  return tests.reduce((a, b) => (ev) => a(ev) && b(ev));
}

function fieldIn(field: string, values: readonly string[]): EventTest {
  if (values.length === 1) {
    const only = values[0];
    return (ev) => ev[field] === only;
  }
  const set = new Set<unknown>(values);
  return (ev) => set.has(ev[field]);
}

function toolTest(tools: readonly string[] | undefined, statuses: readonly string[] | undefined): EventTest {
  const kinds = tools?.length ? new Set(tools) : undefined;
  const arms = statuses?.length ? new Set(statuses) : undefined;
  return (ev) => {
    if (ev.type !== "tool_call" || !isPlainObject(ev.tool_call)) return false;
    if (arms !== undefined && ev.subtype !== "completed") return false;
    const call = toolCallOf(ev.tool_call);
    if (kinds !== undefined && !kinds.has(call.kind) && !kinds.has(call.tool)) return false;
    return arms === undefined || (call.status !== undefined && arms.has(call.status));
  };
}

import type { JsonObject } from "../input/record.js";
import { toolCallOf } from "../dialects/cursor/tool-call.js";
import { isPlainObject } from "../dialects/cursor/types.js";
import type { CallStatus } from "../model/status.js";
import type { CallEvent } from "../model/run.js";

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

/**
 * Whether the line's calls (Step.calls: those it starts, starts again or completes) hold one that
 * the call predicates select.
 */
export type CallTest = (calls: readonly CallEvent[] | undefined) => boolean;

/** The predicates that select tool calls: --tool, --status, --call-id. */
export function hasCallPredicates(spec: PredicateSpec): boolean {
  return (spec.tools?.length ?? 0) + (spec.statuses?.length ?? 0) + (spec.callIds?.length ?? 0) > 0;
}

/**
 * The predicates a line's own fields decide, whatever its agent: all but the call predicates
 * (those are compileCallPredicate's, on the run model). Undefined when there are none.
 */
export function compileLinePredicate(spec: PredicateSpec): EventTest | undefined {
  return compilePredicate({ ...spec, tools: undefined, statuses: undefined, callIds: undefined });
}

/**
 * The result arms of cursor-agent (the values --status resolves to) that name a status bin of the
 * run model (model/status.ts), for an agent whose calls carry no such word (Claude Code's ok and
 * failed calls: `is_error` alone). `timeout` and `spawnError` name none: Claude Code cannot tell them.
 */
const BIN_OF_ARM: Readonly<Record<string, CallStatus>> = {
  success: "ok",
  failure: "failed",
  error: "failed",
  rejected: "refused",
  permissionDenied: "refused",
  readPermissionDenied: "refused",
  writePermissionDenied: "refused",
};

/**
 * --tool, --status and --call-id on the run model, for a log whose calls are not told whole by
 * one line each (Claude Code's: a call starts in an assistant line and completes in a user line):
 * a line is selected when it starts, starts again or completes a call that matches them all.
 * --tool: the call's kind (Call.kind) or its tool as the agent names it (Call.tool); --call-id:
 * its id; --status: only a completion, its arm as written (Call.arm: a refusal's word), else the
 * bin the value names (success: ok; failure and error: failed; rejected and the permission
 * denials: refused). Undefined when there are no call predicates.
 */
export function compileCallPredicate(spec: PredicateSpec): CallTest | undefined {
  if (!hasCallPredicates(spec)) return undefined;
  const kinds = spec.tools?.length ? new Set(spec.tools) : undefined;
  const arms = spec.statuses?.length ? new Set<string | undefined>(spec.statuses) : undefined;
  const bins = new Set<CallStatus>();
  for (const a of spec.statuses ?? []) if (Object.hasOwn(BIN_OF_ARM, a)) bins.add(BIN_OF_ARM[a]!);
  const ids = spec.callIds?.length ? new Set(spec.callIds) : undefined;
  return (calls) => {
    if (calls === undefined) return false;
    for (const e of calls) {
      const c = e.call;
      if (ids !== undefined && !ids.has(c.id)) continue;
      if (kinds !== undefined && !kinds.has(c.kind) && !kinds.has(c.tool)) continue;
      if (arms !== undefined && (e.what !== "done" || !(arms.has(c.arm) || bins.has(c.status)))) continue;
      return true;
    }
    return false;
  };
}

import { expandPlans, isObj, SchemaPlans, type Plan } from "./schema/plan.js";
import type { SchemaSet } from "./schema/set.js";

/**
 * --strict: the fields of an event that no schema names, found by walking the event alongside the
 * schemas (properties, patternProperties, $ref, allOf, if/then as the event's values decide).
 * Objects the schemas say nothing about (no property named at all, like an unknown kind's args)
 * are not looked into, and keys ajv itself reports (additionalProperties: false) are left to it.
 */
export class UnknownFields {
  private readonly root: Plan;

  constructor(set: SchemaSet) {
    this.root = new SchemaPlans(set.files).root(set.entry);
  }

  /** The unknown fields, in document order: the JSON Pointer of the object holding each, and its key. */
  find(event: Record<string, unknown>): UnknownField[] {
    const out: UnknownField[] = [];
    walk(event, [this.root], [], out);
    return out;
  }
}

export interface UnknownField {
  parent: string;
  key: string;
}

/** `at` is the path to `value` as keys, joined into a pointer only for a report (no string per key). */
function walk(value: unknown, plans: Plan[], at: string[], out: UnknownField[]): void {
  if (Array.isArray(value)) {
    const items = plans.length === 1 ? plans[0]!.items : plans.flatMap((p) => p.items);
    if (items.length === 0) return;
    for (let i = 0; i < value.length; i++) {
      at.push(String(i));
      walk(value[i], items, at, out);
      at.pop();
    }
    return;
  }
  if (!isObj(value)) return;
  const eff = plans.some(conditional) ? expandPlans(plans, value) : plans;
  let names = false;
  let report = true;
  for (const p of eff) {
    if (p.names) names = true;
    if (p.anyKey || p.closed) report = false;
  }
  if (!names) return;
  for (const key in value) {
    const sub = subPlans(eff, key);
    if (sub !== undefined) {
      at.push(key);
      walk(value[key], sub, at, out);
      at.pop();
    } else if (report) {
      out.push({ parent: at.map((k) => "/" + k.replace(/~/g, "~0").replace(/\//g, "~1")).join(""), key });
    }
  }
}

function conditional(p: Plan): boolean {
  return p.conds.length > 0 || p.deps.length > 0;
}

/** The plans for the value under `key`, or undefined when no schema names it (shared arrays are never changed). */
function subPlans(eff: readonly Plan[], key: string): Plan[] | undefined {
  let sub: Plan[] | undefined;
  for (const p of eff) {
    sub = join(sub, p.props.get(key));
    for (const pat of p.patterns) if (pat.re.test(key)) sub = join(sub, pat.plans);
  }
  if (sub === undefined) for (const p of eff) if (p.additional.length > 0) sub = join(sub, p.additional);
  return sub;
}

/** `a` then `b`, sharing `a` or `b` when the other is missing (the common case: one schema names the key). */
function join(a: Plan[] | undefined, b: Plan[] | undefined): Plan[] | undefined {
  if (b === undefined) return a;
  if (a === undefined) return b;
  return [...a, ...b];
}

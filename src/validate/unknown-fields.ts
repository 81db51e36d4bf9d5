import { expandPlans, isObj, SchemaPlans, type Plan } from "./schema-plan.js";
import type { SchemaSet } from "./schema-set.js";

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
    walk(event, [this.root], "", out);
    return out;
  }
}

export interface UnknownField {
  parent: string;
  key: string;
}

function walk(value: unknown, plans: Plan[], path: string, out: UnknownField[]): void {
  if (Array.isArray(value)) {
    const items = plans.flatMap((p) => p.items);
    if (items.length === 0) return;
    for (let i = 0; i < value.length; i++) walk(value[i], items, `${path}/${i}`, out);
    return;
  }
  if (!isObj(value)) return;
  const eff = expandPlans(plans, value);
  let names = false;
  let report = true;
  for (const p of eff) {
    if (p.names) names = true;
    if (p.anyKey || p.closed) report = false;
  }
  if (!names) return;
  for (const key of Object.keys(value)) {
    const sub: Plan[] = [];
    let known = false;
    for (const p of eff) {
      const props = p.props.get(key);
      if (props !== undefined) {
        known = true;
        sub.push(...props);
      }
      for (const pat of p.patterns) {
        if (pat.re.test(key)) {
          known = true;
          sub.push(...pat.plans);
        }
      }
    }
    if (!known) {
      for (const p of eff) sub.push(...p.additional);
      known = sub.length > 0;
    }
    if (known) walk(value[key], sub, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
    else if (report) out.push({ parent: path, key });
  }
}

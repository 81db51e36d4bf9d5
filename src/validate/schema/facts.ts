import { expandPlans, type Plan } from "./plan.js";

/** What a schema set knows, read from its entry schema: the basis of the unknown-type and unknown-kind findings. */
export interface SchemaFacts {
  /** Event types the entry dispatches on (`if: {properties: {type: {const}}}`); undefined when it names none. */
  types?: string[];
  /** Tool kinds: the `…ToolCall` properties the schemas name under a tool_call event's `tool_call`. */
  toolKinds?: string[];
}

const KIND = /.ToolCall$/;

export function schemaFacts(entry: Plan): SchemaFacts {
  const types = new Set<string>();
  for (const p of expandPlans([entry], {})) {
    for (const c of p.conds) {
      if (c.on?.key !== "type") continue;
      for (const v of c.on.values) if (typeof v === "string") types.add(v);
    }
  }
  const kinds = new Set<string>();
  for (const subtype of ["started", "completed"]) {
    const event = { type: "tool_call", subtype };
    const envelopes = expandPlans([entry], event).flatMap((p) => p.props.get("tool_call") ?? []);
    for (const p of expandPlans(envelopes, {})) for (const key of p.props.keys()) if (KIND.test(key)) kinds.add(key);
  }
  const facts: SchemaFacts = {};
  if (types.size > 0) facts.types = [...types].sort();
  if (kinds.size > 0) facts.toolKinds = [...kinds].sort();
  return facts;
}

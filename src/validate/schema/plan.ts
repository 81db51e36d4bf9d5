import type { SchemaFile } from "./set.js";

type Obj = Record<string, unknown>;

/** A test on an object from a simple `if` (`properties` with `const`/`enum`, `required`); undefined: cannot tell. */
type CondTest = (v: Obj) => boolean | undefined;

interface Cond {
  test: CondTest;
  /** When the `if` looks at one key's constant values only: that key and the values. */
  on?: { key: string; values: unknown[] };
  then: Plan[];
  else: Plan[];
}

/**
 * What one schema says about the keys of the object it applies to: the property names it knows,
 * with their subschemas, `$ref`s, `allOf`/`anyOf`/`oneOf` merged in, `if`/`then` kept as
 * conditions. `cursorlog validate --strict` walks an event alongside these to find the fields no
 * schema names, and the unknown-type / unknown-kind checks read the names from them.
 */
export class Plan {
  readonly props = new Map<string, Plan[]>();
  readonly patterns: Array<{ re: RegExp; plans: Plan[] }> = [];
  readonly additional: Plan[] = [];
  readonly conds: Cond[] = [];
  readonly deps: Array<{ key: string; plans: Plan[] }> = [];
  readonly items: Plan[] = [];
  /** Names some property (properties, patternProperties, additionalProperties). */
  names = false;
  /** Allows any key (`additionalProperties: true`, or a `$ref` that could not be followed). */
  anyKey = false;
  /** `additionalProperties: false`: ajv itself reports extra keys. */
  closed = false;
}

/** Builds Plans for the schemas of one set, following `$ref`s by `$id`, file name and JSON Pointer. */
export class SchemaPlans {
  private readonly docs = new Map<string, unknown>();
  private readonly memo = new WeakMap<object, Plan>();

  constructor(files: readonly SchemaFile[]) {
    for (const f of files) this.docs.set(f.base, f.schema);
  }

  /** The plan of a file's root schema. */
  root(file: SchemaFile): Plan {
    return this.planFor(file.schema, file.base);
  }

  planFor(node: unknown, base: string): Plan {
    if (!isObj(node)) return EMPTY;
    const known = this.memo.get(node);
    if (known !== undefined) return known;
    const plan = new Plan();
    this.memo.set(node, plan);
    this.merge(node, base, plan, new Set());
    return plan;
  }

  /** Adds what `node` says to `plan`; `$ref` targets and `allOf`/`anyOf`/`oneOf` branches merge in. */
  private merge(node: unknown, base: string, plan: Plan, seen: Set<object>): void {
    if (!isObj(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$id === "string") base = resolveBase(node.$id, base);
    if (typeof node.$ref === "string") {
      const target = this.resolve(node.$ref, base);
      if (target === undefined) plan.anyKey = true;
      else this.merge(target.node, target.base, plan, seen);
    }
    if (isObj(node.properties)) {
      plan.names = true;
      for (const [key, sub] of Object.entries(node.properties)) push(plan.props, key, this.planFor(sub, base));
    }
    if (isObj(node.patternProperties)) {
      plan.names = true;
      for (const [pattern, sub] of Object.entries(node.patternProperties)) {
        const re = safeRegExp(pattern);
        if (re === undefined) plan.anyKey = true;
        else plan.patterns.push({ re, plans: [this.planFor(sub, base)] });
      }
    }
    for (const k of ["additionalProperties", "unevaluatedProperties"]) {
      const add = node[k];
      if (add === true || (isObj(add) && Object.keys(add).length === 0)) plan.anyKey = true;
      else if (add === false) {
        plan.names = true;
        plan.closed = true;
      } else if (isObj(add)) {
        plan.names = true;
        plan.additional.push(this.planFor(add, base));
      }
    }
    for (const k of ["allOf", "anyOf", "oneOf"]) {
      const list = node[k];
      if (Array.isArray(list)) for (const sub of list) this.merge(sub, base, plan, seen);
    }
    if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
      const cond: Cond = {
        test: condTest(node.if),
        then: node.then === undefined ? [] : [this.planFor(node.then, base)],
        else: node.else === undefined ? [] : [this.planFor(node.else, base)],
      };
      const on = constCondition(node.if);
      if (on) cond.on = on;
      plan.conds.push(cond);
    }
    if (isObj(node.dependentSchemas)) {
      for (const [key, sub] of Object.entries(node.dependentSchemas)) plan.deps.push({ key, plans: [this.planFor(sub, base)] });
    }
    if (node.items !== undefined && typeof node.items !== "boolean") plan.items.push(this.planFor(node.items, base));
    if (Array.isArray(node.prefixItems)) for (const sub of node.prefixItems) plan.items.push(this.planFor(sub, base));
  }

  private resolve(ref: string, base: string): { node: unknown; base: string } | undefined {
    let url: URL;
    try {
      url = new URL(ref, base);
    } catch {
      return undefined;
    }
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    let node = this.docs.get(url.href);
    if (node === undefined) return undefined;
    if (fragment === "") return { node, base: url.href };
    if (!fragment.startsWith("/")) return undefined; // $anchor names: not followed
    for (const token of fragment.slice(1).split("/")) {
      const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
      if (typeof node !== "object" || node === null) return undefined;
      node = (node as Obj)[key];
      if (node === undefined) return undefined;
    }
    return { node, base: url.href };
  }
}

const EMPTY = new Plan();

/** The plans that apply to object `v`: the given ones plus every condition branch and dependent schema it triggers. */
export function expandPlans(plans: readonly Plan[], v: Obj): Plan[] {
  const out: Plan[] = [];
  const stack = [...plans];
  const seen = new Set<Plan>();
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    out.push(p);
    for (const c of p.conds) {
      const r = c.test(v);
      if (r !== false) stack.push(...c.then);
      if (r !== true) stack.push(...c.else);
    }
    for (const d of p.deps) if (Object.hasOwn(v, d.key)) stack.push(...d.plans);
  }
  return out;
}

function push(map: Map<string, Plan[]>, key: string, plan: Plan): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [plan]);
  else if (!list.includes(plan)) list.push(plan);
}

function resolveBase(id: string, base: string): string {
  try {
    const url = new URL(id, base);
    url.hash = "";
    return url.href;
  } catch {
    return base;
  }
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
}

const IF_KEYS = new Set(["type", "properties", "required", "description", "$comment"]);
const IF_PROP_KEYS = new Set(["const", "enum", "type", "description", "$comment"]);

/** `{properties: {k: {const|enum}}, required: [...]}` as a test; anything else cannot be told. */
function condTest(ifNode: unknown): CondTest {
  const unknown: CondTest = () => undefined;
  if (!isObj(ifNode) || !Object.keys(ifNode).every((k) => IF_KEYS.has(k))) return unknown;
  const props = isObj(ifNode.properties) ? Object.entries(ifNode.properties) : [];
  const required = Array.isArray(ifNode.required) ? ifNode.required.filter((r): r is string => typeof r === "string") : [];
  const keys: string[] = [];
  const allowed: Array<(x: unknown) => boolean> = [];
  for (const [key, sub] of props) {
    if (!isObj(sub) || !Object.keys(sub).every((k) => IF_PROP_KEYS.has(k))) return unknown;
    const values = Object.hasOwn(sub, "const") ? [sub.const] : Array.isArray(sub.enum) ? sub.enum : undefined;
    if (values === undefined) continue;
    keys.push(key);
    if (values.every((x) => x === null || typeof x !== "object")) {
      const set = new Set(values);
      allowed.push((x) => set.has(x));
    } else {
      allowed.push((x) => values.some((y) => jsonEqual(y, x)));
    }
  }
  // Runs for every object of every event under --strict: plain loops, no allocation.
  return (v) => {
    for (let i = 0; i < required.length; i++) if (!Object.hasOwn(v, required[i]!)) return false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (Object.hasOwn(v, key) && !allowed[i]!(v[key])) return false;
    }
    return true;
  };
}

/** `{properties: {k: {const: c}}, required: [k]}` (the dispatch the bundled schemas use): k and c. */
function constCondition(ifNode: unknown): { key: string; values: unknown[] } | undefined {
  if (!isObj(ifNode) || !isObj(ifNode.properties)) return undefined;
  const entries = Object.entries(ifNode.properties);
  if (entries.length !== 1) return undefined;
  const [key, sub] = entries[0]!;
  if (!isObj(sub) || !Array.isArray(ifNode.required) || !ifNode.required.includes(key)) return undefined;
  if (Object.hasOwn(sub, "const")) return { key, values: [sub.const] };
  if (Array.isArray(sub.enum)) return { key, values: sub.enum };
  return undefined;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

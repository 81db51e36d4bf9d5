// The precompiled validators (src/validate/generated/bundled-validators.ts) are up to date, and
// they judge events exactly as ajv compiling schemas/ at run time does, even though the generator
// turns off what the bundled schemas do not use (unevaluated-property tracking, $dynamicRef,
// unicode string lengths) and validate dispatches on `type` itself instead of through the entry.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject } from "ajv";
import { readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { loadBundledValidators } from "../src/validate/bundled-validators.js";
import { schemaErrors } from "../src/validate/schema/findings.js";
import { BUNDLED_AJV_OPTIONS, standaloneSource } from "../src/validate/standalone-source.js";
import type { ValidateFn } from "../src/validate/validators.js";

const Ajv2020 = Ajv2020Module.default;
type Json = Record<string, unknown>;

const set = readBundledSchemaSet();
const runtime = new Ajv2020({ ...BUNDLED_AJV_OPTIONS });
for (const f of set.files) runtime.addSchema(f.schema as object);
const runtimeEntry = runtime.getSchema(set.entry.base)!;
const runtimeByType = (type: string) => runtime.getSchema(`https://cursorlog.dev/schemas/${type}.schema.json`);

/** Every JSON object line of every fixture (the broken validate/ ones included). */
function fixtureEvents(): Array<{ where: string; event: Json }> {
  const out: Array<{ where: string; event: Json }> = [];
  for (const dir of ["test/fixtures", "test/fixtures/validate", "test/fixtures/timeline", "test/fixtures/filter"]) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".ndjson")).sort()) {
      readFileSync(`${dir}/${name}`, "utf8")
        .split(/\r?\n/)
        .forEach((line, i) => {
          try {
            const v: unknown = JSON.parse(line.replace(/^\ufeff/, ""));
            if (typeof v === "object" && v !== null && !Array.isArray(v)) out.push({ where: `${dir}/${name}:${i + 1}`, event: v as Json });
          } catch {
            // not an event
          }
        });
    }
  }
  return out;
}

/** Mutations that break events in many places: wrong types, missing fields, bad nesting. */
function mutations(event: Json): Json[] {
  const out: Json[] = [];
  for (const key of Object.keys(event)) {
    if (key === "type") continue;
    const { [key]: _dropped, ...without } = event;
    out.push(without);
    out.push({ ...event, [key]: 12345 });
    out.push({ ...event, [key]: "" });
    out.push({ ...event, [key]: [null] });
  }
  const tc = event.tool_call;
  if (typeof tc === "object" && tc !== null) {
    for (const [kind, body] of Object.entries(tc)) {
      if (typeof body !== "object" || body === null) continue;
      for (const [part, value] of Object.entries(body)) {
        out.push({ ...event, tool_call: { ...tc, [kind]: { ...body, [part]: "x" } } });
        if (typeof value === "object" && value !== null) {
          for (const k of Object.keys(value)) out.push({ ...event, tool_call: { ...tc, [kind]: { ...body, [part]: { ...value, [k]: { nested: true } } } } });
        }
      }
    }
  }
  return out;
}

function key(e: ErrorObject): string {
  return JSON.stringify([e.instancePath, e.keyword, e.message, e.params]);
}

function sortedKeys(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(key).sort();
}

test("the generated module is up to date with schemas/ (run `node --import tsx scripts/build-validators.ts`)", () => {
  const committed = readFileSync("src/validate/generated/bundled-validators.ts", "utf8");
  assert.ok(committed === standaloneSource(set), "src/validate/generated/bundled-validators.ts is stale");
});

describe("precompiled validators agree with ajv compiling schemas/ at run time", async () => {
  const bundled = await loadBundledValidators();
  const events = fixtureEvents();
  const all = events.flatMap(({ where, event }) => [{ where, event }, ...mutations(event).map((m, i) => ({ where: `${where} mutation ${i}`, event: m }))]);

  test(`${all.length} events, fixtures and their mutations: per-type validator = runtime per-type schema`, () => {
    let checked = 0;
    for (const { where, event } of all) {
      const type = event.type;
      const generated = typeof type === "string" ? bundled.byType.get(type) : undefined;
      if (generated === undefined) continue;
      const reference = runtimeByType(type as string)!;
      const ok = generated(event);
      assert.equal(ok, reference(event), `${where}: verdicts differ`);
      assert.deepEqual(sortedKeys(generated.errors), sortedKeys(reference.errors), `${where}: errors differ`);
      checked++;
    }
    assert.ok(checked > 1000, `only ${checked} events checked`);
  });

  test("dispatching on type finds the same problems as the entry schema (its if/then echoes aside)", () => {
    for (const { where, event } of all) {
      const type = event.type;
      const own = typeof type === "string" ? bundled.byType.get(type) : undefined;
      const v: ValidateFn = own ?? bundled.entry;
      const ok = v(event);
      assert.equal(ok, runtimeEntry(event), `${where}: verdicts differ`);
      const mine = schemaErrors(v.errors).map((e) => JSON.stringify([e.path, e.keyword, e.message]));
      const theirs = schemaErrors(runtimeEntry.errors).map((e) => JSON.stringify([e.path, e.keyword, e.message]));
      assert.deepEqual(mine.sort(), theirs.sort(), `${where}: problems differ`);
    }
  });

  test("the generated entry validator equals the runtime entry", () => {
    for (const { where, event } of all.slice(0, 3000)) {
      assert.equal(bundled.entry(event), runtimeEntry(event), where);
      assert.deepEqual(sortedKeys(bundled.entry.errors), sortedKeys(runtimeEntry.errors), where);
    }
  });

  test("strings with surrogate pairs: minLength counts the same either way", () => {
    const v = bundled.byType.get("user")!;
    const event = { type: "user", message: { role: "user", content: [{ type: "text", text: "😀" }] }, session_id: "😀" };
    assert.equal(v(event), true);
    assert.equal(v({ ...event, session_id: "" }), false);
  });
});

test("the known types are the entry's dispatch and have a schema file each; the kinds are tool_call's $defs", async () => {
  const bundled = await loadBundledValidators();
  const entry = JSON.parse(readFileSync("schemas/cursor-agent-event.schema.json", "utf8")) as { allOf: Array<{ if: { properties: { type: { const: string } } } }> };
  const dispatched = entry.allOf.map((b) => b.if.properties.type.const).sort();
  assert.deepEqual([...bundled.types!].sort(), dispatched);
  for (const t of dispatched) assert.ok(readdirSync("schemas").includes(`${t}.schema.json`));
  const toolCall = JSON.parse(readFileSync("schemas/tool_call.schema.json", "utf8")) as { $defs: Record<string, unknown> };
  assert.deepEqual([...bundled.toolKinds!].sort(), Object.keys(toolCall.$defs).filter((k) => k.endsWith("ToolCall")).sort());
});

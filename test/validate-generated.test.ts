// The precompiled validators (src/validate/generated/bundled-validators.js, and
// claude-code-validators.js for schemas/claude-code/) are up to date, and they judge events exactly
// as ajv compiling schemas/ at run time does (one Ajv holding both sets), even though the generator
// turns off what the bundled schemas do not use (unevaluated-property tracking, $dynamicRef,
// unicode string lengths) and validate dispatches on `type` itself instead of through the entry.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject } from "ajv";
import { BUNDLED_SETS, CLAUDE_CODE_ENTRY_ID, readBundledSchemaSet } from "../src/validate/bundled-schemas.js";
import { loadBundledValidators } from "../src/validate/bundled-validators.js";
import { schemaErrors } from "../src/validate/schema/findings.js";
import { BUNDLED_AJV_OPTIONS, standaloneSource, standaloneTypes } from "../src/validate/standalone-source.js";
import type { ValidateFn } from "../src/validate/validators.js";

const Ajv2020 = Ajv2020Module.default;
type Json = Record<string, unknown>;

const set = readBundledSchemaSet();
const claudeSet = readBundledSchemaSet(CLAUDE_CODE_ENTRY_ID);
const runtime = new Ajv2020({ ...BUNDLED_AJV_OPTIONS });
for (const f of [...set.files, ...claudeSet.files]) runtime.addSchema(f.schema as object);
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

test("the generated modules and their types are up to date with schemas/ (run `node --import tsx scripts/build-validators.ts`)", () => {
  for (const info of BUNDLED_SETS) {
    const file = `src/validate/${info.generated}`;
    assert.ok(readFileSync(file, "utf8") === standaloneSource(readBundledSchemaSet(info.entryId), info.sources), `${file} is stale`);
    const types = file.replace(/\.js$/, ".d.ts");
    assert.equal(readFileSync(types, "utf8"), standaloneTypes(info.sources), `${types} is stale`);
  }
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

// ---------------------------------------------------------------------------------------------
// The Claude Code set (schemas/claude-code/, generated/claude-code-validators.js)
// ---------------------------------------------------------------------------------------------

const claudeRuntimeEntry = runtime.getSchema(CLAUDE_CODE_ENTRY_ID)!;
const claudeRuntimeByType = (type: string) => runtime.getSchema(`https://cursorlog.dev/schemas/claude-code/${type}.schema.json`);

/** Every line of the Claude Code fixtures. */
function claudeFixtureEvents(): Array<{ where: string; event: Json }> {
  const dir = "test/fixtures/claude";
  return readdirSync(dir)
    .filter((n) => n.endsWith(".ndjson"))
    .sort()
    .flatMap((name) =>
      readFileSync(`${dir}/${name}`, "utf8")
        .trimEnd()
        .split("\n")
        .map((line, i) => ({ where: `${dir}/${name}:${i + 1}`, event: JSON.parse(line) as Json })),
    );
}

/** mutations(), and the same one level down: in `message`, its first content block, `tool_use_result`, `event`, `rate_limit_info`. */
function claudeMutations(event: Json): Json[] {
  const out = mutations(event);
  const nested = (key: string, value: unknown, rebuild: (v: Json) => Json) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    for (const m of mutations(value as Json)) out.push(rebuild(m));
    void key;
  };
  for (const key of ["message", "tool_use_result", "event", "rate_limit_info", "compact_metadata", "patch", "usage"]) {
    nested(key, event[key], (v) => ({ ...event, [key]: v }));
  }
  const message = event.message as Json | undefined;
  const content = message?.content;
  if (Array.isArray(content) && content.length > 0) {
    nested("content", content[0], (v) => ({ ...event, message: { ...message, content: [v, ...content.slice(1)] } }));
  }
  return out;
}

describe("Claude Code: precompiled validators agree with ajv compiling schemas/claude-code/ at run time", async () => {
  const bundled = await loadBundledValidators(CLAUDE_CODE_ENTRY_ID);
  const all = claudeFixtureEvents().flatMap(({ where, event }) => [{ where, event }, ...claudeMutations(event).map((m, i) => ({ where: `${where} mutation ${i}`, event: m }))]);

  test(`${all.length} lines, fixtures and their mutations: per-type validator = runtime per-type schema, dispatch = entry`, () => {
    let checked = 0;
    for (const { where, event } of all) {
      const type = event.type;
      const own = typeof type === "string" ? bundled.byType.get(type) : undefined;
      if (own !== undefined) {
        const reference = claudeRuntimeByType(type as string)!;
        assert.equal(own(event), reference(event), `${where}: verdicts differ`);
        assert.deepEqual(sortedKeys(own.errors), sortedKeys(reference.errors), `${where}: errors differ`);
        checked++;
      }
      const v: ValidateFn = own ?? bundled.entry;
      assert.equal(v(event), claudeRuntimeEntry(event), `${where}: verdicts differ from the entry's`);
      const mine = schemaErrors(v.errors).map((e) => JSON.stringify([e.path, e.keyword, e.message]));
      const theirs = schemaErrors(claudeRuntimeEntry.errors).map((e) => JSON.stringify([e.path, e.keyword, e.message]));
      assert.deepEqual(mine.sort(), theirs.sort(), `${where}: problems differ`);
      assert.equal(bundled.entry(event), claudeRuntimeEntry(event), `${where}: entry verdicts differ`);
      assert.deepEqual(sortedKeys(bundled.entry.errors), sortedKeys(claudeRuntimeEntry.errors), `${where}: entry errors differ`);
    }
    assert.ok(checked > 3000, `only ${checked} lines checked`);
  });
});

test("Claude Code: the known types are the entry's dispatch and have a schema file each; no tool kinds", async () => {
  const bundled = await loadBundledValidators(CLAUDE_CODE_ENTRY_ID);
  const entry = JSON.parse(readFileSync("schemas/claude-code/claude-code-event.schema.json", "utf8")) as { allOf: Array<{ if: { properties: { type: { const: string } } } }> };
  const dispatched = entry.allOf.map((b) => b.if.properties.type.const).sort();
  assert.deepEqual([...bundled.types!].sort(), dispatched);
  for (const t of dispatched) assert.ok(readdirSync("schemas/claude-code").includes(`${t}.schema.json`));
  assert.equal(bundled.toolKinds, undefined);
  assert.equal(bundled.schemaSet().entry.base, CLAUDE_CODE_ENTRY_ID);
});

test("loadBundledValidators: cursor-agent's set by default, an unknown entry $id refused", async () => {
  const byDefault = await loadBundledValidators();
  assert.equal(byDefault.schemaSet().entry.base, "https://cursorlog.dev/schemas/cursor-agent-event.schema.json");
  assert.ok(byDefault.types!.has("tool_call"));
  await assert.rejects(loadBundledValidators("https://cursorlog.dev/schemas/nope.schema.json"), /no bundled schema set has the entry/);
});

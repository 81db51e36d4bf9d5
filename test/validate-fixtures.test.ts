// The schemas' contract with the fixtures: every event of every fixture log in test/fixtures/
// (*.ndjson, the shapes FORMAT.md records for each era, rejected and errored calls included)
// validates with zero errors against the entry schema, compiled from schemas/ as any other tool
// would (Ajv2020, strict), and against the validators `cursorlog validate` uses.
// Lines that are not JSON objects (merged stderr text, a truncated last line) are not events.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import Ajv2020Module from "ajv/dist/2020.js";
import { loadBundledValidators } from "../src/validate/bundled-validators.js";

const Ajv2020 = Ajv2020Module.default;
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
for (const f of readdirSync("schemas").filter((n) => n.endsWith(".json"))) ajv.addSchema(JSON.parse(readFileSync(`schemas/${f}`, "utf8")));
const entry = ajv.getSchema("https://cursorlog.dev/schemas/cursor-agent-event.schema.json")!;

const FIXTURES = readdirSync("test/fixtures").filter((n) => n.endsWith(".ndjson")).sort();

function events(name: string): Array<[number, unknown]> {
  const out: Array<[number, unknown]> = [];
  readFileSync(`test/fixtures/${name}`, "utf8")
    .replace(/^\ufeff/, "")
    .split(/\r?\n/)
    .forEach((line, i) => {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof v === "object" && v !== null && !Array.isArray(v)) out.push([i + 1, v]);
    });
  return out;
}

describe("every fixture event validates with zero errors", async () => {
  const bundled = await loadBundledValidators();
  test("there are fixtures", () => assert.ok(FIXTURES.length >= 10));
  for (const name of FIXTURES) {
    test(name, () => {
      const list = events(name);
      assert.ok(list.length > 0);
      for (const [line, event] of list) {
        assert.ok(entry(event), `${name}:${line}: ${JSON.stringify(entry.errors)}`);
        const type = (event as { type?: unknown }).type;
        const v = (typeof type === "string" && bundled.byType.get(type)) || bundled.entry;
        assert.ok(v(event), `${name}:${line} (precompiled): ${JSON.stringify(v.errors)}`);
      }
    });
  }
});

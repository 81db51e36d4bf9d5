// Stage.ready (stream/stage.ts): a stage may make the stream wait before it takes an event
// (validate loads a dialect's schemas at a file's first event); what came before is written first,
// the event and the rest of its batch after the wait, in order.
import assert from "node:assert/strict";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { test } from "node:test";
import type { InputBatch } from "../src/input/read-inputs.js";
import type { JsonRecord } from "../src/input/record.js";
import type { Stage } from "../src/stream/stage.js";
import { toTransform } from "../src/stream/to-transform.js";
import { quietReporter } from "./helpers/reporter.js";

const rec = (file: string, line: number): JsonRecord => ({ file, line, text: "", value: { n: line } });

async function through(stage: Stage, batches: InputBatch[]): Promise<string> {
  let out = "";
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  await pipeline(Readable.from(batches, { objectMode: true }), toTransform(stage, quietReporter(), true), sink);
  return out;
}

test("Stage.ready: the event waited for goes to record after the wait, once; the others at once, in order", async () => {
  const asked: string[] = [];
  const loaded = new Set<string>();
  const stage: Stage = {
    ready(r) {
      asked.push(`${r.file}:${r.line}`);
      if (loaded.has(r.file)) return undefined;
      return new Promise<void>((resolve) => setTimeout(() => (loaded.add(r.file), resolve()), 5));
    },
    record: (r) => {
      assert.ok(loaded.has(r.file), "record comes once the file's wait is over");
      return `${r.file}:${r.line}\n`;
    },
    fileEnd: (file) => `end ${file}\n`,
    finish: () => "finish\n",
  };
  const out = await through(stage, [
    { file: "a", items: [rec("a", 1), rec("a", 2)], fileEnd: false, lastLine: 2 },
    { file: "a", items: [rec("a", 3)], fileEnd: true, lastLine: 3 },
    { file: "b", items: [rec("b", 1), rec("b", 2)], fileEnd: true, lastLine: 2 },
  ]);
  assert.equal(out, "a:1\na:2\na:3\nend a\nb:1\nb:2\nend b\nfinish\n");
  assert.deepEqual(asked, ["a:1", "a:2", "a:3", "b:1", "b:2"], "asked once per event, not again after its wait");
});

test("Stage.ready: a wait that fails is the stream's error", async () => {
  const stage: Stage = { ready: () => Promise.reject(new Error("cannot load")), record: () => "x\n" };
  await assert.rejects(through(stage, [{ file: "a", items: [rec("a", 1)], fileEnd: true, lastLine: 1 }]), /cannot load/);
});

// filter's kept lines go to a stdout descriptor with writev straight from the read buffers, never
// copied (stream/to-transform.ts DirectOut), whenever nothing pushed before is still on its way;
// otherwise, or for what writev did not take, a copy goes through the stream as before.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { after, test } from "node:test";
import { colorsFor } from "../src/cli/config.js";
import { Reporter } from "../src/diagnostics.js";
import type { InputBatch } from "../src/input/read-inputs.js";
import type { JsonRecord } from "../src/input/record.js";
import type { Stage } from "../src/stream/stage.js";
import { toTransform, type DirectOut } from "../src/stream/to-transform.js";

const scratch = mkdtempSync(join(tmpdir(), "cursorlog-direct-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A read buffer of four lines; the stage keeps lines 1, 2 and 4 as their bytes and writes a string for line 3. */
const CHUNK = Buffer.from("{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n{\"d\":4}\n");
const ends = [0, 8, 16, 24, 32];
const view = (i: number) => CHUNK.subarray(ends[i]!, ends[i + 1]!);
const rec = (i: number): JsonRecord => ({ file: "f", line: i + 1, text: "", value: {}, skipped: true, raw: view(i) });
const stage: Stage = { record: (r) => (r.line === 3 ? "three\n" : r.raw) };
const EXPECTED = "{\"a\":1}\n{\"b\":2}\nthree\n{\"d\":4}\n";

interface Run {
  /** Everything that reached the output, in order: [how, bytes]. */
  log: Array<["writev" | "stream", string]>;
  /** The buffers each writev was given. */
  calls: Buffer[][];
  released: number;
  destroyed: Error | undefined;
}

/** One batch of the four records through toTransform into a sink; `writev` stands in for fs.writevSync. */
async function run(writev: (bufs: Buffer[]) => number, sinkBusy = false): Promise<Run> {
  const r: Run = { log: [], calls: [], released: 0, destroyed: undefined };
  const out = new Writable({
    write(chunk: Buffer, _e, cb) {
      r.log.push(["stream", chunk.toString()]);
      cb();
    },
    destroy(err, cb) {
      r.destroyed = err ?? undefined;
      cb(null);
    },
  });
  // A write still on its way through the sink: the direct path must wait behind it.
  if (sinkBusy) out.cork(), out.write("before\n"), r.log.pop();
  const direct: DirectOut = {
    fd: 99,
    out,
    writev: (fd, bufs) => {
      assert.equal(fd, 99);
      r.calls.push(bufs);
      const n = writev(bufs);
      if (n > 0) r.log.push(["writev", Buffer.concat(bufs).subarray(0, n).toString()]);
      return n;
    },
  };
  const batch: InputBatch = { file: "f", items: [0, 1, 2, 3].map(rec), fileEnd: true, lastLine: 4, release: () => void r.released++ };
  if (sinkBusy) setImmediate(() => out.uncork());
  await pipeline(Readable.from([batch], { objectMode: true }), toTransform(stage, new Reporter(() => {}, colorsFor(false), false), false, direct), out).catch(() => {});
  return r;
}

const all = (bufs: Buffer[]) => bufs.reduce((n, b) => n + b.length, 0);

test("direct: kept lines are written with one writev of views of the read buffer (adjacent lines one view), strings in their place", async () => {
  const r = await run(all);
  assert.deepEqual(r.log, [["writev", EXPECTED]]);
  assert.equal(r.calls.length, 1);
  const [lines12, three, line4] = r.calls[0]!;
  // Lines 1 and 2 are one view; line 4 a view: all of CHUNK's own memory, not copies.
  for (const b of [lines12!, line4!]) assert.equal(b.buffer, CHUNK.buffer);
  assert.deepEqual([lines12!.byteOffset - CHUNK.byteOffset, lines12!.length, line4!.byteOffset - CHUNK.byteOffset, line4!.length], [0, 16, 24, 8]);
  assert.equal(three!.toString(), "three\n");
  assert.equal(r.released, 1);
});

test("direct: what writev did not take (a full pipe) goes through the stream after it; EAGAIN: all of it", async () => {
  const part = await run(() => 20);
  assert.deepEqual(part.log, [
    ["writev", EXPECTED.slice(0, 20)],
    ["stream", EXPECTED.slice(20)],
  ]);
  const again = await run(() => {
    throw Object.assign(new Error("EAGAIN: resource temporarily unavailable, write"), { code: "EAGAIN" });
  });
  assert.deepEqual(again.log, [["stream", EXPECTED]]);
  assert.equal(again.released, 1);
});

test("direct: while the stream still holds a write, nothing is written past it (the lines are copied behind it)", async () => {
  const r = await run(all, true);
  assert.deepEqual(r.calls, []);
  assert.deepEqual(r.log, [
    ["stream", "before\n"],
    ["stream", EXPECTED],
  ]);
});

test("direct: a failed writev is the output's error (its handlers decide: a closed pipe, a full disk)", async () => {
  const err = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  const r = await run(() => {
    throw err;
  });
  assert.equal(r.destroyed, err);
  assert.deepEqual(r.log, []);
});

/** A log over several read chunks: runs of thinking lines between tool calls and results. */
function bigLog(): { text: string; toolCalls: string } {
  const lines: string[] = [];
  for (let i = 0; i < 6000; i++) {
    lines.push(JSON.stringify({ type: "thinking", subtype: "delta", text: `thought ${i} ${"é".repeat(i % 50)}`, session_id: "s" }));
    if (i % 3 === 0) lines.push(JSON.stringify({ type: "tool_call", subtype: "started", call_id: `c${i}`, tool_call: { shellToolCall: { args: { command: "x".repeat(i % 700) } } } }));
    if (i % 3 === 0) lines.push(JSON.stringify({ type: "tool_call", subtype: "completed", call_id: `c${i}`, tool_call: { shellToolCall: { result: { success: { stdout: "y".repeat(i) } } } } }));
  }
  const text = lines.join("\n") + "\n";
  return { text, toolCalls: lines.filter((l) => l.startsWith('{"type":"tool_call"')).join("\n") + "\n" };
}

test("direct, the executable: filter --type into a file and into a pipe writes exactly the kept lines", async () => {
  const { text, toolCalls } = bigLog();
  assert.ok(text.length > 3 << 20, "more than three read chunks");
  const log = join(scratch, "big.ndjson");
  writeFileSync(log, text);
  const file = join(scratch, "out.ndjson");
  const fd = openSync(file, "w");
  const r = spawnSync("node", ["bin/cursorlog.js", "filter", "--type", "tool_call", log], { stdio: ["ignore", fd, "pipe"], encoding: "utf8" });
  closeSync(fd);
  assert.deepEqual([r.status, r.stderr], [0, ""]);
  assert.equal(readFileSync(file, "utf8"), toolCalls);
  // A pipe read slowly: writev takes what fits, the rest follows through the stream, in order.
  const child = spawn("node", ["bin/cursorlog.js", "filter", "--type", "tool_call", log], { stdio: ["ignore", "pipe", "pipe"] });
  // Each piece taken, then a pause. (A 'data' listener, not read() on a paused stream: once the
  // child has exited, Node resumes its stdout to flush it, and what no listener takes is lost.)
  const got: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => {
    got.push(c);
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 2);
  });
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(status, 0);
  assert.equal(Buffer.concat(got).toString(), toolCalls);
  // A reader that goes away (| head -c): the failed writev is a closed pipe, quiet, status 0.
  const head = spawnSync("bash", ["--norc", "--noprofile", "-c", `node bin/cursorlog.js filter --type tool_call ${log} | head -c 100; echo " status=\${PIPESTATUS[0]}"`], { encoding: "utf8" });
  assert.deepEqual([head.stdout, head.stderr], [`${toolCalls.slice(0, 100)} status=0\n`, ""]);
});

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";

// The memory a run of the built CLI holds, for the constant-memory tests of each agent's logs
// (claude-memory, other-agents-memory): `cursorlog ARGS` run by test/stress/peak-live.mjs, which
// samples V8's heap in use plus external memory right after a full and a young-generation garbage
// collection while the run goes on and at its end (never the RSS: it counts garbage not yet
// collected and grows with the load of the machine), fed through a pipe by a log generator under
// test/stress/.
//
// A test measures each command on the same logs (N calls, then N/10, for text and then json): a
// generator's output is written once to a file here and fed to each run from it, through the same
// pipe (the two logs last generated are kept: in make stress, some hundreds of MB each).

const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb", SAMPLE_MS: "100" };
export const MIB = 2 ** 20;
export const mib = (b: number): string => `${(b / MIB).toFixed(1)} MiB`;

export interface Measured {
  code: number | null;
  /** Lines on stdout, and the last one. */
  lines: number;
  last: string;
  stderr: string;
  /** The most memory held at once (heap used + external, after full gcs), in bytes. */
  peakLive: number;
}

/**
 * A measurer for this test file: its temporary folder removed after the file's tests, and a check
 * first that the CLI is built. `measure(args, generator)` runs `cursorlog ARGS` on the output of
 * `node GENERATOR…` through a pipe.
 */
export function heldMemory(name: string): (args: string[], generator: string[]) => Promise<Measured> {
  const tmp = mkdtempSync(join(tmpdir(), `cursorlog-${name}-`));
  before(() => {
    assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  /** The generated logs, by the generator's arguments: their files, most recently used last. */
  const logs = new Map<string, Promise<string>>();
  const generated = (generator: string[]): Promise<string> => {
    const key = JSON.stringify(generator);
    let file = logs.get(key);
    logs.delete(key);
    if (file === undefined) {
      const path = join(tmp, `log-${process.hrtime.bigint()}.ndjson`);
      file = new Promise((resolve, reject) => {
        const producer = spawn("node", generator, { stdio: ["ignore", "pipe", "inherit"] });
        producer.stdout.pipe(createWriteStream(path)).on("finish", () => resolve(path));
        producer.on("error", reject);
        producer.on("close", (code) => code !== 0 && reject(new Error(`node ${generator.join(" ")}: exit ${code}`)));
      });
    }
    logs.set(key, file);
    for (const [k, old] of logs) {
      if (logs.size <= 2) break;
      logs.delete(k);
      void old.then((p) => rmSync(p, { force: true }), () => {});
    }
    return file;
  };
  return async (args, generator) => {
    const memFile = join(tmp, `mem-${process.hrtime.bigint()}.json`);
    const log = await generated(generator);
    return new Promise((resolve, reject) => {
      const child = spawn("node", ["--expose-gc", "test/stress/peak-live.mjs", memFile, ...args], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
      createReadStream(log).pipe(child.stdin);
      child.stdin.on("error", () => {});
      let lines = 0;
      let last = "";
      let partial = "";
      let err = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (s: string) => {
        const parts = (partial + s).split("\n");
        partial = parts.pop()!;
        lines += parts.length;
        if (parts.length > 0) last = parts.at(-1)!;
      });
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        const m = JSON.parse(readFileSync(memFile, "utf8")) as { peakLive: number };
        resolve({ code, lines, last, stderr: err, peakLive: m.peakLive });
      });
    });
  };
}

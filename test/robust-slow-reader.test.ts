// A slow reader (backpressure): the built executable (npm run build first; make test does)
// writing to a reader that pauses, with the memory of the process sampled: it stops reading while
// blocked, its memory stays flat then and under a ceiling, and nothing is lost.
//
// (shared in make test: at its 16 MiB the ceiling is far off whatever the load (the input is a
// tenth of it), and what else is measured, the bytes read and the RSS moved while the process is
// blocked on its output, does not depend on how fast it runs; most of its time is the reader's
// pauses, which leave the cores to other files. make stress runs test/stress/robust-slow-reader.
// test.ts, this file at full size (300 MiB, where the ceiling bites), with nothing beside it.)
// The | head -n1 timing and the rest of the faults measured are robust-faults-limits.test.ts.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { scaled, STRESS } from "./helpers/scale.js";

const BIN = "bin/cursorlog.js";
const ENV = { PATH: process.env.PATH ?? "", TZ: "UTC", NO_COLOR: "1", TERM: "dumb" };
const tmp = mkdtempSync(join(tmpdir(), "cursorlog-slow-reader-"));

before(() => {
  assert.ok(existsSync("dist/cli/main.js"), "dist/ is missing: run `npm run build` (make test does) before these tests");
});
after(() => rmSync(tmp, { recursive: true, force: true })); // a 300 MiB log in make stress

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

/** VmRSS of a live process in MiB (Linux), or undefined. */
function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// make stress: 300 MiB, a short rest every 8 MiB of output, the long ones (1.5 s) at 64 and 192 MiB.
// make test: 16 MiB (16 file reads of 1 MiB, 256 pipe reads of 64 KiB), a rest every MiB, the
// long ones at 4 and 10 MiB: at each, 6 MiB or more are still to come, which a process that went
// on reading while blocked would read (it may read less than 1 MiB in the pause's last second). The 200 MiB ceiling bites only in make stress (the input is larger
// than it); in make test, the process stopping its reads while blocked, and its memory flat
// then, are what show backpressure holding.
const SLOW = scaled({ mib: 16, restEvery: 1, longAt: [4, 10] }, { mib: 300, restEvery: 8, longAt: [64, 192] });
const MAX_RSS_MIB = 200;

// In make test the two readers at once: each spends its time in its pauses, and what each
// measures is its own process (its reads while blocked, its RSS), which the other, asleep, leaves
// alone. make stress, 300 MiB through each, one after the other, nothing beside them.
describe(`a slow reader, of a file and of a pipe${STRESS ? "" : " at once"}`, { concurrency: STRESS ? 1 : 2 }, () => {
// The file is written before either starts (a spawnSync in one would stop the other's clock).
before(() => {
  const log = join(tmp, `slow-${SLOW.mib}M.ndjson`);
  if (!existsSync(log)) assert.equal(spawnSync("node", ["bench/gen.mjs", "--size", `${SLOW.mib}M`, "--seed", "11", "--out", log]).status, 0);
});
for (const input of ["file", "pipe"] as const) {
  test(`a slow reader: cursorlog filter over a ${SLOW.mib} MiB generated ${input} stays under ${MAX_RSS_MIB} MiB, stops reading while blocked, loses nothing`, { timeout: 180_000, skip: process.platform !== "linux" && "needs /proc" }, async (t) => {
    // A file is read in 1 MiB chunks, a pipe in 64 KiB ones: both must hold memory down.
    const log = join(tmp, `slow-${SLOW.mib}M.ndjson`);
    // The generator's output, or the file it wrote (read here for its hash only).
    const gen = input === "pipe" ? spawn("node", ["bench/gen.mjs", "--size", `${SLOW.mib}M`, "--seed", "11"], { stdio: ["ignore", "pipe", "inherit"] }) : spawn("cat", [log], { stdio: ["ignore", "pipe", "inherit"] });
    const genDone = exited(gen);
    const child = spawn("node", [BIN, "filter", ...(input === "file" ? [log] : [])], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
    t.after(() => (gen.kill("SIGKILL"), child.kill("SIGKILL")));
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    // The generator's bytes go through here, counted and hashed, with backpressure. Reading a file,
    // cursorlog's reads are counted from /proc/PID/io instead.
    const inHash = createHash("sha256");
    let generated = 0;
    gen.stdout!.on("data", (d: Buffer) => {
      inHash.update(d);
      generated += d.length;
      if (input === "file") return;
      if (!child.stdin!.write(d)) {
        gen.stdout!.pause();
        child.stdin!.once("drain", () => gen.stdout!.resume());
      }
    });
    gen.stdout!.on("end", () => child.stdin!.end());
    const fedNow = () => (input === "pipe" ? generated : readBytes(child.pid!));
    let fed = 0;
    const outHash = createHash("sha256");
    let got = 0;
    let paused = false;
    const pauses: Array<{ fedAt: number; rss: number[]; fedAfter: number }> = [];
    const samples: number[] = [];
    const timer = setInterval(() => {
      const r = rssMiB(child.pid!);
      if (r !== undefined) samples.push(r);
      if (paused && r !== undefined) pauses.at(-1)!.rss.push(r);
    }, 50);
    const rest = SLOW.restEvery << 20;
    child.stdout!.on("data", (d: Buffer) => {
      outHash.update(d);
      const before = got;
      got += d.length;
      // Read slowly: a short rest every few MiB, and a long one (1.5 s) at two points.
      const long = SLOW.longAt.some((m) => before < m * 2 ** 20 && got >= m * 2 ** 20);
      if (long || Math.floor(before / rest) !== Math.floor(got / rest)) {
        child.stdout!.pause();
        paused = long;
        if (long) pauses.push({ fedAt: 0, rss: [], fedAfter: 0 });
        setTimeout(() => {
          if (long) {
            const p = pauses.at(-1)!;
            p.fedAfter = fedNow();
          }
          paused = false;
          child.stdout!.resume();
        }, long ? 1500 : 30);
        if (long) setTimeout(() => (pauses.at(-1)!.fedAt = fedNow()), 500);
      }
    });
    const code = await exited(child);
    clearInterval(timer);
    fed = input === "pipe" ? generated : Number(statSync(log).size);
    await genDone;
    assert.equal(code, 0, err);
    assert.equal(err, "");
    assert.equal(outHash.digest("hex"), inHash.digest("hex"), "filter's output is not the input, byte for byte");
    assert.ok(fed > SLOW.mib * 2 ** 20, `only ${fed} bytes generated`);
    const max = Math.max(...samples);
    console.log(`# slow reader: ${samples.length} samples, peak VmRSS ${max.toFixed(0)} MiB for ${(fed / 2 ** 20).toFixed(0)} MiB; pauses: ${pauses.map((p) => `rss ${Math.min(...p.rss).toFixed(0)}-${Math.max(...p.rss).toFixed(0)} MiB, read ${((p.fedAfter - p.fedAt) / 2 ** 20).toFixed(2)} MiB in the last second`).join("; ")}`);
    assert.ok(max < MAX_RSS_MIB, `peak VmRSS ${max.toFixed(0)} MiB while the input is ${SLOW.mib} MiB`);
    assert.equal(pauses.length, 2);
    for (const p of pauses) {
      // Blocked on its output, cursorlog reads (almost) nothing more and its memory stays flat.
      assert.ok(p.fedAfter - p.fedAt < 2 ** 20, `read ${p.fedAfter - p.fedAt} bytes while its reader was paused`);
      assert.ok(Math.max(...p.rss) - Math.min(...p.rss) < 16, `RSS moved ${Math.min(...p.rss)}..${Math.max(...p.rss)} MiB while paused`);
    }
  });
}
});

/** Bytes a live process has read so far (Linux /proc/PID/io rchar), 0 if unknown. */
function readBytes(pid: number): number {
  try {
    return Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

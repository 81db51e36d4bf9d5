import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { runCli, type CliOptions, type CliResult } from "./run-cli.js";
import { STRESS } from "./scale.js";

export interface GoldenCase {
  /** Golden file stem: test/golden/<name>.{stdout,stderr,code}. */
  name: string;
  argv: string[];
  /** Standard input, as a path to read (relative to the repo root). */
  stdinFile?: string;
  /** Environment (default: run-cli's `{TZ: "UTC", NO_COLOR: "1"}`). */
  env?: Record<string, string | undefined>;
  /** Standard output is a terminal (colour, width and escaping as on one). */
  stdoutIsTTY?: boolean;
}

const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** make stress: each case runs again on its input cut into chunks of these sizes (bytes). */
export const CHUNK_SIZES = [1, 3, 7];
/** Inputs over LARGE_INPUT bytes (a byte at a time takes seconds): 7 (cuts inside characters and between CR and LF) and 4093. */
export const LARGE_CHUNK_SIZES = [7, 4093];
const LARGE_INPUT = 64 * 1024;

/** The chunk sizes a case is run with in make stress, besides whole input. */
function chunkSizesOf(c: GoldenCase): number[] {
  const inputs = [...c.argv, ...(c.stdinFile ? [c.stdinFile] : [])].filter((a) => existsSync(a) && statSync(a).isFile());
  return inputs.reduce((n, f) => n + statSync(f).size, 0) > LARGE_INPUT ? LARGE_CHUNK_SIZES : CHUNK_SIZES;
}

function read(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/**
 * One test per case: runs `cursorlog argv` in-process on whole input and compares stdout, stderr
 * and the exit status with test/golden/<name>.*, byte for byte. UPDATE_GOLDEN=1 rewrites the
 * golden files (read the diff before committing).
 *
 * In make test each case runs once. That the output does not depend on how the input is cut into
 * chunks is proved where records are made, over every fixture and every command's way of reading
 * lines (test/chunking-records.test.ts), and for every command's output on generated logs
 * (test/robust-chunking.test.ts). make stress (CURSORLOG_STRESS=1) also runs every case on its
 * input in chunks of 1, 3 and 7 bytes (7 and 4093 over 64 KiB), each run's stdout, stderr and
 * status equal to the whole input's.
 */
export function goldenTests(cases: GoldenCase[]): void {
  for (const c of cases) {
    test(`golden ${c.name}: cursorlog ${c.argv.join(" ")}`, async () => {
      const opts: CliOptions = {};
      if (c.stdinFile) opts.stdin = readFileSync(c.stdinFile);
      if (c.env !== undefined) opts.env = c.env;
      if (c.stdoutIsTTY !== undefined) opts.stdoutIsTTY = c.stdoutIsTTY;
      const got: CliResult = await runCli(c.argv, opts);
      const base = `test/golden/${c.name}`;
      if (UPDATE) {
        mkdirSync(dirname(base), { recursive: true });
        writeFileSync(`${base}.stdout`, got.stdout);
        writeFileSync(`${base}.stderr`, got.stderr);
        writeFileSync(`${base}.code`, `${got.code}\n`);
      }
      assert.equal(got.stdout, read(`${base}.stdout`), `${c.name}: stdout differs from ${base}.stdout`);
      assert.equal(got.stderr, read(`${base}.stderr`), `${c.name}: stderr differs from ${base}.stderr`);
      assert.equal(`${got.code}\n`, read(`${base}.code`), `${c.name}: exit status differs from ${base}.code`);
      if (!STRESS) return;
      for (const chunkSize of chunkSizesOf(c)) {
        const cut = await runCli(c.argv, { ...opts, chunkSize });
        assert.deepEqual(cut, got, `${c.name}: output with ${chunkSize}-byte chunks differs from whole input`);
      }
    });
  }
}

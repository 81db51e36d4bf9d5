import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { runCli, type CliOptions, type CliResult } from "./run-cli.js";

export interface GoldenCase {
  /** Golden file stem: test/golden/<name>.{stdout,stderr,code}. */
  name: string;
  argv: string[];
  /** Standard input, as a path to read (relative to the repo root). */
  stdinFile?: string;
  /** Skip the chunk-size matrix (e.g. a test of something other than the input path). */
  wholeOnly?: boolean;
  /** Environment (default: run-cli's `{TZ: "UTC", NO_COLOR: "1"}`). */
  env?: Record<string, string | undefined>;
  /** Standard output is a terminal (colour, width and escaping as on one). */
  stdoutIsTTY?: boolean;
}

/**
 * For inputs over LARGE_INPUT bytes (hundreds of KB, which a byte at a time takes seconds to feed):
 * whole, 7 bytes (cuts inside characters and between CR and LF), and 4093.
 */
export const LARGE_CHUNK_SIZES = [0, 7, 4093];
const LARGE_INPUT = 64 * 1024;

/** The chunk sizes a case is run with: CHUNK_SIZES, or LARGE_CHUNK_SIZES when its input is large. */
function chunkSizesOf(c: GoldenCase): number[] {
  if (c.wholeOnly) return [0];
  const inputs = [...c.argv, ...(c.stdinFile ? [c.stdinFile] : [])].filter((a) => existsSync(a) && statSync(a).isFile());
  return inputs.reduce((n, f) => n + statSync(f).size, 0) > LARGE_INPUT ? LARGE_CHUNK_SIZES : CHUNK_SIZES;
}

export const CHUNK_SIZES = [0, 1, 3, 7];
const UPDATE = process.env.UPDATE_GOLDEN === "1";

function read(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/**
 * One test per case: runs `cursorlog argv` in-process, whole and in chunks of 1, 3 and 7 bytes,
 * and compares stdout, stderr and the exit status with test/golden/<name>.*. UPDATE_GOLDEN=1
 * rewrites the golden files from the whole-input run (read the diff before committing).
 */
export function goldenTests(cases: GoldenCase[]): void {
  for (const c of cases) {
    test(`golden ${c.name}: cursorlog ${c.argv.join(" ")}`, async () => {
      const stdin = c.stdinFile ? readFileSync(c.stdinFile) : undefined;
      const sizes = chunkSizesOf(c);
      let first: CliResult | undefined;
      for (const chunkSize of sizes) {
        const opts: CliOptions = stdin === undefined ? { chunkSize } : { chunkSize, stdin };
        if (c.env !== undefined) opts.env = c.env;
        if (c.stdoutIsTTY !== undefined) opts.stdoutIsTTY = c.stdoutIsTTY;
        const got = await runCli(c.argv, opts);
        if (first === undefined) {
          first = got;
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
        } else {
          assert.deepEqual(got, first, `${c.name}: output with ${chunkSize}-byte chunks differs from whole input`);
        }
      }
    });
  }
}

// `node --import ./test/helpers/ts-loader.mjs FILE.ts`: Node runs the repository's TypeScript, as
// `--import tsx` does, for less CPU per process (ts-hooks.mjs; scripts/run-tests.mjs uses it).
import { appendFileSync, readFileSync } from "node:fs";
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

// Stack traces name the TypeScript's lines (the transform carries an inline source map), as under tsx.
process.setSourceMapsEnabled(true);
register("./ts-hooks.mjs", import.meta.url);

// CURSORLOG_TEST_CPU=FILE (scripts/run-tests.mjs sets it): a test file's process, as it exits, adds
// a line to FILE with the CPU seconds it used, its own and its children's (those it waited for, and
// theirs: the CLI runs it spawned), so the runner can say which files cost what.
const cpuLog = process.env.CURSORLOG_TEST_CPU;
if (cpuLog && isMainThread && !process.execArgv.includes("--test") && /\.test\.[mc]?[jt]s$/.test(process.argv[1] ?? "")) {
  process.on("exit", () => {
    try {
      const own = process.resourceUsage();
      // /proc/self/stat after the command's ")": field 14 is utime, 15 stime, 16 cutime, 17 cstime (clock ticks).
      const stat = readFileSync("/proc/self/stat", "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = (i) => Number(f[i - 3]) / 100;
      appendFileSync(
        cpuLog,
        `${JSON.stringify({ file: process.argv[1], user: own.userCPUTime / 1e6, sys: own.systemCPUTime / 1e6, childUser: ticks(16), childSys: ticks(17) })}\n`,
      );
    } catch {
      // No /proc (not Linux): no report.
    }
  });
}

// A --jobs worker thread run from the sources (src/jobs/early.ts) imports this module to load
// TypeScript the same way (a worker does not run the process's --import): its transforms are
// cached, ~0.5 s less CPU per worker than tsx's loader.
process.env.CURSORLOG_TS_REGISTER ??= import.meta.url;

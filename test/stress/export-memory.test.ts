// test-run: stress
// make stress: test/export-memory.test.ts at full size (a folder of 80 logs, 3200 runs, in a
// 40 MiB heap). make test runs that file small; scripts/run-tests.mjs runs this one with
// CURSORLOG_STRESS=1, one file at a time, nothing beside it.
process.env.CURSORLOG_STRESS ??= "1";
await import("../export-memory.test.js");

// test-run: stress
// make stress: test/diff-memory.test.ts at full size (48 runs each changing a 1 MiB file, in a
// 48 MiB heap). make test runs that file small; scripts/run-tests.mjs runs this one with
// CURSORLOG_STRESS=1, one file at a time, nothing beside it.
process.env.CURSORLOG_STRESS ??= "1";
await import("../diff-memory.test.js");

// test-run: stress
// make stress: test/robust-slow-reader.test.ts at full size (a slow reader over 300 MiB, where the
// 200 MiB ceiling bites). make test runs that file small, beside others; scripts/run-tests.mjs runs
// this one with CURSORLOG_STRESS=1, one file at a time, nothing beside it.
process.env.CURSORLOG_STRESS ??= "1";
await import("../robust-slow-reader.test.js");

// test-run: stress
// make stress: test/robust-long-lines-memory.test.ts at full size (a 256 MiB line rejected, a
// 48 MiB line through every command). make test runs that file small, alone; scripts/run-tests.mjs
// runs this one with CURSORLOG_STRESS=1, one file at a time, nothing beside it.
process.env.CURSORLOG_STRESS ??= "1";
await import("../robust-long-lines-memory.test.js");

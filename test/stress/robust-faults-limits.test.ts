// test-run: stress
// make stress: test/robust-faults-limits.test.ts at full size (| head -n1 on 2 GiB). make test
// runs that file small, alone; scripts/run-tests.mjs runs this one with CURSORLOG_STRESS=1, one
// file at a time, nothing beside it.
process.env.CURSORLOG_STRESS ??= "1";
await import("../robust-faults-limits.test.js");

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { Progress } from "../src/cli/progress.js";
import { runCli } from "./helpers/run-cli.js";
import { runOnPty, screenLines } from "./helpers/pty.js";
import { STRESS } from "./helpers/scale.js";

// Output and the progress line on one terminal: what the screen shows at the end must be the
// output alone, each line whole (the bug: "… (100%), 4 MB/sRan terminal command: …").
const FILES = ["examples/session.ndjson", "test/fixtures/two-sessions.ndjson"];

// The pseudo-terminal comes from python3's pty module (no native addon); skipped, saying so, without it.
const NO_PYTHON = spawnSync("python3", ["-c", "import pty"]).status !== 0 && "python3 (with its pty module) is not installed";

// Each run on a terminal is two processes (python3's pty, the executable). make test: both files
// (the progress line between them and after the last) on each terminal, and the first file alone
// on xterm; make stress: every set on each (CURSORLOG_STRESS=1, test/helpers/scale.ts).
for (const [k, term] of ["xterm-256color", "dumb"].entries()) {
  test(`on a terminal (TERM=${term}) the progress line never shares a line with the output, over every named file`, { skip: NO_PYTHON }, async () => {
    const expected = await runCli(["text", "-v", ...FILES]);
    for (const files of STRESS ? [FILES.slice(0, 1), FILES.slice(1), FILES] : k === 0 ? [FILES.slice(0, 1), FILES] : [FILES]) {
      const want = (await runCli(["text", "-v", ...files])).stdout.split("\n").filter((l) => l !== "");
      const r = await runOnPty(["text", "-v", ...files], { TERM: term, TZ: "UTC" });
      assert.equal(r.code, expected.code);
      assert.match(r.raw, /cursorlog: [\d.]+ kB of [\d.]+ kB \(100%\)/, "the progress line was drawn");
      assert.deepEqual(screenLines(r.raw).filter((l) => l !== ""), want, JSON.stringify(r.raw));
      if (term === "dumb") assert.doesNotMatch(r.raw, /\u001b/, "TERM=dumb: no escape sequence at all");
    }
  });
}

test("progress: each output write erases the line; it is drawn again (below) only once the output ended a line", () => {
  let t = 0;
  let out = "";
  const p = new Progress((s) => (out += s), 100e6, () => t);
  p.add(1e6);
  assert.match(out, /^\r\u001b\[Kcursorlog: 1\.0 MB/);
  out = "";
  p.clear();
  assert.equal(out, "\r\u001b[K");
  out = "";
  p.hold(true); // the output wrote half a line
  t = 5000;
  p.add(1e6);
  assert.equal(out, "", "not drawn over an unfinished output line");
  p.hold(false);
  p.add(1e6);
  assert.match(out, /^\r\u001b\[Kcursorlog: 3\.0 MB/, "drawn again at once after a clear, not 200 ms later");
  out = "";
  p.clear();
  p.clear();
  assert.equal(out, "\r\u001b[K", "erased once");
});

test("progress on TERM=dumb: overwritten with CR and blanks, no escape sequence", () => {
  let t = 0;
  let out = "";
  const p = new Progress((s) => (out += s), 100e6, () => t, 200, true);
  p.add(10e6);
  const first = out.slice(1);
  assert.equal(out, `\r${first}`);
  t = 1000;
  p.add(1e3); // a shorter line is padded over the longer one
  p.end();
  assert.doesNotMatch(out, /\u001b/);
  assert.match(out.split("\r")[2]!, /, 10 MB\/s, 0:09 left {3}$/, "the shorter line blanks what the longer one left");
  assert.deepEqual(screenLines(out), [""], `nothing left on the screen: ${JSON.stringify(out)}`);
});

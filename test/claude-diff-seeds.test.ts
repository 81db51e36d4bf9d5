// diff's ReadSeeds (src/outputs/diff/read-seeds.ts) on its own: what a run's Reads showed whole is
// held up to SEEDS_MAX characters, the oldest let go first, and an edit of a file let go is told
// why no patch; the replacement is made as Claude Code's Edit makes it.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Call, FileShown, Replacement } from "../src/model/call.js";
import { FileHistory } from "../src/outputs/diff/file-history.js";
import { ReadSeeds, SEEDS_MAX, replaced } from "../src/outputs/diff/read-seeds.js";

/** A call as ReadSeeds sees it: its id and kind (and an edit's strings at its start). */
function call(id: string, kind: string, replacement?: Replacement): Call {
  return { id, kind, backgroundTask: undefined, replacement: () => replacement } as unknown as Call;
}

test(`seeds past ${SEEDS_MAX / 1024 / 1024} Mi characters: the oldest is let go, and an edit of its file says so`, () => {
  const seeds = new ReadSeeds();
  const third = Math.floor(SEEDS_MAX / 3) + 1; // three do not fit
  for (const [i, path] of ["a", "b", "c"].entries()) {
    const read = call(`r${i}`, "read");
    seeds.started(read, 10 * i + 1);
    const shown: FileShown = { path, content: `${path}\n`.repeat(third / 2) };
    seeds.shown(read, shown, path, 10 * i + 2, undefined);
  }
  const edit = (path: string, line: number) => {
    const e = call(`e${path}`, "edit", { path, oldString: `${path}\n`, newString: `${path.toUpperCase()}\n`, replaceAll: true });
    seeds.started(e, line);
    return seeds.edit(path, seeds.done(e, line + 1), new FileHistory(path, line));
  };
  assert.deepEqual(edit("a", 40), { why: `the log shows no whole content of the file before this edit: what the Read at line 2 showed was not kept (past ${SEEDS_MAX / 1024 / 1024} Mi characters of files read and strings held)` });
  const c = edit("c", 50);
  assert.ok("after" in c && c.after === "C\n".repeat(third / 2));
});

test("a replacement is made as the Edit tool makes it: as written ($& is no pattern), once or all, refused when ambiguous", () => {
  const r = (oldString: string, newString: string, replaceAll = false): Replacement => ({ path: "f", oldString, newString, replaceAll });
  assert.equal(replaced("a b a", r("b", "$&$&")), "a $&$& a");
  assert.equal(replaced("a b a", r("a", "c", true)), "c b c");
  assert.deepEqual(replaced("a b a", r("a", "c")), { why: "occurs 2 times (the Edit replaces exactly one) in" });
  assert.deepEqual(replaced("a b a", r("z", "c")), { why: "is not found in" });
  assert.equal(replaced("a\nb", r("b", "")), "a\n");
  assert.match((replaced("a\nb\n", r("a", "")) as { why: string }).why, /^is deleted where a newline follows it/);
});

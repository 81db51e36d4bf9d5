import assert from "node:assert/strict";
import { test } from "node:test";
import { lazy } from "../src/lazy.js";

test("lazy: loaded on first use only, then the same promise at every use", async () => {
  let loads = 0;
  const get = lazy(async () => ({ n: ++loads }));
  assert.equal(loads, 0, "nothing loaded before the first use");
  const first = get();
  assert.equal(get(), first, "the same promise while it loads");
  assert.deepEqual(await first, { n: 1 });
  assert.equal(get(), first, "and once loaded");
  assert.equal(loads, 1);
});

test("lazy: a load that failed is tried again at the next use, and a later success is kept", async () => {
  let loads = 0;
  const get = lazy(async () => {
    loads++;
    if (loads === 1) throw new Error("not there");
    return loads;
  });
  await assert.rejects(get(), /not there/);
  assert.equal(await get(), 2);
  assert.equal(await get(), 2);
  assert.equal(loads, 2);
});

#!/usr/bin/env node
// stdin to stdout unchanged, counting the bytes that got through; the count is written to the
// file named first when this ends, which it does as soon as its reader goes away (EPIPE):
//
//   node bench/gen.mjs --size 2G | node test/stress/count-bytes.mjs /tmp/n | cursorlog text | head -n1
//
// so /tmp/n says how much of the input cursorlog read before it stopped.
import { writeFileSync } from "node:fs";

const out = process.argv[2];
let n = 0;
const done = () => {
  writeFileSync(out, `${n}\n`);
  process.exit(0);
};
process.stdout.on("error", done);
process.stdin.on("data", (chunk) => {
  if (!process.stdout.write(chunk)) {
    process.stdin.pause();
    process.stdout.once("drain", () => process.stdin.resume());
  }
  n += chunk.length;
});
process.stdin.on("end", () => process.stdout.end(done));

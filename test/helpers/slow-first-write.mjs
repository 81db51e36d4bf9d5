// Preloaded (node --import) into cursorlog by test/signals-long-work.test.ts: the first write to
// stdout that holds the text SPIN_ON first spins for SPIN_MS (3000) of synchronous work, after
// creating the file READY_FILE, standing in for the last stretch of work of a run (a signal sent
// then waits for the loop).
import { writeFileSync } from "node:fs";

const write = process.stdout.write.bind(process.stdout);
let first = true;
process.stdout.write = (...args) => {
  if (first && String(args[0]).includes(process.env.SPIN_ON ?? "")) {
    first = false;
    writeFileSync(process.env.READY_FILE, "");
    const end = Date.now() + Number(process.env.SPIN_MS ?? 3000);
    while (Date.now() < end);
  }
  return write(...args);
};

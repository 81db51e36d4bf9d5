// Preloaded (node --import) into cursorlog by test/signals-long-work.test.ts: the first write to
// stdout that holds the text SPIN_ON first spins in synchronous work, after creating the file
// READY_FILE, standing in for the last stretch of work of a run (a signal sent then waits for the
// loop). It spins until the file SENT_FILE exists (the test creates it once it has sent its
// signal, so a loaded machine cannot let the spin end before the signal is sent), or at most
// SPIN_MS (20000).
import { existsSync, writeFileSync } from "node:fs";

const write = process.stdout.write.bind(process.stdout);
let first = true;
process.stdout.write = (...args) => {
  if (first && String(args[0]).includes(process.env.SPIN_ON ?? "")) {
    first = false;
    writeFileSync(process.env.READY_FILE, "");
    const end = Date.now() + Number(process.env.SPIN_MS ?? 20000);
    const sent = process.env.SENT_FILE;
    while (Date.now() < end && !(sent !== undefined && existsSync(sent)));
  }
  return write(...args);
};

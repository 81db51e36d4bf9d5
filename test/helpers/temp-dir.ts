import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The folders tempDir made in this process: removed as it exits. */
const made: string[] = [];
process.on("exit", () => {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a test made unreadable, or still in use: left for the system to clear.
    }
  }
});

/** A fresh folder under the system's temporary folder (`prefix` + six random characters), removed when the test file's process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

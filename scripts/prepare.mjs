// npm's "prepare": builds dist/ on `npm install` / `npm ci` in a checkout, and on `npm install -g .`
// or a git dependency. Where the build tools (dev dependencies) are not installed, as in
// `npm install -g .` from a fresh clone, it says what to do instead of failing on "tsc: not found".
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

// `make` installs with CURSORLOG_PREPARE_BUILD=no and builds itself, once and only when dist/ is
// older than its sources (Makefile): a second build here would double a fresh clone's `make demo`.
if (process.env.CURSORLOG_PREPARE_BUILD === "no") process.exit(0);

const root = new URL("..", import.meta.url);
const tsc = new URL("node_modules/typescript/bin/tsc", root);
if (!existsSync(tsc)) {
  if (existsSync(new URL("dist/bundle/main.js", root))) process.exit(0); // built already
  process.stderr.write(
    "cursorlog: cannot build here: the build tools (dev dependencies) are not installed.\n" +
      "  Run 'npm install' in this directory first (it installs them and builds), then 'npm install -g .'\n",
  );
  process.exit(1);
}
execSync("npm run build", { cwd: root, stdio: "inherit" });

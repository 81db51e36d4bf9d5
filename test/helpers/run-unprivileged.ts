import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// Root reads what chmod 000 forbids, so a test of unreadable inputs run as root would pass for
// the wrong reason. This runs the built CLI (bin/, dist/: `npm run build` first) as the user
// nobody instead, through setpriv or runuser (util-linux, on every Debian), from the checkout, or
// from a copy of what the CLI needs when nobody cannot read the checkout.

export interface UnprivilegedResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface Unprivileged {
  /** The command line prefix used, for the test's diagnostics. */
  how: string;
  /** Runs `cursorlog ARGV` as nobody (empty stdin, TZ=UTC, NO_COLOR); paths should be absolute. */
  run(argv: readonly string[]): UnprivilegedResult;
  /** Removes the copy of the CLI, if one was made. */
  cleanup(): void;
}

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC", NO_COLOR: "1" };

/**
 * A way to run the built CLI as nobody (call it as root), or the reason there is none: no user
 * nobody, neither setpriv nor runuser, or nobody cannot run node. Each candidate is checked by
 * running node as nobody and reading back its uid, then the CLI's --version. Throws when dist/
 * is missing.
 */
export function findUnprivileged(): Unprivileged | string {
  // A missing build is the tester's to fix, not a reason to skip.
  if (!existsSync("dist/cli/main.js")) throw new Error("dist/ is missing: run `npm run build` (make test does) before these tests");
  const uid = idOf("-u");
  const gid = idOf("-g");
  if (uid === undefined || gid === undefined) return "there is no user nobody (id nobody failed)";
  const candidates = [
    ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--"],
    ["runuser", "-u", "nobody", "--"],
  ];
  const tried: string[] = [];
  for (const prefix of candidates) {
    const tool = prefix[0]!;
    if (spawnSync(tool, ["--version"], { encoding: "utf8" }).status !== 0) {
      tried.push(`no ${tool}`);
      continue;
    }
    const who = spawnAs(prefix, ["-p", "process.getuid()"], "/");
    if (who.code !== 0 || who.stdout.trim() !== String(uid)) {
      tried.push(`${tool}: node (${process.execPath}) did not run as uid ${uid}: status ${who.code}, ${JSON.stringify((who.stdout + who.stderr).slice(0, 200))}`);
      continue;
    }
    const root = readableCheckout(prefix);
    if (typeof root !== "string") {
      tried.push(`${tool}: ${root.reason}`);
      continue;
    }
    const bin = join(root, "bin", "cursorlog.js");
    const copied = root !== resolve(".");
    return {
      how: `${prefix.join(" ")} ${process.execPath} ${bin}`,
      run: (argv) => spawnAs(prefix, [bin, ...argv], root),
      cleanup: () => {
        if (copied) rmSync(root, { recursive: true, force: true });
      },
    };
  }
  return `the CLI cannot run as nobody here (${tried.join("; ")})`;
}

function idOf(flag: string): number | undefined {
  const r = spawnSync("id", [flag, "nobody"], { encoding: "utf8" });
  return r.status === 0 ? Number(r.stdout.trim()) : undefined;
}

function spawnAs(prefix: readonly string[], args: readonly string[], cwd: string): UnprivilegedResult {
  const r = spawnSync(prefix[0]!, [...prefix.slice(1), process.execPath, ...args], { cwd, env: ENV, input: "", encoding: "utf8", timeout: 30_000 });
  return { stdout: r.stdout ?? "", stderr: (r.stderr ?? "") + (r.error ? String(r.error) : ""), code: r.status ?? -1 };
}

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

/** The checkout when nobody can run the CLI from it, else a copy nobody can read (or why not). */
function readableCheckout(prefix: readonly string[]): string | { reason: string } {
  const works = (root: string) => spawnAs(prefix, [join(root, "bin", "cursorlog.js"), "--version"], "/").stdout === `${VERSION}\n`;
  const here = resolve(".");
  if (works(here)) return here;
  const copy = copyRuntime(here);
  if (works(copy)) return copy;
  rmSync(copy, { recursive: true, force: true });
  return { reason: `nobody cannot run the CLI from ${here} nor from a copy in ${copy}` };
}

/** bin/, dist/, schemas/, package.json and the runtime dependencies (their closure) in a temp dir nobody can read. */
function copyRuntime(from: string): string {
  const to = mkdtempSync(join(tmpdir(), "cursorlog-as-nobody-"));
  for (const p of ["bin", "dist", "schemas", "package.json"]) cpSync(join(from, p), join(to, p), { recursive: true });
  const seen = new Set<string>();
  const visit = (pkgDir: string) => {
    const deps = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const name of Object.keys(deps)) {
      const dir = join(from, "node_modules", name);
      if (seen.has(name) || !existsSync(dir)) continue;
      seen.add(name);
      cpSync(dir, join(to, "node_modules", name), { recursive: true });
      visit(dir);
    }
  };
  visit(from);
  openUp(to);
  return to;
}

/** chmod a+rX below `path`: directories 755, files 644 (755 where executable); symbolic links as they are. */
function openUp(path: string): void {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    chmodSync(path, 0o755);
    for (const e of readdirSync(path)) openUp(join(path, e));
  } else chmodSync(path, st.mode & 0o100 ? 0o755 : 0o644);
}

import { posix } from "node:path";

/** A logged path placed in the run's folder: relative to it with `/` separators, or why it is not inside it. */
export type RunPlace = { path: string; outside?: undefined } | { outside: string; path?: undefined };

/**
 * A logged path relative to the run's working directory `cwd`, with `/` separators: `""` for the
 * folder itself, a trailing `/` kept. A relative path is taken as relative to `cwd`
 * (normalised: `./x` is `x`). It is outside, with the reason, when it leaves the folder (`../x`,
 * `src/../../x`, an absolute path elsewhere, or any absolute path when the log names no `cwd`). A
 * Windows path (`C:\…`, `\\server\share\…`) is compared with a Windows `cwd` ignoring case, as
 * Windows does; a drive-relative one (`C:x`) is taken relative to `cwd` when that is on its drive.
 * Shared by `diff` (the paths of its patch) and `show` and the HTML timeline (targets shown
 * relative to the run's folder).
 */
export function placeInRun(logged: string, cwd: string | undefined): RunPlace {
  let p = logged.replace(/\\/g, "/");
  const here = cwd === undefined || cwd === "" ? undefined : cwd.replace(/\\/g, "/");
  const drive = /^([A-Za-z]):(?!\/)/.exec(p);
  if (drive !== null) {
    // `C:x` is relative to the current folder of drive C:, which is the run's only when cwd is on C:.
    if (here === undefined || here.slice(0, 2).toLowerCase() !== p.slice(0, 2).toLowerCase() || here[2] !== "/") {
      return { outside: `relative to the current folder of drive ${drive[1]!.toUpperCase()}:, which the log does not give` };
    }
    p = p.slice(2);
  }
  let rel: string;
  if (p.startsWith("/") || /^[A-Za-z]:\//.test(p)) {
    if (here === undefined) return { outside: "the log names no cwd to place it in" };
    const abs = posix.normalize(p);
    const base = posix.normalize(here).replace(/\/+$/, "") + "/";
    const windows = /^[A-Za-z]:\//.test(base) || /^[A-Za-z]:\//.test(abs);
    const inside = windows ? abs.toLowerCase().startsWith(base.toLowerCase()) : abs.startsWith(base);
    // The folder itself, written without its trailing slash.
    const self = windows ? abs.toLowerCase() === base.slice(0, -1).toLowerCase() : abs === base.slice(0, -1);
    if (self) return { path: "" };
    if (!inside) return { outside: `not inside the run's folder ${cwd}` };
    rel = abs.slice(base.length);
  } else {
    rel = posix.normalize(p).replace(/^(\.\/)+/, "");
    if (rel === "." || rel === "./") rel = "";
  }
  if (rel === ".." || rel.startsWith("../")) return { outside: `not inside the run's folder${cwd === undefined || cwd === "" ? "" : ` ${cwd}`}` };
  return { path: rel };
}

/**
 * A logged path as `show` and the HTML timeline print it: an absolute path inside the run's folder
 * relative to it (`src/app.ts`; `.` for the folder itself), with `/` separators as `diff` writes
 * them; any other path (relative already, or outside the folder, or no `cwd` logged) as logged.
 */
export function shownPath(logged: string, cwd: string | undefined): string {
  if (cwd === undefined || cwd === "") return logged;
  const p = logged.replace(/\\/g, "/");
  if (!(p.startsWith("/") || /^[A-Za-z]:\//.test(p))) return logged;
  const place = placeInRun(logged, cwd);
  if (place.path === undefined) return logged;
  return place.path === "" ? "." : place.path;
}

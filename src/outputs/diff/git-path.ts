import { posix } from "node:path";

/**
 * A path as git writes it in a patch: unchanged when plain, otherwise in double quotes with C
 * escapes and every byte outside printable ASCII in octal (git's quote_c_style, core.quotePath on).
 * `git apply` reads both forms; the quoted one also keeps control characters off a terminal.
 */
export function gitPath(prefix: string, path: string): string {
  const full = prefix + path;
  if (!/[\u0000-\u001f"\\\u007f-\uffff]/.test(full)) return full;
  let out = '"';
  for (const byte of Buffer.from(full, "utf8")) {
    switch (byte) {
      case 0x07:
        out += "\\a";
        break;
      case 0x08:
        out += "\\b";
        break;
      case 0x09:
        out += "\\t";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0b:
        out += "\\v";
        break;
      case 0x0c:
        out += "\\f";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
        break;
      default:
        out += byte < 0x20 || byte >= 0x7f ? "\\" + byte.toString(8).padStart(3, "0") : String.fromCharCode(byte);
    }
  }
  return out + '"';
}

/** Where a logged path goes in the patch: its path relative to the run's folder, or why it is left out. */
export type Placement = { path: string; leftOut?: undefined } | { leftOut: string; path?: undefined };

/**
 * A logged path relative to the run's working directory, with `/` separators: `a/` and `b/` paths
 * of a patch are relative to the tree it applies to. A path `git apply` would refuse, and with it
 * the whole patch, is left out, with the reason: one that leaves the run's folder (`../x`,
 * `src/../../x`, an absolute path elsewhere, or any absolute path when the log names no `cwd`), one
 * that names a folder (`dir/`), one inside `.git`. A Windows path (`C:\…`, `\\server\share\…`) is
 * compared with a Windows `cwd` ignoring case, as Windows does; a drive-relative one (`C:x`) is
 * taken relative to `cwd` when that is on its drive.
 */
export function relativePath(logged: string, cwd: string | undefined): Placement {
  let p = logged.replace(/\\/g, "/");
  const here = cwd === undefined || cwd === "" ? undefined : cwd.replace(/\\/g, "/");
  const drive = /^([A-Za-z]):(?!\/)/.exec(p);
  if (drive !== null) {
    // `C:x` is relative to the current folder of drive C:, which is the run's only when cwd is on C:.
    if (here === undefined || here.slice(0, 2).toLowerCase() !== p.slice(0, 2).toLowerCase() || here[2] !== "/") {
      return { leftOut: `relative to the current folder of drive ${drive[1]!.toUpperCase()}:, which the log does not give` };
    }
    p = p.slice(2);
  }
  let rel: string;
  if (p.startsWith("/") || /^[A-Za-z]:\//.test(p)) {
    if (here === undefined) return { leftOut: "the log names no cwd to place it in" };
    const abs = posix.normalize(p);
    const base = posix.normalize(here).replace(/\/+$/, "") + "/";
    const windows = /^[A-Za-z]:\//.test(base) || /^[A-Za-z]:\//.test(abs);
    const inside = windows ? abs.toLowerCase().startsWith(base.toLowerCase()) : abs.startsWith(base);
    if (!inside) return { leftOut: `not inside the run's folder ${cwd}` };
    rel = abs.slice(base.length);
  } else {
    rel = posix.normalize(p).replace(/^(\.\/)+/, "");
  }
  if (rel === ".." || rel.startsWith("../")) return { leftOut: `not inside the run's folder${cwd === undefined || cwd === "" ? "" : ` ${cwd}`}` };
  if (rel === "" || rel === "." || rel.endsWith("/")) return { leftOut: "a folder, not a file" };
  if (rel.split("/").some(isGitDir)) return { leftOut: "inside .git, which git apply refuses" };
  return { path: rel };
}

/**
 * A path component git refuses (verify_path, with core.protectNTFS and core.protectHFS): `.git` in
 * any case, with trailing dots or spaces, with characters HFS+ ignores, or as NTFS's `git~1`.
 */
function isGitDir(part: string): boolean {
  const name = part.replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, "").replace(/[. ]+$/, "").toLowerCase();
  return name === ".git" || name === "git~1";
}

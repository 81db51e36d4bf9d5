import { placeInRun } from "../shared/run-path.js";

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
 * the whole patch, is left out, with the reason: one outside the run's folder (placeInRun: `../x`,
 * an absolute path elsewhere or with no `cwd` logged, `C:x` off cwd's drive), one that names a
 * folder (`dir/`, the run's folder itself), one inside `.git`.
 */
export function relativePath(logged: string, cwd: string | undefined): Placement {
  const place = placeInRun(logged, cwd);
  if (place.path === undefined) return { leftOut: place.outside };
  const rel = place.path;
  if (rel === "" || rel.endsWith("/")) return { leftOut: "a folder, not a file" };
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

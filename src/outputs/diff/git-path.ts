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

/**
 * A logged path relative to the run's working directory, with `/` separators: `a/` and `b/` paths
 * of a patch are relative to the tree it applies to. `outside` when the path is not below `cwd`
 * (it is then given without its leading `/`).
 */
export function relativePath(path: string, cwd: string | undefined): { path: string; outside: boolean } {
  const p = posix.normalize(path.replace(/\\/g, "/"));
  if (!p.startsWith("/") && !/^[A-Za-z]:\//.test(p)) return { path: p.replace(/^\.\//, ""), outside: false };
  if (cwd !== undefined && cwd !== "") {
    const base = cwd.replace(/\\/g, "/").replace(/\/+$/, "") + "/";
    if (p.startsWith(base) && p.length > base.length) return { path: p.slice(base.length), outside: false };
  }
  return { path: p.replace(/^([A-Za-z]:)?\/+/, ""), outside: true };
}

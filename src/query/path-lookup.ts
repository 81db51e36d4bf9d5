import type { PathSegment } from "./path-query.js";

/**
 * True when `test` holds for some value the path reaches in `root` (a `*` segment can reach
 * several). Only own properties are followed (Object.hasOwn), so keys such as `__proto__` or
 * `constructor` in a log are plain data and never reach Object.prototype.
 */
export function someValueAt(root: unknown, path: readonly PathSegment[], test: (v: unknown) => boolean, from = 0): boolean {
  let v = root;
  for (let i = from; i < path.length; i++) {
    const seg = path[i]!;
    if (typeof v !== "object" || v === null) return false;
    if ("key" in seg) {
      if (Array.isArray(v) || !Object.hasOwn(v, seg.key)) return false;
      v = (v as Record<string, unknown>)[seg.key];
    } else if ("index" in seg) {
      if (!Array.isArray(v)) return false;
      const k = seg.index < 0 ? v.length + seg.index : seg.index;
      if (k < 0 || k >= v.length) return false;
      v = v[k];
    } else {
      const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
      for (const child of children) {
        if (someValueAt(child, path, test, i + 1)) return true;
      }
      return false;
    }
  }
  return test(v);
}

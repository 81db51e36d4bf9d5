import type { PathList } from "./types.js";

/**
 * Distinct paths in first-seen order, at most `cap` of them. Once full, an operation on a path
 * not already listed only counts in `more` (it may repeat: telling would need the paths).
 */
export class PathSet {
  private readonly paths = new Set<string>();
  private more = 0;

  constructor(private readonly cap: number) {}

  add(path: string): void {
    if (this.paths.has(path)) return;
    if (this.paths.size < this.cap) this.paths.add(path);
    else this.more++;
  }

  report(): PathList {
    return { paths: [...this.paths], more: this.more };
  }
}

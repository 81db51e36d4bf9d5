/* The stats command's list limits, apart from the collector so the command's options can show
   the defaults without loading it. */
/** How much of each list a session keeps (counts are always exact). */
export interface StatsLimits {
  /** Slowest calls kept (default 10). */
  slowest: number;
  /** Failed, rejected, open calls and failing shell commands kept, each (default 20). */
  list: number;
  /** Distinct paths kept per file list (default 1000). */
  files: number;
}

export const DEFAULT_LIMITS: StatsLimits = { slowest: 10, list: 20, files: 1000 };

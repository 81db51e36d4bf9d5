import type { JsonRecord } from "../input/record.js";

/**
 * One conversion, free of streams: called with each parsed event in order, it returns the text to
 * write (or nothing). `fileEnd` closes a file's last session; `finish` runs once at the very end.
 * `toTransform` makes a Node Transform out of it.
 */
export interface Stage {
  record(rec: JsonRecord): string | undefined;
  fileEnd?(file: string): string | undefined;
  finish?(): string | undefined;
}

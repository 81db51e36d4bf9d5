import pc from "picocolors";
import type { Colors } from "picocolors/types.js";

/**
 * A stage's colours, as the library takes them: picocolors' functions (`pc.createColors(…)`), or
 * true / false, so a caller need not import picocolors. None when left out.
 */
export type ColorsOption = Colors | boolean;

export function colorsOf(c: ColorsOption | undefined): Colors {
  return typeof c === "object" ? c : pc.createColors(c === true);
}

import { colorsFor } from "../../src/cli/config.js";
import { Reporter } from "../../src/diagnostics.js";

/** A Reporter for a stage under test: no colour, not lenient; its messages go into `messages` when given, else nowhere. */
export function quietReporter(messages?: string[]): Reporter {
  return new Reporter(messages === undefined ? () => {} : (s) => messages.push(s), colorsFor(false), false);
}

import type { Call } from "../../model/call.js";
import type { HtmlStatusClass } from "./types.js";

/**
 * A bar's colour: the model's status bin (model/status.ts), the page's one split of it being a
 * failed call that ran and exited badly (a non-zero exit code or a signal: "failure") from one
 * that failed otherwise (an error, a timeout, a spawn error, an outcome the agent names and
 * cursorlog does not know: "error").
 */
export function statusClass(call: Call): HtmlStatusClass {
  switch (call.status) {
    case "ok":
      return "success";
    case "refused":
      return "refused";
    case "no-result":
      return "none";
    case "open":
      return "incomplete";
    case "failed":
      return (call.exitStatus !== undefined && call.exitStatus !== 0) || call.signal !== undefined ? "failure" : "error";
  }
}

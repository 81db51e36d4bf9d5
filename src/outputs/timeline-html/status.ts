import type { HtmlStatusClass } from "./types.js";

/**
 * The colour bin of a result arm: success; failure (a shell's non-zero exit); refused (rejected,
 * permission denied); error (error, timeout, spawnError and any arm we do not know); incomplete
 * (still open when its session ended); none (a completion without a result).
 */
export function statusClass(status: string): HtmlStatusClass {
  switch (status) {
    case "success":
      return "success";
    case "failure":
      return "failure";
    case "rejected":
    case "permissionDenied":
    case "readPermissionDenied":
    case "writePermissionDenied":
      return "refused";
    case "incomplete":
      return "incomplete";
    case "":
      return "none";
    default:
      return "error";
  }
}

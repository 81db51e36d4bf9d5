import { createHash } from "node:crypto";
import type { Run } from "../../model/run.js";

/**
 * Trace and span ids derived from the log alone, so exporting the same log twice gives the same
 * trace (a collector that receives it twice sees the same ids, not two runs). The run is named by
 * its session_id and request_id; a run without request_id (cut off, or a 2025 log) by its
 * session_id and the line of its first event in its file, which the file's name does not change.
 */
export function runKey(run: Run): string {
  const requestId = requestIdOf(run);
  const request = requestId !== undefined ? `request ${requestId}` : `line ${run.startLine}`;
  return `cursorlog\u0000${run.sessionId ?? ""}\u0000${request}`;
}

/** The id of the request the run answered, as its result writes it (exported as written: cursor.request.id, request_id). */
export function requestIdOf(run: Run): string | undefined {
  const id = run.stated?.requestId;
  return id !== undefined && id !== "" ? id : undefined;
}

/** 32 hex digits (16 bytes), never all zero (an invalid trace id). */
export function traceIdOf(key: string): string {
  return nonZero(hex(key + "\u0000trace", 32));
}

/** 16 hex digits (8 bytes), never all zero. `part` names the span within its trace. */
export function spanIdOf(key: string, part: string): string {
  return nonZero(hex(key + "\u0000span\u0000" + part, 16));
}

function hex(s: string, digits: number): string {
  return createHash("sha256").update(s, "utf8").digest("hex").slice(0, digits);
}

function nonZero(h: string): string {
  return /^0+$/.test(h) ? h.slice(0, -1) + "1" : h;
}

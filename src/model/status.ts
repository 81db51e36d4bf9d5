/**
 * A call's status, in one set of bins for every output and every agent:
 *
 * - `ok`: it did what was asked (cursor-agent's `success` arm);
 * - `refused`: it was not let run (rejected by the user or a hook, permission denied);
 * - `failed`: it ran and failed, or errored, or timed out, or could not start — any other outcome
 *   the agent reported, known or not;
 * - `no-result`: it completed with no outcome at all (a completion without a result arm);
 * - `open`: it never completed in the log (its run ended first).
 *
 * The dialect decides the bin from the agent's own words (AgentStatus); the agent's word itself is
 * kept beside it (`Call.arm`) for the outputs that print it as written (timeline's `status`).
 */
export type CallStatus = "ok" | "refused" | "failed" | "no-result" | "open";

export const CALL_STATUSES: readonly CallStatus[] = ["ok", "refused", "failed", "no-result", "open"];

/** A call that did not succeed, and was not simply left open. */
export function isFailure(s: CallStatus): boolean {
  return s === "failed" || s === "refused" || s === "no-result";
}

import type { JsonObject } from "../../input/record.js";
import type { Notice } from "../../model/run.js";
import { isPlainObject } from "./types.js";

/**
 * What a `connection`, `retry` or `interaction_query` event tells of the run itself (FORMAT.md §2):
 * the connection lost and back, a request retried or resumed; of the approval hand-shake, a plan
 * submitted for approval (`createPlanRequestQuery.args.plan`: in --mode plan the plan comes so,
 * not as assistant text) and a response that rejects a request. Undefined for anything else.
 */
export function noticeOf(ev: JsonObject): Notice | undefined {
  const attempt = typeof ev.attempt === "number" ? ev.attempt : undefined;
  switch (ev.type) {
    case "connection":
      if (ev.subtype === "reconnecting") return { kind: "reconnecting", attempt };
      return ev.subtype === "reconnected" ? { kind: "reconnected" } : undefined;
    case "retry":
      if (ev.subtype === "starting") return { kind: "retrying", attempt };
      return ev.subtype === "resuming" ? { kind: "resuming" } : undefined;
    case "interaction_query":
      return interaction(ev);
    default:
      return undefined;
  }
}

function interaction(ev: JsonObject): Notice | undefined {
  if (ev.subtype === "request" && isPlainObject(ev.query)) {
    for (const [k, body] of Object.entries(ev.query)) {
      if (k !== "createPlanRequestQuery" || !isPlainObject(body) || !isPlainObject(body.args)) continue;
      if (typeof body.args.plan === "string" && body.args.plan.trim() !== "") return { kind: "plan", text: body.args.plan };
    }
    return undefined;
  }
  if (ev.subtype === "response" && isPlainObject(ev.response)) {
    for (const [k, body] of Object.entries(ev.response)) {
      if (k === "id" || !isPlainObject(body) || !isPlainObject(body.rejected)) continue;
      const reason = body.rejected.reason;
      return { kind: "rejected", what: requestWords(k), reason: typeof reason === "string" && reason !== "" ? reason : undefined };
    }
  }
  return undefined;
}

/** `createPlanRequestResponse` → `create plan`: a request's name in words. */
function requestWords(name: string): string {
  return name
    .replace(/(Request)?(Query|Response)$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

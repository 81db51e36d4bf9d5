import { openCount, type Session } from "../../events/sessions.js";
import { actionLabel, actionTarget } from "../../events/action.js";

/** "session 3f2a… has no result: the log ends after line 57 with 2 tool calls still open (…)". */
export function incompleteMessage(s: Session): string {
  const who = s.sessionId !== undefined ? `session ${s.sessionId}` : `session #${s.index}`;
  const open = openCount(s);
  let msg = `${who} has no result: its lines end at line ${s.lastLine}`;
  if (open === 0) return msg + ", no tool call open";
  msg += `, ${open} tool call${open === 1 ? "" : "s"} still open`;
  const shown: string[] = [];
  for (const c of s.open.values()) {
    if (shown.length === 3) break;
    const target = actionTarget(c);
    shown.push(`${actionLabel(c)}${target ? ` ${JSON.stringify(target.length > 40 ? target.slice(0, 40) + "…" : target)}` : ""} (line ${c.line})`);
  }
  return `${msg}: ${shown.join(", ")}${open > 3 ? ", …" : ""}`;
}

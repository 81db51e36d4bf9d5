// What the heap-measuring children (open-call-heap.ts, timeline-open-heap.ts) share: a full gc
// (they run with --expose-gc), call ids as 2026 logs write them, the `started` line they feed N
// times, and their command line of groups (`N ARGS_BYTES [MORE] [-- N ARGS_BYTES [MORE]]...`, one
// JSON line out per group, in order).

const exposed = (globalThis as { gc?: () => void }).gc;
if (exposed === undefined) throw new Error("run with --expose-gc");
/** A full garbage collection. */
export const gc: () => void = exposed;

/** The i-th call id, newline included, as 2026 logs write them. */
export const callId = (i: number): string => `call-${i.toString(16).padStart(8, "0")}-0\nfc_${i.toString(16).padStart(8, "0")}`;

/**
 * The i-th `started` line of a shell call whose command is about `argsBytes` long (`filler` made
 * once: "x" repeated), with the usual other arguments; `startedAtMs` adds the 2026 sibling.
 */
export function startedLine(i: number, filler: string, sessionId: string, startedAtMs: boolean): string {
  const tool_call: Record<string, unknown> = { shellToolCall: { args: { command: `echo ${i} ${filler}`, workingDirectory: "/w", timeout: 30000, toolCallId: callId(i) } }, toolCallId: callId(i) };
  if (startedAtMs) tool_call.startedAtMs = "1767225600000";
  return JSON.stringify({
    type: "tool_call",
    subtype: "started",
    call_id: callId(i),
    tool_call,
    model_call_id: "b1e2c3d4-0a9b-4c8d-8e7f-123456789abc-0-ab1z",
    session_id: sessionId,
    timestamp_ms: 1767225600000 + i,
  });
}

/** "x" repeated so that a command `echo i …` is about `argsBytes` long. */
export const fillerOf = (argsBytes: number): string => "x".repeat(Math.max(0, argsBytes - 20));

/** Runs `measure` on each group of numbers of the command line, writing its line for each. */
export function runGroups(measure: (group: number[]) => string): void {
  const groups: number[][] = [[]];
  for (const a of process.argv.slice(2)) {
    if (a === "--") groups.push([]);
    else groups.at(-1)!.push(Number(a));
  }
  for (const g of groups) process.stdout.write(measure(g) + "\n");
}

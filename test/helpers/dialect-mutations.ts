import type { Dialect } from "../../src/dialects/dialect.js";
import type { JsonObject } from "../../src/input/record.js";
import type { Call } from "../../src/model/call.js";
import type { Run } from "../../src/model/run.js";
import { recordsOf } from "./records.js";

// What the field-mutation tests of a dialect share (codex-robust, gemini-robust): the wrong values
// a field is given, every path into a line, a line with one of them removed or replaced, and a
// reading of mutated lines that asks every fact of every call and run.

/** The wrong values a field is given in turn. */
export const WRONG: unknown[] = [null, 0, -1.5, "", "x\u001b[2J", true, [], {}, [null, "x"], { __proto__: null, constructor: 1 }];

/** Every path to a value inside `v` (keys and indexes), the root excluded. */
export function pathsOf(v: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...prefix, i]), pathsOf(x, [...prefix, i], out)));
  else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) out.push([...prefix, k]), pathsOf((v as JsonObject)[k], [...prefix, k], out);
  return out;
}

/** A copy of `e` with the value at `path` removed (`replace` undefined) or replaced. */
export function mutate(e: JsonObject, path: ReadonlyArray<string | number>, replace: { value: unknown } | undefined): JsonObject {
  const copy = JSON.parse(JSON.stringify(e)) as JsonObject;
  let parent: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replace === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else Object.defineProperty(parent, last, { value: replace.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Every fact of a Call, asked once (a getter that throws fails the test). */
export function touch(c: Call): void {
  void [c.id, c.seq, c.kind, c.tool, c.startTool, c.label, c.target, c.targetIsPath, c.targetWith((p) => `<${p}>`), c.status, c.arm, c.note(), c.note(10), c.timing, c.exitStatus, c.signal];
  void [c.backgroundTask, c.parentId, c.responseId, c.startLine, c.endLine, c.fileChange(), c.writesFiles, c.failureText(), c.args, c.argsCut, c.mcp, c.subagent, c.outcome];
}

/** Reads `events` (as lines of `file`) through `dialect` and asks every fact of every call and run. */
export function readAll(dialect: Dialect, events: JsonObject[], file: string): Run[] {
  const reader = dialect.reader({ numberUnstarted: true, maxOpen: 3 });
  const runs = new Set<Run>();
  for (const r of recordsOf(events, file)) {
    const step = reader.read(r);
    runs.add(step.run);
    for (const e of step.calls ?? []) touch(e.call);
  }
  const last = reader.endFile(events.length);
  if (last !== undefined) runs.add(last);
  for (const run of runs) {
    for (const c of run.openCalls()) touch(c);
    void [run.outcome, run.failure, run.stated, run.usage, run.result?.text, run.said, run.openCount, run.sessionId];
  }
  return [...runs];
}

/**
 * Every field of every line shape of `fixtures` (each file's lines as parsed values), removed or
 * given a wrong value, each mutated log handed to `check` with its context; `sampled` is true for
 * the ones the commands should run on. make test: each line shape once across the fixtures, one
 * replacement per field in turn (removed one time in three), every eighth sampled; make stress:
 * every line, every replacement, all sampled. Returns how many logs were made.
 */
export async function eachFieldMutation(
  fixtures: ReadonlyArray<{ name: string; events: JsonObject[] }>,
  shapeOf: (e: JsonObject) => string,
  stress: boolean,
  check: (mutated: JsonObject[], context: string, sampled: boolean) => Promise<void>,
): Promise<number> {
  const seen = new Set<string>();
  let turn = 0;
  let cases = 0;
  for (const { name, events } of fixtures) {
    for (let i = 0; i < events.length; i++) {
      const shape = shapeOf(events[i]!);
      if (!stress && seen.has(shape)) continue;
      seen.add(shape);
      for (const path of pathsOf(events[i]!)) {
        const replaces = stress ? [undefined, ...WRONG.map((value) => ({ value }))] : [turn++ % 3 === 0 ? undefined : { value: WRONG[turn % WRONG.length] }];
        for (const replace of replaces) {
          const mutated = events.slice();
          mutated[i] = mutate(events[i]!, path, replace);
          await check(mutated, `${name} line ${i + 1} ${path.join(".")} ${replace === undefined ? "removed" : `= ${JSON.stringify(replace.value)}`}`, stress || cases % 8 === 0);
          cases++;
        }
      }
    }
  }
  return cases;
}

import { dialectOf } from "../../dialects/index.js";
import type { Call } from "../../model/call.js";
import type { Run } from "../../model/run.js";

/** Task calls whose titles are kept per run at most (past it, a subagent is named by its task call's id). */
export const MAX_TITLES = 10_000;

/**
 * The title of each subagent of a run, for the outputs that mark a subagent's own lines and calls
 * (Step.parentId, Call.parentId: the id of the task call that started it): the task call's target
 * (its description, else its subagent type), else its id; a subagent started by a subagent is named
 * after both (`outer > inner`). Kept from the task call's start until it completes, or until the
 * run ends for a task that goes on in the background (its subagent's lines come after it).
 * Memory: the task calls open or in the background, at most MAX_TITLES.
 */
export class SubagentTitles {
  /** By task call id: the titles of its subagent and of those above it, and their task calls' ids, outermost first. */
  private readonly titles = new Map<string, { titles: string[]; ids: string[] }>();

  /** A call started: a task call's title is kept. */
  started(call: Call): void {
    if (call.kind !== "task" || this.titles.has(call.id) || this.titles.size >= MAX_TITLES) return;
    const own = call.target !== "" ? call.target : call.id;
    const up = call.parentId !== undefined ? this.entry(call.parentId) : { titles: [], ids: [] };
    this.titles.set(call.id, { titles: [...up.titles, own], ids: [...up.ids, call.id] });
  }

  /** A call completed: a task call's title goes, unless its subagent runs on in the background. */
  done(call: Call): void {
    if (call.kind === "task" && call.backgroundTask === undefined) this.titles.delete(call.id);
  }

  /** The titles naming the subagent of task call `parentId`, outermost first. */
  chain(parentId: string): string[] {
    return this.entry(parentId).titles;
  }

  /** The task calls above the subagent of task call `parentId` and its own, outermost first (its own alone when its task call was not seen). */
  ids(parentId: string): string[] {
    return this.entry(parentId).ids;
  }

  private entry(parentId: string): { titles: string[]; ids: string[] } {
    return this.titles.get(parentId) ?? { titles: [parentId], ids: [parentId] };
  }

  clear(): void {
    this.titles.clear();
  }
}

/**
 * Whether lines told after the run's result may still show something of it: its dialect's runs go
 * on after their result (Dialect.linesAfterResult) and, when the result came, a call was still open
 * or a background task still running (what comes after it is their end). An output that shows
 * those lines with the run holds what it writes at the run's end until the next run begins or the
 * file ends (driver.ts: they are told after the run's runEnd).
 */
export function goesOnAfterResult(run: Run): boolean {
  if (dialectOf(run.agent)?.linesAfterResult !== true) return false;
  return run.openCount > 0 || (run.backgroundRunning?.(1).length ?? 0) > 0;
}

import type { BackgroundEnd } from "../model/call.js";
import type { CallEvent, Notice, Run, Step } from "../model/run.js";

/**
 * The Step every dialect's reader makes of a line: a class with every member present from the
 * start, so that every Step has one shape for the driver and the outputs that read it (members
 * added one by one to a literal gave each line another shape: the run model's figures,
 * bench/results/2026-11-27-run-model.md). A reader sets the members its line tells.
 */
export class LineStep implements Step {
  at: number | undefined = undefined;
  parentId: string | undefined = undefined;
  begun: true | undefined = undefined;
  ended: Run | undefined = undefined;
  calls: readonly CallEvent[] | undefined = undefined;
  backgroundEnd: BackgroundEnd | undefined = undefined;
  result: true | undefined = undefined;
  text: { text: string; delta: boolean } | undefined = undefined;
  thinking: { text: string; done: boolean } | undefined = undefined;
  user: string | undefined = undefined;
  init: true | undefined = undefined;
  notice: Notice | undefined = undefined;

  constructor(readonly run: Run) {}
}

import type { ExitCode } from "../exit-codes.js";
import type { Io } from "./io.js";

/** What a command definition gets: the run's io, and where to leave the work its action chose. */
export interface CommandContext {
  io: Io;
  /** Called by a command's action with the work to do; main runs it after parsing. */
  setRun(run: () => Promise<ExitCode>): void;
}

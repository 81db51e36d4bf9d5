import type { AgentId } from "../model/run.js";
import { cursorDialect } from "./cursor/reader.js";
import type { Dialect } from "./dialect.js";

/**
 * The dialects cursorlog reads, in the order a file's first events are tried against them. A new
 * agent's dialect (src/dialects/<agent>/) is added here; nothing above the model changes.
 */
export const DIALECTS: readonly Dialect[] = [cursorDialect];

/** The dialect of an agent, when cursorlog has one (`--agent` will name it). */
export function dialectOf(agent: AgentId): Dialect | undefined {
  return DIALECTS.find((d) => d.agent === agent);
}

import pc from "picocolors";
import type { Colors } from "picocolors/types.js";
import type { InputOptions } from "../input/read-inputs.js";
import type { Io } from "./io.js";

export type ColorWhen = "auto" | "always" | "never";

/** Defaults < environment (NO_COLOR, FORCE_COLOR) < flags, in one place. */
export function resolveColor(flag: ColorWhen | undefined, env: Io["env"], isTTY: boolean): boolean {
  if (flag === "always") return true;
  if (flag === "never") return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY && env.TERM !== "dumb";
}

export function colorsFor(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

/** 500 MiB: above this a single line is rejected rather than held in memory (V8 strings stop near 512 MiB). */
export const DEFAULT_MAX_LINE_BYTES = 500 * 1024 * 1024;

export interface SharedRaw {
  /** --agent: the log's format, forced (an agent with a dialect: dialects/index.ts). */
  agent?: string;
  lenient?: boolean;
  maxLineBytes?: number;
  color?: ColorWhen;
  jobs?: number;
  follow?: boolean;
  /** -F / --follow=name (tail's): follow the name, through renames and deletions. */
  "follow=name"?: boolean;
  /** --progress / --no-progress; undefined: on when stderr is a terminal and not in CI. */
  progress?: boolean;
}

export function inputOptions(files: string[], raw: SharedRaw, io: Io): InputOptions {
  const opts: InputOptions = {
    files,
    stdin: io.stdin,
    maxLineBytes: raw.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    stopAtMalformed: !raw.lenient,
  };
  if (raw["follow=name"]) opts.follow = "name";
  else if (raw.follow) opts.follow = "descriptor";
  if (opts.follow !== undefined && raw.agent !== undefined) opts.agent = raw.agent;
  if (io.open) opts.open = io.open;
  return opts;
}

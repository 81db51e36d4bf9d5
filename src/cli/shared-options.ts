import { Command, InvalidArgumentError, Option } from "commander";
import { AGENTS } from "../dialects/index.js";

export function parseSize(value: string): number {
  const m = /^(\d+)([kmg]i?b?)?$/i.exec(value.trim());
  if (!m) throw new InvalidArgumentError("expected a size such as 1048576, 64K, 500M or 2G");
  const unit = (m[2] ?? "").toLowerCase()[0];
  const mult = unit === "k" ? 1024 : unit === "m" ? 1024 ** 2 : unit === "g" ? 1024 ** 3 : 1;
  return Number(m[1]) * mult;
}

export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("expected a whole number");
  return Number(value);
}

/** The options every command that reads logs shares (csvkit's common parser, ripgrep's defs.rs). */
export function withInputOptions(cmd: Command): Command {
  return cmd
    .argument("[files...]", "log files to read in order (plain or gzip, or directories of logs); none or - means stdin")
    .addOption(
      new Option("--agent <name>", `read every file as this agent's log (${AGENTS.join(", ")}); default: each file's own, from its first event`).choices([...AGENTS]).helpGroup("Input options:"),
    )
    .addOption(
      new Option("--lenient", "report lines that are not JSON objects, skip them and go on (exit status still 5)").helpGroup(
        "Input options:",
      ),
    )
    .addOption(
      new Option("--max-line-bytes <size>", "reject lines longer than this (default 500M)")
        .argParser(parseSize)
        .helpGroup("Input options:"),
    )
    .addOption(new Option("--progress", "show bytes done, MB/s and time left on stderr (default: on a terminal, not in CI)").helpGroup("Output options:"))
    .addOption(new Option("--no-progress", "never show the progress line").helpGroup("Output options:"))
    .addOption(
      new Option("--color <when>", "colour the output: auto, always or never (NO_COLOR, FORCE_COLOR respected)")
        .choices(["auto", "always", "never"])
        .helpGroup("Output options:"),
    );
}

/**
 * `-j/--jobs N` for commands whose output per file does not depend on the other files (json, text,
 * filter, timeline csv/tsv/ndjson; not stats, validate or the HTML timeline, whose output sums up
 * every file).
 */
export function withJobsOption(cmd: Command): Command {
  return cmd.addOption(
    new Option(
      "-j, --jobs <n>",
      "read up to N files at once in worker threads (at most the machine's CPUs); output stays in file order, byte for byte",
    )
      .argParser(parseCount)
      .helpGroup("Input options:"),
  );
}

/**
 * `-f/--follow` for commands that are useful on a log still being written, and tail's `-F`
 * (`--follow=name`). Commander cannot give `--follow` a value only when attached (`-f FILE` must
 * stay a file), so tail's two long spellings are options of their own.
 */
export function withFollowOption(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        "-f, --follow",
        "keep reading files as they grow (tail -f) until the run's result arrives or you interrupt; a file truncated is read again from its start",
      ).helpGroup("Input options:"),
    )
    .addOption(
      new Option(
        "-F, --follow=name",
        "like -f, but follow the file's name (tail -F): a file renamed, deleted or re-created (logrotate) is reopened when the name is back",
      ).helpGroup("Input options:"),
    )
    .addOption(new Option("--follow=descriptor", "the same as -f (tail's spelling)").implies({ follow: true }).hideHelp());
}

/**
 * grep's and ripgrep's `-H/--with-filename` and `--no-filename`: whether the output names the
 * file each line (or object, or row) came from. The last one given wins, so `--no-filename` undoes
 * an alias's `-H`; the choice is left in `fileNames` (undefined when neither was given: off).
 */
export function withFilenameOption(cmd: Command, what: string, without = "do not name the files (the default: the output stays the data it is)"): Command {
  cmd
    .addOption(new Option("-H, --with-filename", what).helpGroup("Output options:"))
    .addOption(new Option("--no-filename", without).helpGroup("Output options:"));
  cmd.on("option:with-filename", () => cmd.setOptionValueWithSource("fileNames", true, "cli"));
  cmd.on("option:no-filename", () => cmd.setOptionValueWithSource("fileNames", false, "cli"));
  return cmd;
}

/** True when -f, -F or one of their long spellings was given. */
export function following(raw: { follow?: boolean; "follow=name"?: boolean }): boolean {
  return raw.follow === true || raw["follow=name"] === true;
}

/**
 * Options that may come before the command (`cursorlog --color never text …`) and apply to it
 * (main.ts passes them on): the output ones every command shares.
 */
export function globalOptions(): Option[] {
  return [
    new Option("--color <when>", "colour the output: auto, always or never").choices(["auto", "always", "never"]),
    new Option("--progress", "show the progress line on stderr"),
    new Option("--no-progress", "never show the progress line"),
    new Option("-o, --output <file>", "write the output to FILE, replaced only when the run completes"),
  ];
}

/** The widest `--width` (and COLUMNS) taken: a rule or a padded line is built that wide. */
export const MAX_WIDTH = 99999;

/** A `--width`: a whole number of columns, 0 (no limit) to MAX_WIDTH. */
export function parseWidth(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > MAX_WIDTH) throw new InvalidArgumentError(`expected a whole number of columns from 0 to ${MAX_WIDTH}`);
  return Number(value);
}

/** `--width N` for commands that fit their output to the terminal; 0: no limit. */
export function withWidthOption(cmd: Command, what: string): Command {
  return cmd.addOption(new Option("-w, --width <columns>", what).argParser(parseWidth).helpGroup("Output options:"));
}

/**
 * The columns to fit output to: --width, else COLUMNS, else the terminal's width, else 80 (in a
 * pipe, as man and git do for text meant to be read). 0 means no limit.
 */
export function outputWidth(flag: number | undefined, io: { env: Record<string, string | undefined>; stdout: unknown; stdoutIsTTY: boolean }): number {
  if (flag !== undefined) return flag;
  const env = io.env.COLUMNS;
  if (env !== undefined && /^\d{1,5}$/.test(env) && Number(env) > 0) return Number(env);
  if (io.stdoutIsTTY) {
    const cols = (io.stdout as { columns?: unknown }).columns;
    if (typeof cols === "number" && cols > 0) return cols;
  }
  return 80;
}

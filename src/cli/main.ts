import { existsSync, readFileSync } from "node:fs";
import { CommanderError, type Command } from "commander";
import { formatDiagnostic } from "../diagnostics.js";
import { ExitCode } from "../exit-codes.js";
import { isBrokenPipe } from "../stream/run-stage.js";
import { OutputError } from "../stream/write-error.js";
import type { CommandContext } from "./command-context.js";
import { colorsFor } from "./config.js";
import { HELP_WIDTH, layoutHelp } from "./help.js";
import type { Io } from "./io.js";
import { OutputFile, runCompleted } from "./output-file.js";
import { buildProgram, COMMANDS } from "./program.js";
import { didYouMean } from "./suggest.js";

export type { Io } from "./io.js";
export { processIo } from "./process-io.js";

export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Runs one invocation: parse argv, run the chosen command, map every outcome to an exit status. */
export async function main(argv: readonly string[], ioIn: Io): Promise<ExitCode> {
  const io: Io = { ...ioIn };
  let run: (() => Promise<ExitCode>) | undefined;
  const ctx: CommandContext = { io, setRun: (r) => (run = r) };
  const program = buildProgram(ctx, VERSION, soleCommand(argv));
  configure(program, io);
  layoutHelp(program);
  let action: Command | undefined;
  program.hook("preAction", (root, cmd) => {
    action = cmd;
    inheritGlobals(root, cmd);
  });
  const misplaced = notACommand(program, argv);
  if (misplaced !== undefined) {
    io.stderr.write(misplaced);
    return ExitCode.USAGE_OR_IO;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    // `help [CMD]` asked for is status 0, as `CMD --help` is (commander's help() takes its status
    // from process.exitCode, which says nothing of this run when main runs in a process that has
    // done other work); the help commander shows for no command at all stays a usage error.
    if (err instanceof CommanderError && err.code === "commander.help") return commandWords(argv)[0] === "help" ? ExitCode.OK : ExitCode.USAGE_OR_IO;
    if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE_OR_IO;
    throw err;
  }
  if (run === undefined) {
    io.stderr.write(program.helpInformation());
    return ExitCode.USAGE_OR_IO;
  }
  const opts = action?.opts() ?? {};
  const output = opts.output as string | undefined;
  if (output === undefined || output === "-") return runGuarded(run, io);
  const file = await OutputFile.open(output, io);
  if (file === undefined) return ExitCode.USAGE_OR_IO;
  io.stdout = file.writable;
  if (file.identity !== undefined) io.output = file.identity;
  delete io.stdoutFd;
  io.stdoutIsTTY = false;
  // A write to FILE that failed is said once, naming FILE, by close().
  const code = await runGuarded(run, io, (err) => file.failed(err));
  return file.close(code, runCompleted(code, opts.lenient === true), io, output);
}

async function runGuarded(run: () => Promise<ExitCode>, io: Io, saidLater: (err: unknown) => boolean = () => false): Promise<ExitCode> {
  try {
    return await run();
  } catch (err) {
    if (isBrokenPipe(err)) return ExitCode.OK;
    if (saidLater(err)) return ExitCode.USAGE_OR_IO;
    // A write that failed (a full disk): said as such, never a stack trace or "invalid log" (status 1).
    const message =
      (err as NodeJS.ErrnoException)?.syscall === "write" ? new OutputError("output", err).message : err instanceof Error ? err.message : String(err);
    io.stderr.write(formatDiagnostic({ severity: "error", message, code: ExitCode.USAGE_OR_IO }, colorsFor(false)));
    return ExitCode.USAGE_OR_IO;
  }
}

/**
 * Options given before the command (`cursorlog --color never text …`) apply to it, as they do
 * after it; given in both places, the one after the command wins.
 */
function inheritGlobals(root: Command, cmd: Command): void {
  if (cmd === root) return;
  for (const [key, value] of Object.entries(root.opts())) {
    if (value === undefined || root.getOptionValueSource(key) !== "cli") continue;
    if (cmd.getOptionValueSource(key) === "cli") continue;
    if (!cmd.options.some((o) => o.attributeName() === key)) continue;
    cmd.setOptionValueWithSource(key, value, "cli");
  }
}

/** A command's global options that take a value (their value is not the command). */
const GLOBAL_VALUE_OPTIONS = new Set(["-o", "--output", "--color"]);

/** The command line's first word, and its second after `help`: the words before any command option. */
function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a.startsWith("-") && a !== "-") {
      if (GLOBAL_VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    words.push(a);
    if (words[0] !== "help") break;
  }
  return words;
}

/**
 * The command a run names, where it needs no other: its first word, when that is a command's name
 * (not `completion`, whose script lists every command; `help`, the hidden `man` and a word that is
 * no command get the whole program: their help, suggestions and messages name the others).
 */
function soleCommand(argv: readonly string[]): string | undefined {
  const first = commandWords(argv)[0];
  return first !== undefined && first !== "completion" && COMMANDS.some(([name]) => name === first) ? first : undefined;
}

/**
 * The message for a first word that is not a command when it names a log (`cursorlog run.ndjson`),
 * or for `cursorlog help NOSUCH`; undefined otherwise (commander reports other mistakes).
 */
function notACommand(program: Command, argv: readonly string[]): string | undefined {
  const words = commandWords(argv);
  const names = program.commands.map((c) => c.name());
  const [first, second] = words;
  if (first === undefined) return undefined;
  if (first === "help") {
    if (second === undefined || names.includes(second)) return undefined;
    return `cursorlog: error: unknown command '${second}'${didYouMean(second, names)}\nRun 'cursorlog --help' for the commands.\n`;
  }
  if (names.includes(first)) return undefined;
  if (first === "-" || existsSync(first) || /\.(ndjson|jsonl|json|log)(\.gz)?$|\.gz$/i.test(first)) {
    const reader = names.includes("show") ? "show" : "text -v";
    const shown = /^[\w./@%+=:,-]+$/.test(first) ? first : `'${first.replace(/'/g, `'\\''`)}'`;
    return (
      `cursorlog: error: '${first}' is not a command; name the command first:\n` +
      `  cursorlog ${reader} ${shown}\n` +
      `Run 'cursorlog --help' for the commands.\n`
    );
  }
  return undefined;
}

/** Commander writes through io and never exits the process; its errors take our grammar and status 2. */
function configure(cmd: Command, io: Io): void {
  cmd.exitOverride();
  const path = cmd.parent ? `cursorlog ${cmd.name()}` : "cursorlog";
  cmd.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    getOutHelpWidth: () => HELP_WIDTH,
    getErrHelpWidth: () => HELP_WIDTH,
    outputError: (s, write) => write(`cursorlog: ${s.trimEnd()}\nRun '${path} --help' for usage.\n`),
  });
  for (const sub of cmd.commands) configure(sub, io);
}

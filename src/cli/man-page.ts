import type { Command, Option } from "commander";
import { beforeHelpText } from "./help.js";

/** troff-safe text: a leading dot or quote escaped, backslashes doubled, dashes as \-. */
function roff(s: string): string {
  return s.replace(/\\/g, "\\e").replace(/-/g, "\\-").replace(/^([.'])/gm, "\\&$1");
}

function optionLine(o: Option): string {
  return `.TP\n.B ${roff(o.flags)}\n${roff(o.description)}${o.argChoices ? roff(` (one of: ${o.argChoices.join(", ")})`) : ""}\n`;
}

/** The examples a command's help opens with ("  $ …" lines of its before-help text). */
export function examplesOf(cmd: Command): string[] {
  // A long example goes on over lines indented deeper than its "$ " (after a "|" or a "\\").
  const out: string[] = [];
  for (const l of beforeHelpText(cmd).split("\n")) {
    if (l.trimStart().startsWith("$ ")) out.push(l.trim().slice(2));
    else if (out.length > 0 && /^ {5,}\S/.test(l)) out[out.length - 1] = `${out[out.length - 1]!.replace(/ ?\\$/, "")} ${l.trim()}`;
  }
  return out;
}

/**
 * man/cursorlog.1, generated from the same commander definitions as `--help` (one source): every
 * command, its examples and every option. `npm run build` writes it; a test keeps it current.
 */
export function manPage(program: Command, version: string): string {
  let out = `.TH CURSORLOG 1 "" "cursorlog ${roff(version)}" "User Commands"\n`;
  out += `.SH NAME\ncursorlog \\- ${roff(program.description())}\n`;
  out += `.SH SYNOPSIS\n.B cursorlog\n.I command\n[\n.I options\n] [\n.I file ...\n]\n`;
  out += `.SH DESCRIPTION\n${roff("Reads the NDJSON that cursor-agent --print --output-format stream-json writes, from the files named (plain or gzip, or directories of logs) or from standard input, and turns it, as a stream, into the output of the command given.")}\n`;
  out += `.SH EXAMPLES\n`;
  for (const ex of examplesOf(program)) out += `.PP\n.nf\n${roff(ex)}\n.fi\n`;
  out += `.SH COMMANDS\n`;
  for (const cmd of program.commands) {
    if (cmd.name() === "help") continue;
    const args = cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}${a.variadic ? "..." : ""}]`)).join(" ");
    out += `.SS "cursorlog ${roff(cmd.name())}${args ? " " + roff(args) : ""}"\n${roff(cmd.description())}\n`;
    const examples = examplesOf(cmd);
    if (examples.length > 0) {
      out += `.PP\nExamples:\n`;
      for (const ex of examples) out += `.PP\n.nf\n.RS\n${roff(ex)}\n.RE\n.fi\n`;
    }
    for (const o of cmd.options) out += optionLine(o);
  }
  out += `.SH OPTIONS\n`;
  for (const o of program.options) out += optionLine(o);
  out += `.SH "EXIT STATUS"\n`;
  for (const [code, text] of [
    ["0", "success"],
    ["1", "the answer is no: validate found invalid lines, filter -e matched nothing, a result has is_error: true"],
    ["2", "usage error, or an input that could not be read"],
    ["3", "a schema does not compile, or recurses without end"],
    ["4", "a session ended without its result event"],
    ["5", "a line is not a JSON object"],
    ["129, 130, 131, 142, 143", "interrupted by SIGHUP, SIGINT, SIGQUIT, SIGALRM, SIGTERM"],
  ]) {
    out += `.TP\n.B ${roff(code!)}\n${roff(text!)}\n`;
  }
  out += `.SH ENVIRONMENT\n.TP\n.B NO_COLOR\nno colour, unless \\-\\-color always\n.TP\n.B FORCE_COLOR\ncolour even when not on a terminal (0 or false: never)\n`;
  out += `.SH "SEE ALSO"\n.BR jq (1)\n`;
  return out;
}

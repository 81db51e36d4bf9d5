import type { Command, Option } from "commander";
import { bundledSchemaNames } from "../validate/bundled-schemas.js";

/** The words an option's value may be, for options whose value is not a file and not free text. */
function valueWords(o: Option, schemas: string[]): string[] | undefined {
  if (o.argChoices) return o.argChoices;
  switch (o.long) {
    case "--type":
    case "--exclude-type":
      return schemas.filter((n) => n !== "defs");
    case "--subtype":
      return ["init", "started", "completed", "delta", "success", "error", "task_notification", "reconnecting", "reconnected", "starting", "resuming"];
    case "--tool":
      return ["shell", "read", "edit", "write", "delete", "ls", "glob", "grep", "semSearch", "mcp", "webFetch", "webSearch", "task", "await", "readLints", "updateTodos"];
    case "--status":
      return ["success", "failure", "rejected", "error", "timeout", "permissionDenied", "spawnError"];
    default:
      return undefined;
  }
}

/** Options whose value is a path. */
function takesFile(o: Option): boolean {
  return o.long === "--output" || o.long === "--schema";
}

function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

function flagsOf(cmd: Command): string[] {
  const out: string[] = [];
  for (const o of cmd.options) {
    if (o.short) out.push(o.short);
    if (o.long) out.push(o.long);
  }
  return out.concat(["-h", "--help"]);
}

/** The words a command's first argument may be (`completion <shell>`, `schema [type]`), if they are fixed. */
function argumentWords(cmd: Command, schemas: string[]): string[] | undefined {
  const arg = cmd.registeredArguments[0];
  if (arg?.argChoices) return arg.argChoices;
  if (cmd.name() === "schema") return schemas;
  if (cmd.name() === "help") return cmd.parent?.commands.map((c) => c.name()).filter((n) => n !== "help" && n !== "man");
  return undefined;
}

function visible(program: Command): Command[] {
  return program.commands.filter((c) => c.name() !== "man");
}

/** `case $prev in --format) words…` for one command's options. */
function bashValueCases(cmd: Command, schemas: string[], indent: string): string {
  let out = "";
  for (const o of cmd.options) {
    if (!takesValue(o)) continue;
    const names = [o.short, o.long].filter(Boolean).join("|");
    const words = valueWords(o, schemas);
    if (words) out += `${indent}${names}) COMPREPLY=($(compgen -W "${words.join(" ")}" -- "$cur")); return ;;\n`;
    else if (takesFile(o)) out += `${indent}${names}) COMPREPLY=($(compgen -f -- "$cur")); return ;;\n`;
    else out += `${indent}${names}) COMPREPLY=(); return ;;\n`;
  }
  return out;
}

/** `cursorlog completion bash`: generated from the command definitions, so it never falls behind. */
export function bashCompletion(program: Command): string {
  const schemas = bundledSchemaNames();
  const cmds = visible(program).map((c) => c.name());
  const globalsWithValue = program.options.filter(takesValue).flatMap((o) => [o.short, o.long].filter(Boolean));
  let cases = "";
  for (const c of visible(program)) {
    const args = argumentWords(c, schemas);
    cases +=
      `    ${c.name()})\n      opts="${flagsOf(c).join(" ")}"\n` +
      `      case $prev in\n${bashValueCases(c, schemas, "        ")}      esac\n` +
      (args ? `      args="${args.join(" ")}"\n` : "") +
      `      ;;\n`;
  }
  return `# bash completion for cursorlog (eval "$(cursorlog completion bash)", or save it under
# /etc/bash_completion.d/ or ~/.local/share/bash-completion/completions/cursorlog)
_cursorlog() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd="" i opts="" args=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in
      ${globalsWithValue.join("|")}) ((i++)) ;;
      -*) ;;
      *) cmd=\${COMP_WORDS[i]}; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    case $prev in
${bashValueCases(program, schemas, "      ")}    esac
    COMPREPLY=($(compgen -W "${cmds.join(" ")} ${flagsOf(program).join(" ")}" -- "$cur"))
    return
  fi
  case $cmd in
${cases}    *) ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n $args ]]; then
    COMPREPLY=($(compgen -W "$args" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -o bashdefault -F _cursorlog cursorlog
`;
}

function zshEscape(s: string): string {
  return s.replace(/[[\]:'\\]/g, (c) => (c === "'" ? "'\\''" : "\\" + c));
}

/** `cursorlog completion zsh`: the same, for zsh's compsys. */
export function zshCompletion(program: Command): string {
  const schemas = bundledSchemaNames();
  let subs = "";
  for (const c of visible(program)) subs += `    '${c.name()}:${zshEscape(c.description())}'\n`;
  let cases = "";
  for (const c of visible(program)) {
    const specs = c.options
      .map((o) => {
        const desc = zshEscape(o.description);
        const words = valueWords(o, schemas);
        const arg = takesValue(o) ? (words ? `:value:(${words.join(" ")})` : takesFile(o) ? ":file:_files" : ":value:") : "";
        // A literal '=' in an option's name (tail's --follow=name) is quoted for _arguments: one
        // backslash inside single quotes, two in the unquoted braces (the shell removes one).
        const names = ([o.short, o.long].filter(Boolean) as string[]).map((n) => n.replace(/[=+]/g, "\\$&"));
        const braced = names.map((n) => n.replace(/\\/g, "\\\\"));
        return names.length === 2 ? `'(${names.join(" ")})'{${braced.join(",")}}'[${desc}]${arg}'` : `'${names[0]}[${desc}]${arg}'`;
      })
      .join(" \\\n        ");
    const args = argumentWords(c, schemas);
    const rest = args ? `'1:${c.registeredArguments[0]?.name() ?? "command"}:(${args.join(" ")})'` : "'*:log file:_files'";
    cases += `    ${c.name()})\n      _arguments -s ${specs}${specs ? " \\\n        " : ""}${rest} ;;\n`;
  }
  return `#compdef cursorlog
# zsh completion for cursorlog: save as _cursorlog in a directory of your $fpath
_cursorlog() {
  local -a commands
  commands=(
${subs}  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'cursorlog command' commands
    return
  fi
  case $words[2] in
${cases}  esac
}
_cursorlog "$@"
`;
}

function fishQuote(s: string): string {
  return `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** `cursorlog completion fish`: commands, each command's options with their values, then files. */
export function fishCompletion(program: Command): string {
  const schemas = bundledSchemaNames();
  const cmds = visible(program);
  let out = `# fish completion for cursorlog: cursorlog completion fish > ~/.config/fish/completions/cursorlog.fish
complete -c cursorlog -f
`;
  const option = (cond: string, o: Option): string => {
    let line = `complete -c cursorlog -n ${fishQuote(cond)}`;
    if (o.short) line += ` -s ${o.short.slice(1)}`;
    if (o.long) line += ` -l ${o.long.slice(2)}`;
    const words = valueWords(o, schemas);
    if (takesValue(o)) line += words ? ` -x -a ${fishQuote(words.join(" "))}` : takesFile(o) ? " -r -F" : " -x";
    return `${line} -d ${fishQuote(o.description)}\n`;
  };
  for (const o of program.options) out += option("__fish_use_subcommand", o);
  for (const c of cmds) out += `complete -c cursorlog -n __fish_use_subcommand -a ${c.name()} -d ${fishQuote(c.description())}\n`;
  for (const c of cmds) {
    const cond = `__fish_seen_subcommand_from ${c.name()}`;
    for (const o of c.options) out += option(cond, o);
    const args = argumentWords(c, schemas);
    if (args) out += `complete -c cursorlog -n ${fishQuote(cond)} -a ${fishQuote(args.join(" "))}\n`;
    else if (c.registeredArguments.some((a) => a.variadic)) out += `complete -c cursorlog -n ${fishQuote(cond)} -F\n`;
  }
  return out;
}

import type { Command } from "commander";

function flagsOf(cmd: Command): string[] {
  const out: string[] = [];
  for (const o of cmd.options) {
    if (o.short) out.push(o.short);
    if (o.long) out.push(o.long);
  }
  return out.concat(["-h", "--help"]);
}

/** `cursorlog completion bash`: generated from the command definitions, so it never falls behind. */
export function bashCompletion(program: Command): string {
  const cmds = program.commands.map((c) => c.name());
  let cases = "";
  for (const c of program.commands) cases += `    ${c.name()}) opts="${flagsOf(c).join(" ")}" ;;\n`;
  return `# bash completion for cursorlog (eval "$(cursorlog completion bash)", or save it under
# /etc/bash_completion.d/ or ~/.local/share/bash-completion/completions/cursorlog)
_cursorlog() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd="" i opts
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in -*) ;; *) cmd=\${COMP_WORDS[i]}; break ;; esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "${cmds.join(" ")} ${flagsOf(program).join(" ")}" -- "$cur"))
    return
  fi
  case $cmd in
${cases}    *) opts="" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
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
  let subs = "";
  for (const c of program.commands) subs += `    '${c.name()}:${zshEscape(c.description())}'\n`;
  let cases = "";
  for (const c of program.commands) {
    const specs = c.options
      .map((o) => {
        const desc = zshEscape(o.description);
        const arg = o.required || o.optional ? (o.argChoices ? `:value:(${o.argChoices.join(" ")})` : ":value:") : "";
        // A literal '=' in an option's name (tail's --follow=name) is quoted for _arguments: one
        // backslash inside single quotes, two in the unquoted braces (the shell removes one).
        const names = ([o.short, o.long].filter(Boolean) as string[]).map((n) => n.replace(/[=+]/g, "\\$&"));
        const braced = names.map((n) => n.replace(/\\/g, "\\\\"));
        return names.length === 2 ? `'(${names.join(" ")})'{${braced.join(",")}}'[${desc}]${arg}'` : `'${names[0]}[${desc}]${arg}'`;
      })
      .join(" \\\n        ");
    cases += `    ${c.name()})\n      _arguments -s ${specs}${specs ? " \\\n        " : ""}'*:log file:_files' ;;\n`;
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

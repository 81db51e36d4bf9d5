import { Command, Argument } from "commander";
import { ExitCode } from "../../exit-codes.js";
import type { CommandContext } from "../command-context.js";

export function completionCommand(ctx: CommandContext): Command {
  return new Command("completion")
    .description("print a shell completion script (bash or zsh)")
    .addHelpText(
      "before",
      `Examples:
  $ eval "$(cursorlog completion bash)"            # in ~/.bashrc
  $ cursorlog completion zsh > "\${fpath[1]}/_cursorlog"
`,
    )
    .addArgument(new Argument("<shell>", "bash or zsh").choices(["bash", "zsh"]))
    .action((shell: string, _opts: unknown, cmd: Command) => {
      const program = cmd.parent!;
      ctx.setRun(async () => {
        const { bashCompletion, zshCompletion } = await import("../completion.js");
        ctx.io.stdout.write(shell === "bash" ? bashCompletion(program) : zshCompletion(program));
        return ExitCode.OK;
      });
    });
}

/** Hidden: prints the man page, which the build writes to man/cursorlog.1. */
export function manCommand(ctx: CommandContext, version: string): Command {
  const cmd = new Command("man").description("print the man page (troff)").action((_opts: unknown, c: Command) => {
    ctx.setRun(async () => {
      const { manPage } = await import("../man-page.js");
      ctx.io.stdout.write(manPage(c.parent!, version));
      return ExitCode.OK;
    });
  });
  return cmd;
}

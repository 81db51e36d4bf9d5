import { Command, Argument } from "commander";
import { ExitCode } from "../../exit-codes.js";
import type { CommandContext } from "../command-context.js";
import { lazy } from "../../lazy.js";

const completionModule = lazy(() => import("../completion.js"));
const manPageModule = lazy(() => import("../man-page.js"));

export function completionCommand(ctx: CommandContext): Command {
  return new Command("completion")
    .description("print a shell completion script (bash, zsh or fish)")
    .addHelpText(
      "before",
      `Examples:
  $ eval "$(cursorlog completion bash)"            # in ~/.bashrc
  $ cursorlog completion zsh > "\${fpath[1]}/_cursorlog"
  $ cursorlog completion fish > ~/.config/fish/completions/cursorlog.fish
`,
    )
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(["bash", "zsh", "fish"]))
    .action((shell: string, _opts: unknown, cmd: Command) => {
      const program = cmd.parent!;
      ctx.setRun(async () => {
        const { bashCompletion, fishCompletion, zshCompletion } = await completionModule();
        ctx.io.stdout.write(shell === "bash" ? bashCompletion(program) : shell === "zsh" ? zshCompletion(program) : fishCompletion(program));
        return ExitCode.OK;
      });
    });
}

/** Hidden: prints the man page, which the build writes to man/cursorlog.1. */
export function manCommand(ctx: CommandContext, version: string): Command {
  const cmd = new Command("man").description("print the man page (troff)").action((_opts: unknown, c: Command) => {
    ctx.setRun(async () => {
      const { manPage } = await manPageModule();
      ctx.io.stdout.write(manPage(c.parent!, version));
      return ExitCode.OK;
    });
  });
  return cmd;
}

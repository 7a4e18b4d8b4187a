import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';

export const completionCommand = defineCommand({
  name: 'completion',
  args: '<shell>',
  summary: 'Print a shell completion script (bash, zsh or fish)',
  description: 'Completes every command and flag, and for `reldist api` the methods and the paths of the service.',
  examples: [
    'reldist completion bash > ~/.local/share/bash-completion/completions/reldist',
    'reldist completion zsh > "${fpath[1]}/_reldist"',
    'reldist completion fish > ~/.config/fish/completions/reldist.fish',
  ],
  async run(ctx, _opts, [shell]) {
    if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') throw new UsageError(`"${shell}" is not a supported shell`, 'use bash, zsh or fish');
    const { createFullProgram } = await import('../../build-program.js');
    const { commandTree, bashScript, zshScript, fishScript } = await import('./scripts.js');
    const { routes } = await import('../../../contract/routes.js');
    const tree = commandTree(await createFullProgram({ io: ctx.io, env: ctx.env }));
    const paths = [...new Set(Object.values(routes).map((r) => r.path))].sort();
    const gen = shell === 'bash' ? bashScript : shell === 'zsh' ? zshScript : fishScript;
    ctx.io.stdout.write(gen(tree, paths));
  },
});

// `reldist completion` as --help and shell completion see it. Declarations only; the code is in completion.ts.
import { defineCommand } from '../../command.js';

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
});

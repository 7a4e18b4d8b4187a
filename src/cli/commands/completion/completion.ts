import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { completionCommand } from './spec.js';
import { UsageError } from '../../errors.js';
import { commandTree, bashScript, zshScript, fishScript } from './scripts.js';
import { createFullProgram } from '../../build-program.js';
import { routes } from '../../../contract/routes.js';

export async function run(ctx: Context, _opts: OptsOf<typeof completionCommand>, [shell]: string[]): Promise<void> {
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') throw new UsageError(`"${shell}" is not a supported shell`, 'use bash, zsh or fish');
  const tree = commandTree(await createFullProgram({ io: ctx.io, env: ctx.env }));
  const paths = [...new Set(Object.values(routes).map((r) => r.path))].sort();
  const gen = shell === 'bash' ? bashScript : shell === 'zsh' ? zshScript : fishScript;
  ctx.io.stdout.write(gen(tree, paths));
}

// The one place (with commands/runners.ts and server-loader.ts) where the CLI loads code lazily:
// the services of a command's Context, and the heavy libraries that only some outputs need. Each
// `import()` here becomes its own chunk of the bundle (see docs/startup.md).
import type { ApiClient, Workload } from '../client/index.js';
import type { Context, Services } from './context.js';
import type { Session } from './session.js';

export type Prompter = Pick<typeof import('@inquirer/prompts'), 'input' | 'password' | 'confirm' | 'select'>;

/** Libraries loaded on first use by the modules that need them. */
export const lazy = {
  chalk: () => import('chalk'),
  table: () => import('cli-table3'),
  conf: () => import('conf'),
  yaml: () => import('yaml'),
  musicMetadata: () => import('music-metadata'),
};

/** The services of one command's context: each built once, on first use; `overrides` win (tests). */
export function createServices(ctx: Context, overrides: Partial<Services> = {}): Services {
  let session: Promise<Session> | undefined;
  const clients = new Map<Workload, Promise<ApiClient>>();
  const services: Services = {
    session: () => (session ??= import('./session.js').then((m) => m.openSession(ctx))),
    client: (options = {}) => {
      const workload = options.workload ?? 'oneshot';
      let client = clients.get(workload);
      if (!client) {
        client = Promise.all([import('./session.js'), ctx.services.session()]).then(([m, s]) => m.createSessionClient(ctx, s, workload));
        clients.set(workload, client);
      }
      return client;
    },
    cleanupClient: async () => {
      const [m, s] = await Promise.all([import('./session.js'), ctx.services.session()]);
      return m.createCleanupClient(ctx, s);
    },
    prompts: () => import('@inquirer/prompts'),
  };
  return { ...services, ...overrides };
}

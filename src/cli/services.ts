// The services of a command's Context, each loaded and built on first use. With lazy.ts,
// commands/runners.ts and server-loader.ts, the only places the CLI loads code lazily; each
// `import()` here becomes its own chunk of the bundle (see docs/startup.md).
import type { ApiClient, Workload } from '../client/index.js';
import type { Context, Services } from './context.js';
import type { Session } from './config/resolve.js';
import { strictConfirm } from './yes-no.js';

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
    prompts: () => import('@inquirer/prompts').then((m) => ({ input: m.input, password: m.password, select: m.select, confirm: strictConfirm(m.input) })),
  };
  return { ...services, ...overrides };
}

// The one lazy boundary between declarations and code: each command's run file, by its path
// without the root. Each `import()` is its own chunk of the bundle, loaded only when that command
// runs. test/unit/cli-runners.test.ts checks that every declared command has a runner here, and
// every runner a declaration.
import type { Runner, TakesDeclaredOptions, VerbModule } from '../command.js';

export const runners = {
  me: () => import('./me/me.js'),
  api: () => import('./api/api.js'),
  openapi: () => import('./openapi/openapi.js'),
  completion: () => import('./completion/completion.js'),
  serve: () => import('./serve/serve.js'),
  'serve token create': () => import('./serve/token-create.js'),
  'validate upc': () => import('./validate/upc.js'),
  'validate isrc': () => import('./validate/isrc.js'),
  'validate any': () => import('./validate/any.js'),
  'auth login': () => import('./auth/login.js'),
  'auth logout': () => import('./auth/logout.js'),
  'auth status': () => import('./auth/status.js'),
  'config get': () => import('./config/get.js'),
  'config set': () => import('./config/set.js'),
  'config unset': () => import('./config/unset.js'),
  'config list': () => import('./config/list.js'),
  'release list': () => import('./release/list.js'),
  'release get': () => import('./release/get.js'),
  'release create': () => import('./release/create.js'),
  'release edit': () => import('./release/edit.js'),
  'release delete': () => import('./release/delete.js'),
  'release submit': () => import('./release/submit.js'),
  'release withdraw': () => import('./release/withdraw.js'),
  'release apply': () => import('./release/apply.js'),
  'release export': () => import('./release/export.js'),
  'release import': () => import('./release/import.js'),
  'release watch': () => import('./release/watch.js'),
  'release history': () => import('./release/history.js'),
  'track list': () => import('./track/list.js'),
  'track get': () => import('./track/get.js'),
  'track check': () => import('./track/check.js'),
  'track upload': () => import('./track/upload.js'),
  'track replace': () => import('./track/replace.js'),
  'track edit': () => import('./track/edit.js'),
  'track set': () => import('./track/set.js'),
  'artwork check': () => import('./artwork/check.js'),
  'lookup countries': () => import('./lookup/countries.js'),
  'lookup platforms': () => import('./lookup/platforms.js'),
  'lookup genres': () => import('./lookup/genres.js'),
  'lookup languages': () => import('./lookup/languages.js'),
  'artist search': () => import('./artist/search.js'),
  'artist resolve': () => import('./artist/resolve.js'),
  'prefs artist': () => import('./prefs/artist.js'),
  'prefs label': () => import('./prefs/label.js'),
  'label artists list': () => import('./label/artists-list.js'),
  'label artists get': () => import('./label/artists-get.js'),
  'label artists remove': () => import('./label/artists-remove.js'),
  'events list': () => import('./events/list.js'),
  'events tail': () => import('./events/tail.js'),
  'webhook create': () => import('./webhook/create.js'),
  'webhook list': () => import('./webhook/list.js'),
  'webhook update': () => import('./webhook/update.js'),
  'webhook delete': () => import('./webhook/delete.js'),
  'webhook test': () => import('./webhook/test.js'),
  'webhook rotate-secret': () => import('./webhook/rotate-secret.js'),
  'webhook deliveries': () => import('./webhook/deliveries.js'),
  'webhook resend': () => import('./webhook/resend.js'),
  'webhook listen': () => import('./webhook/listen.js'),
  'upload list': () => import('./upload/list.js'),
  'upload discard': () => import('./upload/discard.js'),
  'sandbox approve': () => import('./sandbox/approve.js'),
  'sandbox reject': () => import('./sandbox/reject.js'),
  'sandbox deliver': () => import('./sandbox/deliver.js'),
  'sandbox go-live': () => import('./sandbox/go-live.js'),
  'sandbox withdraw': () => import('./sandbox/withdraw.js'),
  'sandbox take-down': () => import('./sandbox/take-down.js'),
  'sandbox prune': () => import('./sandbox/prune.js'),
} satisfies Record<string, () => Promise<VerbModule>>;

export type CommandPath = keyof typeof runners;

/**
 * The commands whose run takes options other than its declaration's (`OptsOf<typeof xCommand>`,
 * from the verb's spec.ts): there must be none. Checked by tsc (a path named here is the error),
 * and nothing is loaded for it.
 */
type RunsWithUndeclaredOptions = {
  [P in CommandPath]: TakesDeclaredOptions<Awaited<ReturnType<(typeof runners)[P]>>['run']> extends true ? never : P;
}[CommandPath];
export type EveryRunTakesItsDeclaredOptions = NoneOf<RunsWithUndeclaredOptions>;
type NoneOf<T extends never> = T;

export function isCommandPath(path: string): path is CommandPath {
  return Object.hasOwn(runners, path);
}

/** Loads the run file of the command at `path` (build-program.ts calls it when a command runs). */
export const runner: Runner = (path) => {
  if (!isCommandPath(path)) throw new Error(`reldist: no run file for "${path}"`);
  return runners[path]();
};

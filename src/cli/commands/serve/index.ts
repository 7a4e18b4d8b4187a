import { defineCommand } from '../../command.js';
import { CliError, UsageError } from '../../errors.js';
import { dataDir } from '../../paths.js';

interface Opts {
  host: string;
  port: string;
  dataDir?: string;
}

export const serveCommand = defineCommand<Opts>({
  name: 'serve',
  summary: 'Run the reference service as a standing sandbox',
  description:
    'Starts the sandbox service (with the /_sandbox review controls) over a data directory and prints one JSON line\n' +
    'on stdout: {"base_url": …, "tokens": {"label": …, "artist": …}}. Messages go to stderr. Ctrl-C (SIGINT) or SIGTERM\n' +
    'stops it cleanly: requests in flight finish first. Data survives restarts.',
  examples: [
    'reldist serve',
    'reldist serve --port 8080 --data-dir ./sandbox-data',
    'reldist serve --port 0 | head -n1 | jq -r .base_url',
  ],
  configure(cmd) {
    cmd
      .option('--host <host>', 'address to listen on (keep it on loopback unless you mean to share it)', '127.0.0.1')
      .option('--port <n>', 'port to listen on; 0 picks a free one', '0')
      .option('--data-dir <dir>', 'where the database and uploads live (default: the user data folder)');
  },
  async run(ctx, opts) {
    if (!/^\d{1,5}$/.test(opts.port) || Number(opts.port) > 65535) throw new UsageError(`--port: "${opts.port}" is not a port number (0-65535)`);
    if (opts.host.trim() === '') throw new UsageError('--host: must not be empty');
    const { serve } = await (await import('../../server-loader.js')).loadServe();
    const dir = opts.dataDir ?? dataDir(ctx.env);
    try {
      await serve({
        host: opts.host,
        port: Number(opts.port),
        dataDir: dir,
        stdout: ctx.io.stdout,
        stderr: ctx.io.stderr,
        signal: ctx.signal,
        verbose: ctx.globals.debug,
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new UsageError(`--port: ${opts.port} is already in use on ${opts.host}`, 'pick another port, or --port 0 for a free one');
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host: cannot listen on "${opts.host}"`);
      if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR') {
        throw new CliError(`cannot use the data directory ${dir} (${code})`, { hint: 'pass --data-dir with a writable folder', cause: e });
      }
      throw e;
    }
  },
});

import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { VERSION } from '../../version.js';

interface Opts {
  serverUrl?: string;
  format: string;
}

export const openapiCommand = defineCommand<Opts>({
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of the service interface',
  description: 'Generated from the same contract that the client and the reference service use.',
  examples: ['reldist openapi > openapi.json', 'reldist openapi --format yaml --server-url https://api.example.com'],
  configure(cmd) {
    cmd.option('--server-url <url>', 'the base URL to list under `servers`').option('--format <json|yaml>', 'output format', 'json');
  },
  async run(ctx, opts) {
    if (opts.format !== 'json' && opts.format !== 'yaml') throw new UsageError(`--format: "${opts.format}" must be json or yaml`);
    const { buildOpenApi } = await import('../../../contract/openapi.js');
    const doc = buildOpenApi({ version: VERSION, ...(opts.serverUrl ? { serverUrl: opts.serverUrl } : {}) });
    if (opts.format === 'yaml') {
      const { stringify } = await import('yaml');
      ctx.io.stdout.write(stringify(doc));
    } else {
      ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    }
  },
});

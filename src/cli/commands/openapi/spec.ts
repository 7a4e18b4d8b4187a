// `reldist openapi` as --help and shell completion see it. Declarations only; the code is in openapi.ts.
import { defineCommand } from '../../command.js';

export interface OpenapiOpts {
  serverUrl?: string;
  format: string;
}

export const openapiCommand = defineCommand<OpenapiOpts>({
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of the service interface',
  description: 'Generated from the same contract that the client and the reference service use.',
  examples: ['reldist openapi > openapi.json', 'reldist openapi --format yaml --server-url https://api.example.com'],
  configure(cmd) {
    cmd.option('--server-url <url>', 'the base URL to list under `servers`').option('--format <json|yaml>', 'output format', 'json');
  },
});

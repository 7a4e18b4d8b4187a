// `reldist openapi` as --help and shell completion see it. Declarations only; the code is in openapi.ts.
import { defineCommand, option, type OptsOf } from '../../command.js';

export type OpenapiOpts = OptsOf<typeof openapiCommand>;

export const openapiCommand = defineCommand({
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of the service interface',
  description: 'Generated from the same contract that the client and the reference service use.',
  examples: ['reldist openapi > openapi.json', 'reldist openapi --format yaml --server-url https://api.example.com'],
  options: [
    option('--server-url <url>', 'the base URL to list under `servers`'),
    { ...option('--format <json|yaml>', 'output format', 'json'), values: ['json', 'yaml'] },
  ],
});

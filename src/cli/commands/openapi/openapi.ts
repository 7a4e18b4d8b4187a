import type { Context } from '../../context.js';
import type { OpenapiOpts } from './spec.js';
import { UsageError } from '../../errors.js';
import { VERSION } from '../../version.js';
import { buildOpenApi } from '../../../contract/openapi.js';
// Static: this file is itself loaded only for `openapi`. A dynamic import('yaml') of the bundle
// gets the CommonJS package's namespace with `default` only, so `stringify` was undefined.
import { stringify } from 'yaml';

export async function run(ctx: Context, opts: OpenapiOpts): Promise<void> {
  if (opts.format !== 'json' && opts.format !== 'yaml') throw new UsageError(`--format: "${opts.format}" must be json or yaml`);
  const doc = buildOpenApi({ version: VERSION, ...(opts.serverUrl ? { serverUrl: opts.serverUrl } : {}) });
  if (opts.format === 'yaml') {
    ctx.io.stdout.write(stringify(doc));
  } else {
    ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
}

import type { Context } from '../../context.js';
import type { OpenapiOpts } from './spec.js';
import { UsageError } from '../../errors.js';
import { VERSION } from '../../version.js';
import { buildOpenApi } from '../../../contract/openapi.js';
import { lazy } from '../../lazy.js';

export async function run(ctx: Context, opts: OpenapiOpts): Promise<void> {
  if (opts.format !== 'json' && opts.format !== 'yaml') throw new UsageError(`--format: "${opts.format}" must be json or yaml`);
  const doc = buildOpenApi({ version: VERSION, ...(opts.serverUrl ? { serverUrl: opts.serverUrl } : {}) });
  if (opts.format === 'yaml') {
    ctx.io.stdout.write((await lazy.yaml()).stringify(doc));
  } else {
    ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
}

// `reldist api [method] <path>`: one authenticated request to the service, its answer printed.
import { readFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { METHODS, buildFields, parseHeader, toQuery, type FieldArg } from './fields.js';
import { pageOf } from '../../../client/index.js';
import { apiErrorFrom } from '../../../client/errors.js';
import type { ApiOpts } from './spec.js';

/** The repeatable flags, never missing. */
type Flags = ApiOpts & { rawField: string[]; field: string[]; header: string[] };

const MAX_PAGES = 10_000;

async function readStdin(ctx: Context): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}

export async function run(ctx: Context, opts: ApiOpts, args: string[]): Promise<void> {
  const flags = { ...opts, rawField: opts.rawField ?? [], field: opts.field ?? [], header: opts.header ?? [] };
  // As `gh api`: a path alone is a GET, or a POST when fields (or --input) give it a body.
  const [methodArg, pathArg] =
    args[1] === undefined ? [flags.rawField.length + flags.field.length > 0 || flags.input !== undefined ? 'POST' : 'GET', args[0]!] : [args[0]!, args[1]];
  await callApi(ctx, flags, methodArg, pathArg);
}

async function callApi(ctx: Context, opts: Flags, methodArg: string, pathArg: string): Promise<void> {
  const method = methodArg.toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`"${methodArg}" is not an HTTP method`, `use one of ${METHODS.join(', ')}`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathArg)) {
    // The token must only go to the configured service: no absolute URLs.
    throw new UsageError(`${pathArg}: give a path relative to the base URL, like /releases`, 'choose the service with --base-url or --profile');
  }
  const path = pathArg.startsWith('/') ? pathArg : `/${pathArg}`;
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');

  let stdinText: string | undefined;
  const stdinOnce = async () => (stdinText ??= await readStdin(ctx));
  const needsStdin = opts.input === '-' || opts.field.some((f) => f.slice(f.indexOf('=') + 1) === '@-');
  if (needsStdin) await stdinOnce();
  const readFile = (file: string): string => {
    if (file === '-') return stdinText ?? '';
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };

  const fieldArgs: FieldArg[] = [
    ...opts.rawField.map((text) => ({ kind: 'raw' as const, text })),
    ...opts.field.map((text) => ({ kind: 'typed' as const, text })),
  ];
  const fields = buildFields(fieldArgs, readFile);
  const hasFields = Object.keys(fields).length > 0;
  const headers: Record<string, string> = {};
  for (const h of opts.header) {
    const [name, value] = parseHeader(h);
    headers[name.toLowerCase()] = value;
  }

  let body: string | undefined;
  let query: Record<string, string | string[]> | undefined;
  if (opts.input !== undefined) {
    body = readFile(opts.input);
    if (hasFields) query = toQuery(fields);
  } else if (hasFields) {
    if (method === 'GET' || method === 'HEAD' || method === 'DELETE') query = toQuery(fields);
    else body = JSON.stringify(fields);
  }
  if (body !== undefined) headers['content-type'] ??= 'application/json';

  const client = await ctx.services.client({ workload: opts.paginate ? 'long' : 'oneshot' });

  if (opts.paginate) {
    const items: unknown[] = [];
    let page = Number(query?.page ?? 1);
    for (let n = 0; n < MAX_PAGES; n++) {
      const res = await client.request({ method, path, query: { ...query, page: String(page) }, headers });
      if (opts.include) writeHead(ctx, res);
      const { items: got, totalPages } = pageOf(res.data ?? JSON.parse(res.text || 'null'));
      items.push(...got);
      if (page >= totalPages || got.length === 0) break;
      page++;
    }
    ctx.io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    return;
  }

  const res = await client.send({ method, path, query, headers, body });
  if (opts.include) writeHead(ctx, res);
  if (res.data !== undefined) ctx.io.stdout.write(`${JSON.stringify(res.data, null, 2)}\n`);
  else if (res.text) ctx.io.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
  if (res.status < 200 || res.status >= 300) {
    // The body is printed (it is data); the exit code still says what went wrong.
    throw apiErrorFrom(res.status, res.statusText, res.text, res.headers, { method, path });
  }
}

function writeHead(ctx: Context, res: { status: number; statusText: string; headers: Record<string, string> }): void {
  const lines = [`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`];
  for (const [k, v] of Object.entries(res.headers)) lines.push(`${k}: ${v}`);
  ctx.io.stdout.write(`${lines.join('\n')}\n\n`);
}

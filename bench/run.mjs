#!/usr/bin/env node
// Runs benchmark scripts one after the other (never in parallel: they measure time on a shared
// machine). With no arguments: the named benches below when present (start-up, codes, apply,
// service, upload, sandbox, batches, export, import, events, webhooks, and issue 24's uploads-link,
// uploads-resume, uploads-faults and uploads-memory at their quick settings), then every
// bench/*.bench.mjs. With arguments: those scripts, in that order.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const scripts =
  args.length > 0
    ? args
    : [
        ...[
          'startup.mjs',
          'codes.mjs',
          'apply.mjs',
          'service.mjs',
          'upload.mjs',
          'sandbox.mjs',
          'batches.mjs',
          'export.mjs',
          'import.mjs',
          'events.mjs',
          'webhooks.mjs',
          'uploads-link.mjs',
          'uploads-resume.mjs',
          'uploads-faults.mjs',
          'uploads-memory.mjs',
        ]
          .filter((f) => existsSync(join(here, f)))
          .map((f) => join(here, f)),
        ...readdirSync(here)
          .filter((f) => f.endsWith('.bench.mjs'))
          .sort()
          .map((f) => join(here, f)),
      ];

let failed = 0;
for (const script of scripts) {
  process.stdout.write(`\n== ${script.replace(`${process.cwd()}/`, '')}\n`);
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`bench: ${script} exited with ${r.status ?? r.signal}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;

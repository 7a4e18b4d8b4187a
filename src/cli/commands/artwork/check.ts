// `artwork check`: the cover rules, offline, on each file (shared/artwork-check.ts): what the
// image is, read from its bytes, and every problem with its fix. No service, no network.
import { describeArtwork, formatName } from '../../../artwork/rules.js';
import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { checkCommand } from './spec.js';
import { ValidationFailed } from '../../errors.js';
import { formatBytes, printJson, printRecord, plural, type Field } from '../../output/index.js';
import { checkArtworkPath, requireArtworkFiles, type ArtworkCheck } from '../../shared/artwork-check.js';

const blocks = (c: ArtworkCheck) => c.refusal !== undefined || c.problems.some((p) => p.severity === 'error');

const result = (c: ArtworkCheck) => {
  if (c.refusal) return 'refused at upload';
  return blocks(c) ? 'blocks the submit' : 'accepted';
};

const fields: Field<ArtworkCheck>[] = [
  { header: 'File', value: 'path' },
  { header: 'Format', value: (c) => (c.facts ? formatName(c.facts.format) : undefined) },
  { header: 'Size', value: (c) => (c.facts ? `${c.facts.width}×${c.facts.height} px` : undefined) },
  { header: 'Image', value: (c) => (c.facts ? describeArtwork(c.facts).split(', ').slice(1).join(', ') : undefined) },
  { header: 'File size', value: (c) => formatBytes(c.sizeBytes) },
  { header: 'Result', value: result },
];

const asJson = (c: ArtworkCheck) => ({
  file: c.path,
  size_bytes: c.sizeBytes,
  format: c.facts?.format ?? null,
  width: c.facts?.width ?? null,
  height: c.facts?.height ?? null,
  color_space: c.facts?.color_space ?? null,
  bit_depth: c.facts?.bit_depth ?? null,
  icc_profile: c.facts?.icc_profile ?? null,
  progressive: c.facts?.progressive ?? null,
  ok: !blocks(c),
  refused: c.refusal ? { code: c.refusal.code, message: c.refusal.message } : null,
  problems: c.problems,
});

export async function run(ctx: Context, _opts: OptsOf<typeof checkCommand>, files: string[]): Promise<void> {
  // Every file must be there before any is read: a typo is a usage error, not a refusal.
  await requireArtworkFiles(files);
  const checks: ArtworkCheck[] = [];
  for (const f of files) checks.push(await checkArtworkPath(f));
  if (ctx.globals.json) printJson(ctx, checks.map(asJson));
  else {
    for (const [i, c] of checks.entries()) {
      if (i > 0) ctx.io.stdout.write('\n');
      const problems: Field<ArtworkCheck>[] = [
        ...(c.refusal ? [{ header: 'Error', value: () => c.refusal!.message }] : []),
        ...c.problems.map((p): Field<ArtworkCheck> => ({ header: p.severity === 'error' ? 'Error' : 'Warning', value: () => p.message })),
      ];
      await printRecord(ctx, c, [...fields, ...problems]);
    }
  }
  const bad = checks.filter(blocks).length;
  if (bad > 0) throw new ValidationFailed(`${bad} of ${plural(checks.length, 'image')} would be refused or block the submit`);
}

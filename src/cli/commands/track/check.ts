// `track check`: the service's audio rules (format, channels, sample rate, bit depth, duration,
// size), offline, on each file: what it is and every problem; then the delivery quality checks
// (loudness, true peak, silence, clipping) as warnings, which never change the exit code.
// No service, no network.
import type { AudioCheck } from '../../../audio/probe.js';
import type { QualityResult } from '../../../audio/quality.js';
import type { OptsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { checkCommand } from './spec.js';
import { ValidationFailed } from '../../errors.js';
import { formatBytes, printJson, printRecord, plural, type Field } from '../../output/index.js';
import { checkAudioFiles, requireAudioFiles } from '../../shared/audio-check.js';

const fields: Field<AudioCheck>[] = [
  { header: 'File', value: 'path' },
  { header: 'Format', value: 'format' },
  { header: 'Channels', value: (c) => c.channels, kind: 'number' },
  { header: 'Sample rate', value: (c) => (c.sampleRate === undefined ? undefined : `${c.sampleRate} Hz`) },
  { header: 'Bit depth', value: (c) => (c.bitDepth === undefined ? undefined : `${c.bitDepth} bit`) },
  { header: 'Duration', value: (c) => (c.durationSeconds === undefined ? undefined : `${c.durationSeconds.toFixed(1)} s`) },
  { header: 'Size', value: (c) => formatBytes(c.sizeBytes) },
];
const result: Field<AudioCheck> = { header: 'Result', value: (c) => (c.errors.length > 0 ? 'refused' : 'accepted') };

/** One decimal: the figures' precision (the meters agree with ffmpeg's ebur128 within 0.1). */
const rounded = (x: number | undefined) => (x === undefined ? null : Math.round(x * 10) / 10);

/** The quality figures' fields, when the file was measured or could not be. */
function qualityFields(q: QualityResult | undefined): Field<AudioCheck>[] {
  if (!q) return [];
  if (!q.measured) return [{ header: 'Loudness', value: () => `not measured: ${q.reason}` }];
  const { loudnessLufs: lufs, truePeakDbtp: peak } = q.measurement;
  return [
    { header: 'Loudness', value: () => (lufs === undefined ? 'below -70 LUFS' : `${rounded(lufs)!.toFixed(1)} LUFS`) },
    { header: 'True peak', value: () => (peak === undefined ? 'digital silence' : `${rounded(peak)!.toFixed(1)} dBTP`) },
  ];
}

const asJson = (c: AudioCheck) => ({
  file: c.path,
  format: c.format,
  channels: c.channels ?? null,
  sample_rate: c.sampleRate ?? null,
  bit_depth: c.bitDepth ?? null,
  duration_seconds: c.durationSeconds ?? null,
  size_bytes: c.sizeBytes,
  accepted: c.errors.length === 0,
  loudness_lufs: c.quality?.measured ? rounded(c.quality.measurement.loudnessLufs) : null,
  true_peak_dbtp: c.quality?.measured ? rounded(c.quality.measurement.truePeakDbtp) : null,
  not_measured: c.quality && !c.quality.measured ? c.quality.reason : null,
  errors: c.errors,
  warnings: c.warnings,
});

export async function run(ctx: Context, _opts: OptsOf<typeof checkCommand>, files: string[]): Promise<void> {
  // Every file must be there before any is read: a typo is a usage error, not a refusal.
  await requireAudioFiles(files);
  const checks = await checkAudioFiles(files);
  if (ctx.globals.json) printJson(ctx, checks.map(asJson));
  else {
    for (const [i, c] of checks.entries()) {
      if (i > 0) ctx.io.stdout.write('\n');
      const problems: Field<AudioCheck>[] = [
        ...c.errors.map((e): Field<AudioCheck> => ({ header: 'Error', value: () => e.message })),
        ...c.warnings.map((w): Field<AudioCheck> => ({ header: 'Warning', value: () => w.message })),
      ];
      // A figure the file does not state is left out, never shown as empty or "null".
      const known = fields.filter((f) => typeof f.value !== 'function' || f.value(c) !== undefined);
      await printRecord(ctx, c, [...known, ...qualityFields(c.quality), result, ...problems]);
    }
  }
  const refused = checks.filter((c) => c.errors.length > 0).length;
  if (refused > 0) throw new ValidationFailed(`${refused} of ${plural(checks.length, 'file')} would be refused by the service`);
}

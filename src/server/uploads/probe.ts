// Reads what the audio really is (never trusting the name or the declared content type) and
// holds it against the delivery rules (rules/audio.ts).
import { ServiceError } from '../handler.js';
import { checkAudioFile, UNREADABLE_AUDIO, type AudioInfo, type AudioProblem } from '../rules/audio.js';

const refuse = (problem: AudioProblem) => new ServiceError(422, problem.code, problem.message);

/** Probes the file at `path`; throws a 422 ServiceError naming the first rule it breaks. */
export async function probeAudio(path: string, fileSize: number): Promise<AudioInfo> {
  const { parseFile } = await import('music-metadata');
  let meta: Awaited<ReturnType<typeof parseFile>>;
  try {
    meta = await parseFile(path, { duration: true, skipCovers: true });
  } catch {
    throw refuse(UNREADABLE_AUDIO);
  }
  const f = meta.format;
  const checked = checkAudioFile({
    container: f.container,
    codec: f.codec,
    sampleRate: f.sampleRate,
    channels: f.numberOfChannels,
    bitsPerSample: f.bitsPerSample,
    durationSeconds: f.duration,
    fileSize,
  });
  if (!checked.ok) throw refuse(checked.problems[0]!);
  return checked.info;
}

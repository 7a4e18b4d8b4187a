// Reads what the audio really is (never trusting the name or the declared content type) and
// holds it against the delivery rules (src/audio: the same probe and rules the CLI runs offline).
import { probeAudioFile } from '../../audio/probe.js';
import { checkAudioFile, UNREADABLE_AUDIO, type AudioInfo, type AudioProblem } from '../../audio/rules.js';
import { ServiceError } from '../handler.js';

const refuse = (problem: AudioProblem) => new ServiceError(422, problem.code, problem.message);

/** Probes the file at `path`; throws a 422 ServiceError naming the first rule it breaks. */
export async function probeAudio(path: string, fileSize: number): Promise<AudioInfo> {
  const probe = await probeAudioFile(path, fileSize);
  if (!probe) throw refuse(UNREADABLE_AUDIO);
  const checked = checkAudioFile(probe.facts);
  if (!checked.ok) throw refuse(checked.problems[0]!);
  return checked.info;
}

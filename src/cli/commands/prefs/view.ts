// Platform choices (an existing profile, or "create a new one") as text, and the flag that sets them.
import type { ArtistPlatform, PlatformChoice } from '../../../contract/index.js';
import { UsageError } from '../../errors.js';
import { platformOption } from '../release/common.js';

export type Choice = PlatformChoice;

export function choiceText(c: Choice | undefined): string {
  if (!c) return 'not set';
  return c.mode === 'new' ? 'create a new profile' : c.profile ? `${c.profile.name} (${c.profile.id})` : 'existing profile';
}

export function choicesText(list: readonly Choice[]): string {
  return list.map((c) => `${c.platform}: ${choiceText(c)}`).join('; ');
}

/** `--platform streaming_a=4Z8W4fKeB5YxbusRsdQVPb` or `--platform store_c=new`. */
export function parseChoice(value: string): { platform: ArtistPlatform; mode: 'existing' | 'new'; profile_id?: string } {
  const m = /^\s*([\w-]+)\s*=\s*(\S+)\s*$/.exec(value);
  if (!m) throw new UsageError(`--platform: expected <platform>=<profile id> or <platform>=new, got "${value}"`, 'e.g. --platform streaming_a=4Z8W4fKeB5YxbusRsdQVPb --platform store_c=new');
  const platform = platformOption(m[1], '--platform')!;
  return m[2]!.toLowerCase() === 'new' ? { platform, mode: 'new' } : { platform, mode: 'existing', profile_id: m[2]! };
}

// The `--platform <platform>=<profile id|new>` flag of `prefs artist`.
import type { ArtistPlatform } from '../../../contract/index.js';
import { UsageError } from '../../errors.js';
import { platformOption } from '../../shared/args.js';

/** `--platform streaming_a=4Z8W4fKeB5YxbusRsdQVPb` or `--platform store_c=new`. */
export function parseChoice(value: string): { platform: ArtistPlatform; mode: 'existing' | 'new'; profile_id?: string } {
  const m = /^\s*([\w-]+)\s*=\s*(\S+)\s*$/.exec(value);
  if (!m)
    throw new UsageError(
      `--platform: expected <platform>=<profile id> or <platform>=new, got "${value}"`,
      'e.g. --platform streaming_a=4Z8W4fKeB5YxbusRsdQVPb --platform store_c=new',
    );
  const platform = platformOption(m[1], '--platform')!;
  return m[2]!.toLowerCase() === 'new' ? { platform, mode: 'new' } : { platform, mode: 'existing', profile_id: m[2]! };
}

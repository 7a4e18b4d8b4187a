// The release file (docs/release-file.md): the fields of CreateReleaseRequest at the top level,
// plus the tracks with their audio files, and the delivery and video settings. Built from the
// contract's schemas, so a field the service takes is a field the file takes, spelt the same.
import * as z from 'zod';
import {
  Artwork,
  CreateReleaseRequest,
  ReplaceReleaseTracksTrackInput,
  Text,
  UpdateReleaseDeliveryRequest,
  UpdateReleaseVideoRequest,
} from '../../contract/index.js';

export const ReleaseFileTrack = ReplaceReleaseTracksTrackInput.omit({ id: true, file_key: true, title: true }).extend({
  /**
   * Where the track's audio comes from: a file relative to the release file, `sha256:…` (audio the
   * service has), or an https URL that `release apply` downloads; left out: no audio yet (apply only).
   */
  file: z.string().trim().min(1).max(2000).optional(),
  /** Optional here: taken from the file's tags, else from its name. */
  title: Text(200).optional(),
});
export type ReleaseFileTrack = z.infer<typeof ReleaseFileTrack>;

export const ReleaseFile = CreateReleaseRequest.extend({
  /** The cover image, relative to the release file (uploaded after a local check); a declared URL from older files is still read. */
  artwork: z
    .union([z.string().trim().min(1).max(1000), Artwork])
    .nullable()
    .optional(),
  tracks: z.array(ReleaseFileTrack).max(500).optional(),
  delivery: UpdateReleaseDeliveryRequest.optional(),
  video: UpdateReleaseVideoRequest.optional(),
});
export type ReleaseFile = z.infer<typeof ReleaseFile>;

/** Audio the service takes; anything else is refused before a byte is sent. */
export const AUDIO_EXTENSIONS = ['.wav', '.flac', '.aif', '.aiff'] as const;

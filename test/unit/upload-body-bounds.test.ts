// Whether the bodies `track upload` builds (the upload address request, the track-list write) may
// skip the client's zod check: only when every value it filled in is within the contract's
// plain-data bounds, which the schemas themselves use; one past any bound, the client parses the
// body and the user hears its usual error.
import { describe, expect, test } from 'vitest';
import { withinTrackListBounds } from '../../src/cli/shared/track-list-write.js';
import { uploadBodyChecked } from '../../src/client/upload.js';
import { trackListMax, trackPositionMax, trackTitleMaxLength, uploadFilenameMaxLength, uploadMaxBytes } from '../../src/contract/routes.js';
import { CreateTrackUploadUrlRequest, ReplaceReleaseTracksBody } from '../../src/contract/requests.js';

/** A list of `total` tracks, the last one new with this title and position. */
const tracks = (total: number, title: string, position: number) => [
  ...Array.from({ length: total - 1 }, (_, i) => ({ title: `Kept ${i}` })),
  { file_key: 'upl_x', title, position, disc: 1 },
];
/** What the schema says of the same values. */
const schemaAccepts = (total: number, title: string, position: number) =>
  ReplaceReleaseTracksBody.safeParse({ tracks: tracks(total, title, position) }).success;

describe('track-list bounds', () => {
  test.each([
    ['a title', 1, 'Evening Tide', 1],
    ['the longest title', 1, 'x'.repeat(trackTitleMaxLength), 1],
    ['a title one too long', 1, 'x'.repeat(trackTitleMaxLength + 1), 1],
    ['a title of spaces', 1, '   ', 1],
    ['spaces around the longest title', 1, ` ${'x'.repeat(trackTitleMaxLength)} `, 1],
    ['the highest position', 1, 'Tide', trackPositionMax],
    ['a position past it', 1, 'Tide', trackPositionMax + 1],
    ['the longest list', trackListMax, 'Tide', 1],
    ['a list one too long', trackListMax + 1, 'Tide', 1],
  ] as const)('%s: the same verdict as the schema', (_name, total, title, position) => {
    expect(withinTrackListBounds(tracks(total, title, position))).toBe(schemaAccepts(total, title, position));
  });
});

describe('upload address bounds', () => {
  test.each([
    ['a name and a size', 'northern-sky.wav', 37_926_044],
    ['the longest name', `${'x'.repeat(uploadFilenameMaxLength - 4)}.wav`, 1],
    ['a name one too long', `${'x'.repeat(uploadFilenameMaxLength - 3)}.wav`, 1],
    ['a name of spaces', '   ', 1],
    ['the largest file', 'a.wav', uploadMaxBytes],
    ['a file one byte larger', 'a.wav', uploadMaxBytes + 1],
    ['an empty file', 'a.wav', 0],
  ] as const)('%s: the same verdict as the schema', (_name, filename, size) => {
    const schema = CreateTrackUploadUrlRequest.safeParse({ filename, content_type: 'audio/wav', size }).success;
    expect(uploadBodyChecked(filename, size).bodyChecked === true).toBe(schema);
  });
});

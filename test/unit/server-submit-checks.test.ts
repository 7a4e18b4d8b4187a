// Every submit check fires on its own input, passes a clean release, and all problems come back together.
import { describe, expect, test } from 'vitest';
import type { ReleaseResource, TrackResource } from '../../src/contract/index.js';
import { runSubmitChecks, type SubmitFacts } from '../../src/rules/submit-checks.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const T = '2026-11-22T10:00:00.000Z';

function track(over: Partial<TrackResource> = {}): TrackResource {
  return {
    id: 1,
    release_id: 1,
    position: 1,
    disc: 1,
    title: 'Northern Sky',
    version: null,
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    contributors: [
      { name: 'Nina Vale', role: 'composer' },
      { name: 'Nina Vale', role: 'lyricist' },
    ],
    isrc: 'GBNLR2600001',
    explicit: 'not_explicit',
    audio_language: 'en',
    preview_start_seconds: null,
    file: {
      key: 'upl_1',
      filename: 'a.wav',
      format: 'wav',
      sample_rate: 44_100,
      bit_depth: 16,
      channels: 2,
      duration_ms: 200_000,
      size: 1,
      sha256: 'a'.repeat(64),
      state: 'ready',
    },
    created_at: T,
    updated_at: T,
    ...over,
  };
}

function release(over: Partial<ReleaseResource> = {}): ReleaseResource {
  return {
    id: 1,
    status: 'draft',
    type: 'single',
    title: 'Northern Sky',
    version: null,
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    label: 'Northern Lights Records',
    catalog_number: null,
    upc: '036000291452',
    genre: 'Pop',
    subgenre: null,
    language: 'en',
    p_line: { year: 2026, owner: 'NLR' },
    c_line: { year: 2026, owner: 'NLR' },
    original_release_date: null,
    explicit: 'not_explicit',
    artwork: null,
    delivery: { platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2027-01-15', preorder_date: null, price_tier: null },
    video: { enabled: false, art_tracks: false, content_id: { enabled: false, policy: 'monetize' } },
    track_count: 1,
    review: null,
    submission_notes: null,
    created_at: T,
    updated_at: T,
    submitted_at: null,
    ...over,
  };
}

/** A cover read from its bytes: 3000 px square RGB JPEG unless told otherwise. */
function artwork(over: Partial<NonNullable<ReleaseResource['artwork']>> = {}): NonNullable<ReleaseResource['artwork']> {
  return {
    verified: true,
    file_key: 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c',
    filename: 'cover.jpg',
    url: null,
    format: 'jpg',
    width: 3000,
    height: 3000,
    color_space: 'rgb',
    bit_depth: 8,
    icc_profile: null,
    progressive: false,
    size: 1000,
    sha256: 'a'.repeat(64),
    ...over,
  };
}

function check(r: Partial<ReleaseResource> = {}, tracks: TrackResource[] = [track()], extra: Partial<SubmitFacts> = {}) {
  return runSubmitChecks({ release: release(r), tracks, now: NOW, ...extra });
}

const codes = (ps: { code: string }[]) => ps.map((p) => p.code);

test('a clean release has no problems', () => {
  expect(check()).toEqual([]);
});

test('the same audio on two tracks is one error on the second, naming both; other audio passes', () => {
  const other = (n: number, sha: string) => track({ id: n, position: n, title: `Song ${n}`, isrc: `GBNLR260000${n}`, file: { ...track().file!, sha256: sha } });
  const problems = check({}, [track(), other(2, 'b'.repeat(64)), other(3, 'a'.repeat(64))]);
  expect(problems).toEqual([
    {
      path: 'tracks.2.file',
      code: 'audio_duplicate',
      message: 'same audio on tracks 1 and 3 (sha256 aaaaaaaaaaaa…)',
      hint: 'Each track needs its own recording.',
      severity: 'error',
    },
  ]);
  expect(check({}, [track(), other(2, 'b'.repeat(64))])).toEqual([]);
});

describe('blocking checks, one at a time', () => {
  const cases: [string, () => ReturnType<typeof check>, string, string][] = [
    ['missing genre', () => check({ genre: null }), 'required', 'genre'],
    ['missing ℗ line', () => check({ p_line: null }), 'required', 'p_line'],
    ['missing release date', () => check({ delivery: { ...release().delivery, release_date: null } }), 'required', 'delivery.release_date'],
    ['no tracks', () => check({}, []), 'no_tracks', 'tracks'],
    ['no audio file', () => check({}, [track({ file: null })]), 'track_file_missing', 'tracks.0.file'],
    ['invalid UPC', () => check({ upc: '036000291453' }), 'upc_invalid', 'upc'],
    ['UPC of another release', () => check({}, [track()], { upcInUseBy: { id: 9, status: 'live' } }), 'upc_in_use', 'upc'],
    ['invalid ISRC', () => check({}, [track({ isrc: 'GBNLR260001' })]), 'isrc_invalid', 'tracks.0.isrc'],
    ['duplicate ISRC', () => check({}, [track(), track({ id: 2, position: 2, title: 'Other Song' })]), 'isrc_duplicate', 'tracks.1.isrc'],
    [
      'the same audio on two tracks',
      () => check({}, [track(), track({ id: 2, position: 2, title: 'Other Song', isrc: 'GBNLR2600002' })]),
      'audio_duplicate',
      'tracks.1.file',
    ],
    ['feat. in the title', () => check({ title: 'Northern Sky (feat. Jo)' }), 'title_has_featuring', 'title'],
    ['ft. in a track title', () => check({}, [track({ title: 'Song ft. Jo' })]), 'title_has_featuring', 'tracks.0.title'],
    ['(Clean) in the title', () => check({ title: 'Northern Sky (Clean)' }), 'title_has_explicit_marker', 'title'],
    ['marketing words', () => check({}, [track({ title: 'Northern Sky (Original Mix)' })]), 'title_has_marketing_words', 'tracks.0.title'],
    ['"Official" in the title', () => check({ title: 'Northern Sky Official' }), 'title_has_marketing_words', 'title'],
    ['"Track 1" title', () => check({}, [track({ title: 'Track 1' })]), 'title_generic', 'tracks.0.title'],
    ['several people in one entry', () => check({ artists: [{ name: 'Nina Vale & Jo Bright', role: 'primary' }] }), 'artist_several_people', 'artists.0.name'],
    ['generic artist name', () => check({ artists: [{ name: 'Sleep Music', role: 'primary' }] }), 'artist_name_generic', 'artists.0.name'],
    [
      'featured and primary',
      () =>
        check({
          artists: [
            { name: 'Nina Vale', role: 'primary' },
            { name: 'nina vale', role: 'featuring' },
          ],
        }),
      'artist_featured_and_primary',
      'artists.1.role',
    ],
    ['no primary', () => check({ artists: [{ name: 'Nina Vale', role: 'featuring' }] }), 'primary_artist_missing', 'artists'],
    ['no composer', () => check({}, [track({ contributors: [{ name: 'X', role: 'producer' }] })]), 'composer_missing', 'tracks.0.contributors'],
    ['mono audio', () => check({}, [track({ file: { ...track().file!, channels: 1 } })]), 'audio_not_stereo', 'tracks.0.file'],
    ['22.05 kHz audio', () => check({}, [track({ file: { ...track().file!, sample_rate: 22_050 } })]), 'audio_quality_too_low', 'tracks.0.file'],
    ['8-bit audio', () => check({}, [track({ file: { ...track().file!, bit_depth: 8 } })]), 'audio_quality_too_low', 'tracks.0.file'],
    ['short audio', () => check({}, [track({ file: { ...track().file!, duration_ms: 29_999 } })]), 'audio_too_short', 'tracks.0.file'],
    [
      'preorder on the release date',
      () => check({ delivery: { ...release().delivery, preorder_date: '2027-01-15' } }),
      'preorder_not_before_release',
      'delivery.preorder_date',
    ],
    ['original release after it', () => check({ original_release_date: '2027-02-01' }), 'original_release_after_release', 'original_release_date'],
    ['small artwork', () => check({ artwork: artwork({ width: 1400, height: 1400 }) }), 'artwork_too_small', 'artwork'],
    ['CMYK artwork', () => check({ artwork: artwork({ color_space: 'cmyk' }) }), 'artwork_color_space', 'artwork.color_space'],
  ];
  for (const [name, run, code, path] of cases) {
    test(name, () => {
      const ps = run();
      const hit = ps.find((p) => p.code === code);
      expect(hit, `${code} in ${JSON.stringify(codes(ps))}`).toBeDefined();
      expect(hit!.severity).toBe('error');
      expect(hit!.path).toBe(path);
      expect(hit!.message.length).toBeGreaterThan(5);
    });
  }
});

describe('warnings', () => {
  const cases: [string, () => ReturnType<typeof check>, string][] = [
    ['ALL CAPS title', () => check({ title: 'NORTHERN SKY' }), 'title_all_caps'],
    [
      'all-lowercase name',
      () => check({ artists: [{ name: 'nina vale', role: 'primary' }] }, [track({ artists: [{ name: 'Nina Vale', role: 'primary' }] })]),
      'name_all_lowercase',
    ],
    ['emoji in a name', () => check({ artists: [{ name: 'Nina 🌙', role: 'primary' }] }), 'name_has_emoji'],
    ['release date in 3 days', () => check({ delivery: { ...release().delivery, release_date: '2026-11-25' } }), 'release_date_soon'],
    [
      'four primaries',
      () => check({ artists: ['Ann Lee', 'Bo Dahl', 'Cy Moss', 'Di Park'].map((name) => ({ name, role: 'primary' as const })) }),
      'many_primary_artists',
    ],
    ['future ISRC year', () => check({}, [track({ isrc: 'GBNLR3500001' })]), 'isrc_future_year'],
  ];
  for (const [name, run, code] of cases) {
    test(name, () => {
      const ps = run();
      const hit = ps.find((p) => p.code === code);
      expect(hit, `${code} in ${JSON.stringify(codes(ps))}`).toBeDefined();
      expect(hit!.severity).toBe('warning');
      expect(ps.filter((p) => p.severity === 'error')).toEqual([]);
    });
  }

  test('short all-caps names (ABBA, U2) and names in scripts without case are fine', () => {
    expect(check({ artists: [{ name: 'ABBA', role: 'primary' }] }, [track({ artists: [{ name: 'U2', role: 'primary' }] })])).toEqual([]);
    expect(check({ artists: [{ name: '坂本龍一', role: 'primary' }] })).toEqual([]);
  });

  test('titles that only look suspicious are not flagged', () => {
    for (const title of ['Left Behind', 'Soft Light', '1979', 'Intro', 'Featherweight', 'After the Feast']) {
      expect(codes(check({ title })), title).toEqual([]);
    }
  });
});

test('every problem is reported at once', () => {
  const ps = check({ title: 'BIG SONG FEAT. JO (OFFICIAL)', genre: null, upc: '1', artists: [{ name: 'A & B', role: 'primary' }] }, [
    track({ file: null, contributors: [], isrc: 'nope' }),
  ]);
  expect(codes(ps)).toEqual(
    expect.arrayContaining([
      'required',
      'title_has_featuring',
      'title_has_marketing_words',
      'upc_invalid',
      'artist_several_people',
      'track_file_missing',
      'composer_missing',
      'isrc_invalid',
      'title_all_caps',
    ]),
  );
  for (const p of ps) expect(p.hint === undefined || p.hint.length > 5).toBe(true);
});

describe('several people in one artist entry', () => {
  const one = (name: string, extra: Partial<SubmitFacts> = {}) =>
    codes(check({ artists: [{ name, role: 'primary' }] }, [track({ artists: [{ name: 'Nina Vale', role: 'primary' }] })], extra));

  test.each([
    'Nina Vale & Jo Bright',
    'Nina Vale, Jo Bright',
    'Nina Vale feat. Jo Bright',
    'Nina Vale ft. Jo Bright',
    'Nina Vale x Jo Bright',
    'Nina Vale vs. Jo Bright',
    'Nina Vale / Jo Bright',
    'Nina Vale; Jo Bright',
    'Nina Vale with Jo Bright',
  ])('"%s" is several people', (name) => expect(one(name)).toContain('artist_several_people'));

  test.each(['Simon & Garfunkel', 'Earth, Wind & Fire', 'Tyler, The Creator'])('"%s" is one act once the account knows it as one', (name) => {
    expect(one(name)).toContain('artist_several_people');
    expect(one(name, { knownActs: new Set([name.toLowerCase()]) })).not.toContain('artist_several_people');
  });

  test('a known act does not excuse a collaboration marker', () => {
    expect(one('Simon & Garfunkel feat. Jo Bright', { knownActs: new Set(['simon & garfunkel feat. jo bright']) })).toContain('artist_several_people');
  });

  test('the hint names the way out for a duo or band', () => {
    const p = check({ artists: [{ name: 'Simon & Garfunkel', role: 'primary' }] }).find((x) => x.code === 'artist_several_people');
    expect(p?.hint).toMatch(/duo or band/);
  });
});

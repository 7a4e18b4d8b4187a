import { describe, expect, it } from 'vitest';
import type { ReleaseResource, ReleaseStatus, TrackResource } from '../../src/contract/index.js';
import { changeOf, planRelease, trackSlots, type DesiredRelease, type ExistingRelease } from '../../src/cli/apply/plan.js';
import { describeField, planLine, planText, summaryLine } from '../../src/cli/apply/render.js';
import type { ReleasePlan } from '../../src/cli/release-file/load.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);
const SHA_C = 'c'.repeat(64);
const TIME = '2026-11-22T10:15:00.000Z';

function releasePlan(overrides: Partial<ReleasePlan> = {}): ReleasePlan {
  return {
    name: 'release.yaml',
    release: {
      type: 'single',
      title: 'First Light',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'Northern Lights Records',
      catalog_number: 'NLR-0001',
      genre: 'Electronic',
      language: 'en',
      explicit: 'not_explicit',
      p_line: { year: 2026, owner: 'Northern Lights Records' },
      c_line: { year: 2026, owner: 'Northern Lights Records' },
    },
    tracks: [
      {
        path: '/music/first-light.flac',
        written: 'audio/first-light.flac',
        fields: { title: 'First Light', audio_language: 'instrumental', contributors: [{ name: 'Nina Vale', role: 'composer' }] },
      },
      { path: '/music/evening-tide.flac', written: 'audio/evening-tide.flac', fields: { audio_language: 'instrumental' } },
    ],
    delivery: { platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2030-01-11', price_tier: 'front' },
    video: { enabled: true, art_tracks: true, content_id: { enabled: true, policy: 'monetize' } },
    ...overrides,
  };
}

function desired(plan = releasePlan(), audio = [SHA_A, SHA_B]): DesiredRelease {
  return { plan, audioSha256: audio, defaultTitles: plan.tracks.map((t, i) => t.fields.title ?? ['First Light', 'Evening Tide', 'Third'][i]!) };
}

function track(position: number, title: string, sha: string | null, overrides: Partial<TrackResource> = {}): TrackResource {
  return {
    id: 100 + position,
    release_id: 42,
    position,
    disc: 1,
    title,
    version: null,
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    contributors: [],
    isrc: null,
    explicit: 'not_explicit',
    audio_language: 'instrumental',
    preview_start_seconds: null,
    file:
      sha === null
        ? null
        : {
            key: `upl_${position}`,
            filename: `${position}.flac`,
            format: 'flac',
            sample_rate: 44100,
            bit_depth: 16,
            channels: 2,
            duration_ms: 200_000,
            size: 1000,
            sha256: sha,
            state: 'ready',
          },
    created_at: TIME,
    updated_at: TIME,
    ...overrides,
  };
}

/** The service's state after the example file was applied, as the service stores it. */
function converged(status: ReleaseStatus = 'draft', overrides: Partial<ReleaseResource> = {}, tracks?: TrackResource[]): ExistingRelease {
  const ts = tracks ?? [track(1, 'First Light', SHA_A, { contributors: [{ name: 'Nina Vale', role: 'composer' }] }), track(2, 'Evening Tide', SHA_B)];
  const release: ReleaseResource = {
    id: 42,
    status,
    type: 'single',
    title: 'First Light',
    version: null,
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    label: 'Northern Lights Records',
    catalog_number: 'NLR-0001',
    upc: null,
    genre: 'Electronic',
    subgenre: null,
    language: 'en',
    p_line: { year: 2026, owner: 'Northern Lights Records' },
    c_line: { year: 2026, owner: 'Northern Lights Records' },
    original_release_date: null,
    explicit: 'not_explicit',
    artwork: null,
    delivery: { platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: '2030-01-11', preorder_date: null, price_tier: 'front' },
    video: { enabled: true, art_tracks: true, content_id: { enabled: true, policy: 'monetize' } },
    track_count: ts.length,
    tracks: ts,
    review: null,
    submission_notes: null,
    created_at: TIME,
    updated_at: TIME,
    submitted_at: null,
    ...overrides,
  };
  return { release, tracks: ts };
}

const noSubmit = { submit: false };

describe('apply plan: create', () => {
  it('creates everything when the service has no such release', () => {
    const plan = planRelease(desired(), undefined, noSubmit);
    expect(plan.action).toBe('create');
    expect(plan.submit).toBe(false);
    expect(plan.changes.map((c) => c.kind)).toEqual(['metadata', 'upload', 'tracks', 'delivery', 'video']);
    const metadata = changeOf(plan, 'metadata')!;
    expect(metadata.op).toBe('create');
    expect(metadata.body).toEqual(releasePlan().release);
    expect(changeOf(plan, 'upload')!.trackIndexes).toEqual([0, 1]);
    expect(changeOf(plan, 'delivery')!.body).toEqual(releasePlan().delivery);
    expect(changeOf(plan, 'video')!.body).toEqual(releasePlan().video);
  });

  it('builds the track list from the new uploads, with titles from the file or the tags', () => {
    const plan = planRelease(desired(), undefined, noSubmit);
    const body = changeOf(plan, 'tracks')!.buildBody(
      new Map([
        [0, 'upl_x'],
        [1, 'upl_y'],
      ]),
    );
    expect(body.tracks).toEqual([
      {
        file_key: 'upl_x',
        title: 'First Light',
        audio_language: 'instrumental',
        contributors: [{ name: 'Nina Vale', role: 'composer' }],
        disc: 1,
        position: 1,
      },
      { file_key: 'upl_y', title: 'Evening Tide', audio_language: 'instrumental', disc: 1, position: 2 },
    ]);
  });

  it('refuses to build the track list without the key of every upload', () => {
    const plan = planRelease(desired(), undefined, noSubmit);
    expect(() => changeOf(plan, 'tracks')!.buildBody(new Map([[0, 'upl_x']]))).toThrow(/tracks\.1/);
  });

  it('leaves out empty sections and asks for the submit with --submit', () => {
    const plan = planRelease(desired(releasePlan({ tracks: [], delivery: undefined, video: {} }), []), undefined, { submit: true });
    expect(plan.changes.map((c) => c.kind)).toEqual(['metadata', 'submit']);
    expect(plan.submit).toBe(true);
  });

  it('needs one sha256 and one title per track', () => {
    expect(() => planRelease({ ...desired(), audioSha256: [SHA_A] }, undefined, noSubmit)).toThrow(RangeError);
  });
});

describe('apply plan: convergence', () => {
  it('a release the file already describes is unchanged', () => {
    const plan = planRelease(desired(), converged(), noSubmit);
    expect(plan).toEqual({ action: 'unchanged', changes: [], submit: false, releaseId: 42, status: 'draft' });
  });

  it('compares in the form the service stores: trimmed, blank as none, genre without case, codes compact, lists as sets', () => {
    const plan = releasePlan();
    plan.release = {
      ...plan.release,
      title: '  First Light ',
      genre: 'electronic',
      version: '',
      upc: '0 12345-67890 5',
      artists: [{ name: 'Nina Vale ', role: 'primary', artist_id: 3 }],
    };
    plan.delivery = { platforms: ['store_c', 'streaming_a', 'store_c'], territories: { mode: 'exclude', countries: ['KP', 'DE', 'KP'] } };
    plan.tracks[0]!.fields.isrc = 'gb-nlr-26-00001';
    const existing = converged(
      'draft',
      {
        upc: '0012345678905',
        artists: [{ name: 'Nina Vale', role: 'primary', artist_id: 3 }],
        delivery: {
          platforms: ['streaming_a', 'store_c'],
          territories: { mode: 'exclude', countries: ['DE', 'KP'] },
          release_date: null,
          preorder_date: null,
          price_tier: null,
        },
      },
      [track(1, 'First Light', SHA_A, { isrc: 'GBNLR2600001', contributors: [{ name: 'Nina Vale', role: 'composer' }] }), track(2, 'Evening Tide', SHA_B)],
    );
    expect(planRelease(desired(plan), existing, noSubmit).action).toBe('unchanged');
  });

  it('leaves alone what the file does not set: an assigned UPC and ISRC, a title read from tags, other settings', () => {
    const existing = converged('rejected', { upc: '5063489000013', subgenre: 'House', original_release_date: '2020-01-01' }, [
      track(1, 'First Light', SHA_A, { isrc: 'GBNLR2600001', contributors: [{ name: 'Nina Vale', role: 'composer' }] }),
      track(2, 'Evening Tide (renamed on the service)', SHA_B, { isrc: 'GBNLR2600002', preview_start_seconds: 30 }),
    ]);
    const plan = planRelease(desired(), existing, noSubmit);
    expect(plan.action).toBe('unchanged');
  });
});

describe('apply plan: changes', () => {
  it('lists metadata that differs with before and after, and patches only that', () => {
    const plan = releasePlan();
    plan.release = { ...plan.release, title: 'New Light', upc: '', p_line: { year: 2027, owner: 'Northern Lights Records' }, subgenre: null };
    const result = planRelease(desired(plan), converged('draft', { upc: '5063489000013', subgenre: 'House' }), noSubmit);
    expect(result.action).toBe('update');
    const metadata = changeOf(result, 'metadata')!;
    expect(metadata.op).toBe('update');
    expect(metadata.body).toEqual({ title: 'New Light', upc: '', subgenre: null, p_line: { year: 2027, owner: 'Northern Lights Records' } });
    expect(metadata.fields.map((f) => [f.path, f.before, f.after])).toEqual([
      ['title', 'First Light', 'New Light'],
      ['upc', '5063489000013', ''],
      ['subgenre', 'House', null],
      ['p_line', { year: 2026, owner: 'Northern Lights Records' }, { year: 2027, owner: 'Northern Lights Records' }],
    ]);
  });

  it('uploads only the audio that differs or is missing, and keeps the other tracks by id', () => {
    const existing = converged('draft', {}, [
      track(1, 'First Light', SHA_A, { contributors: [{ name: 'Nina Vale', role: 'composer' }] }),
      track(2, 'Evening Tide', SHA_C),
    ]);
    const result = planRelease(desired(), existing, noSubmit);
    expect(result.action).toBe('update');
    expect(result.changes.map((c) => c.kind)).toEqual(['upload', 'tracks']);
    const upload = changeOf(result, 'upload')!;
    expect(upload.trackIndexes).toEqual([1]);
    expect(upload.fields).toEqual([{ path: 'tracks.1.audio', label: 'track 2 audio', before: SHA_C, after: SHA_B }]);
    const body = changeOf(result, 'tracks')!.buildBody(new Map([[1, 'upl_new']]));
    expect(body.tracks.map((t) => [t.id, t.file_key, t.title, t.position])).toEqual([
      [101, undefined, 'First Light', 1],
      [102, 'upl_new', 'Evening Tide', 2],
    ]);
  });

  it('uploads audio the service lacks or refused', () => {
    const pending = track(2, 'Evening Tide', SHA_B);
    pending.file!.state = 'rejected';
    const existing = converged('draft', {}, [track(1, 'First Light', null, { contributors: [{ name: 'Nina Vale', role: 'composer' }] }), pending]);
    expect(changeOf(planRelease(desired(), existing, noSubmit), 'upload')!.trackIndexes).toEqual([0, 1]);
  });

  it('detects track fields that differ, adds new tracks and removes the extra ones', () => {
    const plan = releasePlan();
    plan.tracks[0]!.fields = { ...plan.tracks[0]!.fields, title: 'First Light (Intro)', explicit: 'explicit', isrc: 'GBNLR2600009', preview_start_seconds: 12 };
    plan.tracks.push({ path: '/music/third.flac', written: 'audio/third.flac', fields: {} });
    const existing = converged('draft', {}, [
      track(1, 'First Light', SHA_A, { contributors: [{ name: 'Nina Vale', role: 'composer' }], isrc: 'GBNLR2600001' }),
      track(2, 'Evening Tide', SHA_B),
    ]);
    const result = planRelease(desired(plan, [SHA_A, SHA_B, SHA_C]), existing, noSubmit);
    expect(changeOf(result, 'upload')!.trackIndexes).toEqual([2]);
    const tracks = changeOf(result, 'tracks')!;
    expect(tracks.fields.map((f) => f.label)).toEqual(['track 1 title', 'track 1 isrc', 'track 1 explicit', 'track 1 preview_start_seconds', 'track 3 added']);
    expect(tracks.buildBody(new Map([[2, 'upl_3']])).tracks[2]).toEqual({ file_key: 'upl_3', title: 'Third', disc: 1, position: 3 });

    const fewer = releasePlan();
    fewer.tracks = fewer.tracks.slice(0, 1);
    const removing = planRelease(desired(fewer, [SHA_A]), existing, noSubmit);
    expect(changeOf(removing, 'tracks')!.fields).toEqual([{ path: 'tracks', label: 'track 2 removed', before: 'Evening Tide', after: undefined }]);
    expect(
      changeOf(removing, 'tracks')!
        .buildBody(new Map())
        .tracks.map((t) => t.id),
    ).toEqual([101]);
  });

  it('matches tracks by disc and position, numbering each disc from 1 as the service does', () => {
    const plan = releasePlan();
    plan.tracks[1]!.fields.disc = 2;
    expect(trackSlots(plan.tracks)).toEqual([
      { disc: 1, position: 1 },
      { disc: 2, position: 1 },
    ]);
    const existing = converged('draft', {}, [
      track(1, 'First Light', SHA_A, { contributors: [{ name: 'Nina Vale', role: 'composer' }] }),
      track(1, 'Evening Tide', SHA_B, { id: 202, disc: 2 }),
    ]);
    expect(planRelease(desired(plan), existing, noSubmit).action).toBe('unchanged');
    const flat = planRelease(desired(), existing, noSubmit);
    expect(changeOf(flat, 'tracks')!.fields.map((f) => f.label)).toEqual(['disc 1 track 2 added', 'disc 2 track 1 removed']);
  });

  it('leaves the tracks alone when the file has none', () => {
    expect(planRelease(desired(releasePlan({ tracks: [] }), []), converged(), noSubmit).action).toBe('unchanged');
  });

  it('tracks that took the release artists and explicit follow a change of them; tracks set otherwise do not', () => {
    const plan = releasePlan();
    plan.release = {
      ...plan.release,
      artists: [
        { name: 'Nina Vale', role: 'primary' },
        { name: 'Ola', role: 'featuring' },
      ],
      explicit: 'explicit',
    };
    const existing = converged('draft', {}, [
      track(1, 'First Light', SHA_A, { contributors: [{ name: 'Nina Vale', role: 'composer' }] }),
      track(2, 'Evening Tide', SHA_B, { artists: [{ name: 'Someone', role: 'primary' }], explicit: 'clean' }),
    ]);
    const result = planRelease(desired(plan), existing, noSubmit);
    expect(changeOf(result, 'metadata')!.fields.map((f) => f.path)).toEqual(['artists', 'explicit']);
    expect(changeOf(result, 'tracks')!.fields.map((f) => f.label)).toEqual(['track 1 artists', 'track 1 explicit']);
    const body = changeOf(result, 'tracks')!.buildBody(new Map());
    expect(body.tracks[0]).toMatchObject({ id: 101, artists: plan.release.artists, explicit: 'explicit' });
    expect(body.tracks[1]).not.toHaveProperty('artists');
    expect(body.tracks[1]).not.toHaveProperty('explicit');
  });

  it('patches only the delivery and video settings that differ', () => {
    const plan = releasePlan();
    plan.delivery = { ...plan.delivery, release_date: '2030-02-01', preorder_date: null };
    plan.video = { enabled: true, content_id: { policy: 'block' } };
    const result = planRelease(desired(plan), converged(), noSubmit);
    expect(changeOf(result, 'delivery')!.body).toEqual({ release_date: '2030-02-01' });
    expect(changeOf(result, 'delivery')!.fields).toEqual([
      { path: 'delivery.release_date', label: 'delivery.release_date', before: '2030-01-11', after: '2030-02-01' },
    ]);
    expect(changeOf(result, 'video')!.body).toEqual({ content_id: { policy: 'block' } });
  });

  it('sees a changed territory list and platform choice', () => {
    const plan = releasePlan();
    plan.delivery = { platforms: ['streaming_a'], territories: { mode: 'exclude', countries: ['KP'] } };
    const result = planRelease(desired(plan), converged(), noSubmit);
    expect(changeOf(result, 'delivery')!.body).toEqual(plan.delivery);
  });
});

describe('apply plan: states and submit', () => {
  it.each([
    ['in_review', /in review: never edited behind the reviewer's back/],
    ['approved', /approved/],
    ['delivered', /delivered: apply does not redeliver/],
    ['live', /live/],
    ['taken_down', /taken down/],
  ] as const)('skips a release that is %s, even with --submit', (status, reason) => {
    const plan = releasePlan();
    plan.release = { ...plan.release, title: 'Something Else' };
    const result = planRelease(desired(plan), converged(status), { submit: true });
    expect(result.action).toBe('skip');
    expect(result.reason).toMatch(reason);
    expect(result.changes).toEqual([]);
    expect(result.submit).toBe(false);
  });

  it('submits a draft with --submit, changed or not', () => {
    const unchanged = planRelease(desired(), converged('draft'), { submit: true });
    expect(unchanged).toMatchObject({ action: 'unchanged', submit: true });
    expect(unchanged.changes.map((c) => c.kind)).toEqual(['submit']);
    const plan = releasePlan();
    plan.release = { ...plan.release, title: 'New Light' };
    const changed = planRelease(desired(plan), converged('draft'), { submit: true });
    expect(changed).toMatchObject({ action: 'update', submit: true });
    expect(changed.changes.map((c) => c.kind)).toEqual(['metadata', 'submit']);
  });

  it('resubmits a rejected release only when it was changed', () => {
    const plan = releasePlan();
    plan.release = { ...plan.release, title: 'New Light' };
    expect(planRelease(desired(plan), converged('rejected'), { submit: true })).toMatchObject({ action: 'update', submit: true });
    const same = planRelease(desired(), converged('rejected'), { submit: true });
    expect(same).toMatchObject({ action: 'unchanged', submit: false });
    expect(same.reason).toMatch(/rejected and unchanged/);
    expect(planRelease(desired(), converged('rejected'), noSubmit).reason).toBeUndefined();
  });
});

describe('apply plan: display', () => {
  it('draws one line per release and the summary', () => {
    const renamed = releasePlan();
    renamed.release = { ...renamed.release, title: 'New' };
    renamed.delivery = { ...renamed.delivery, release_date: '2030-02-01' };
    const update = planRelease(
      desired(renamed),
      converged('draft', { title: 'Old' }, [
        track(1, 'First Light', SHA_A, { contributors: [{ name: 'Nina Vale', role: 'composer' }] }),
        track(2, 'Evening Tide', SHA_C),
      ]),
      { submit: true },
    );
    expect(planLine({ file: 'release.yaml', catalogNumber: 'NLR-0001', plan: update })).toBe(
      '~ NLR-0001  release.yaml  title: "Old" → "New"; track 2 audio; delivery.release_date: "2030-01-11" → "2030-02-01"; submit',
    );
    const create = planRelease(desired(), undefined, noSubmit);
    expect(planLine({ file: 'b/release.yaml', catalogNumber: 'NLR-0002', plan: create })).toBe(
      '+ NLR-0002  b/release.yaml  new release, 2 tracks; delivery; video',
    );
    const same = planRelease(desired(), converged(), noSubmit);
    expect(planLine({ file: 'c.yaml', catalogNumber: 'NLR-0003', plan: same })).toBe('= NLR-0003  c.yaml');
    const skip = planRelease(desired(), converged('in_review'), noSubmit);
    expect(planLine({ file: 'd.yaml', catalogNumber: 'NLR-0004', plan: skip })).toBe(
      "! NLR-0004  d.yaml  in review: never edited behind the reviewer's back (editable again if the review rejects it)",
    );
    const text = planText([
      { file: 'release.yaml', catalogNumber: 'NLR-0001', plan: update },
      { file: 'b/release.yaml', catalogNumber: 'NLR-0002', plan: create },
      { file: 'c.yaml', catalogNumber: 'NLR-0003', plan: same },
      { file: 'd.yaml', catalogNumber: 'NLR-0004', plan: skip },
    ]);
    expect(text.split('\n').at(-2)).toBe('1 to create, 1 to update, 1 to submit, 1 unchanged, 1 skipped');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('marks a submit the checks would block with !, whatever else changes, and counts it apart', () => {
    const create = planRelease(desired(), undefined, { submit: true });
    const error = { code: 'title_has_featuring', message: 'credits an artist', severity: 'error' as const, path: 'title' };
    const warning = { code: 'name_all_caps', message: 'all capitals', severity: 'warning' as const, path: 'artists.0.name' };
    expect(planLine({ file: 'a.yaml', catalogNumber: 'NLR-1', plan: create, submitProblems: [error, warning] })).toBe(
      '! NLR-1  a.yaml  new release, 2 tracks; delivery; video; submit would be blocked (1 error)',
    );
    // Warnings alone do not block.
    expect(planLine({ file: 'a.yaml', catalogNumber: 'NLR-1', plan: create, submitProblems: [warning] })).toBe(
      '+ NLR-1  a.yaml  new release, 2 tracks; delivery; video; submit',
    );
    const text = planText([
      { file: 'a.yaml', catalogNumber: 'NLR-1', plan: create, submitProblems: [error] },
      { file: 'b.yaml', catalogNumber: 'NLR-2', plan: create, submitProblems: [] },
    ]);
    expect(text.split('\n').at(-2)).toBe('2 to create, 0 to update, 1 to submit, 1 blocked at submit, 0 unchanged, 0 skipped');
  });

  it('counts the summary exactly', () => {
    const plans = [
      ...Array.from({ length: 3 }, () => planRelease(desired(), undefined, noSubmit)),
      planRelease(desired(), converged('draft', { title: 'Old' }), noSubmit),
      planRelease(desired(), converged('draft'), { submit: true }),
      ...Array.from({ length: 25 }, () => planRelease(desired(), converged('draft'), noSubmit)),
    ];
    expect(summaryLine(plans)).toBe('3 to create, 1 to update, 1 to submit, 26 unchanged, 0 skipped');
  });

  it('shows plain values, none for null, and only the label for lists and long text is cut', () => {
    expect(describeField({ path: 'upc', label: 'upc', before: null, after: '5063489000013' })).toBe('upc: none → "5063489000013"');
    expect(describeField({ path: 'artists', label: 'artists', before: [], after: [{ name: 'X', role: 'primary' }] })).toBe('artists');
    expect(describeField({ path: 'title', label: 'title', before: 'a', after: 'b'.repeat(60) })).toBe(`title: "a" → "${'b'.repeat(39)}…"`);
    expect(describeField({ path: 'video.enabled', label: 'video.enabled', before: false, after: true })).toBe('video.enabled: false → true');
  });
});

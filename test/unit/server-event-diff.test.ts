// events/diff.ts compares lists and objects structurally instead of through their JSON texts: the
// answer must be what comparing JSON.stringify texts gave (order of items and of keys included).
import { describe, expect, it } from 'vitest';
import type { ReleaseResource, TrackResource } from '../../src/contract/resources.js';
import { releaseChanges, trackChanges } from '../../src/server/events/diff.js';

const release = (over: Record<string, unknown>) =>
  ({
    id: 1,
    status: 'draft',
    title: 'Northern Sky',
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    p_line: { year: 2026, owner: 'Northern Lights Records' },
    delivery: { platforms: ['spotify', 'deezer'], territories: { mode: 'worldwide', countries: [] }, price_tier: null },
    ...over,
  }) as unknown as ReleaseResource;

describe('releaseChanges compares as the JSON texts do', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['equal lists and objects, parsed apart', {}, []],
    [
      'an item more',
      {
        artists: [
          { name: 'Nina Vale', role: 'primary' },
          { name: 'Ola', role: 'featuring' },
        ],
      },
      ['artists'],
    ],
    [
      'items in another order',
      { delivery: { platforms: ['deezer', 'spotify'], territories: { mode: 'worldwide', countries: [] }, price_tier: null } },
      ['delivery.platforms'],
    ],
    ['the same keys in another order', { artists: [{ role: 'primary', name: 'Nina Vale' }] }, ['artists']],
    ['a key more in an item', { artists: [{ name: 'Nina Vale', role: 'primary', id: 3 }] }, ['artists']],
    ['an object where a list was', { artists: { 0: { name: 'Nina Vale', role: 'primary' } } }, ['artists']],
    ['null where an object was', { p_line: null }, ['p_line']],
    [
      'a nested field',
      { delivery: { platforms: ['spotify', 'deezer'], territories: { mode: 'exclude', countries: ['DE'] }, price_tier: null } },
      ['delivery.territories.mode', 'delivery.territories.countries'],
    ],
    ['a number as a string', { p_line: { year: '2026', owner: 'Northern Lights Records' } }, ['p_line.year']],
  ];
  for (const [what, over, fields] of cases) {
    it(what, () => {
      // Each side parsed from its own text, as the event's two readings are.
      const before = JSON.parse(JSON.stringify(release({})));
      const after = JSON.parse(JSON.stringify(release(over)));
      expect(releaseChanges(before, after).map((c) => c.field)).toEqual(fields);
    });
  }
});

describe('trackChanges', () => {
  const track = (over: Record<string, unknown>) =>
    ({ id: 7, disc: 1, position: 1, title: 'One', artists: [{ name: 'Nina Vale', role: 'primary' }], file: null, ...over }) as unknown as TrackResource;
  it('names a file changed by its key and filename, and nothing for the same file read twice', () => {
    const file = (key: string) => ({ key, filename: `${key}.wav`, format: 'wav', size: 10 });
    expect(trackChanges([track({ file: file('a') })], [track({ file: file('a') })]).changed).toEqual([]);
    expect(trackChanges([track({ file: file('a') })], [track({ file: file('b') })]).changed).toEqual([
      { track_id: 7, changes: [{ field: 'file', old: { key: 'a', filename: 'a.wav' }, new: { key: 'b', filename: 'b.wav' } }] },
    ]);
    expect(trackChanges([track({})], [track({ artists: [{ name: 'Nina Vale', role: 'primary' }] })]).changed).toEqual([]);
  });
});

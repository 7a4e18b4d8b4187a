// The pure parts of the wizard's answers: the words of a catalog number in use, the name the
// answers are saved under, and what counts as a date in the past.
import { describe, expect, it } from 'vitest';
import { catalogTakenAtPrompt, holderWords, shellWord } from '../../src/cli/commands/release/catalog-taken.js';
import { isPast, pastDateQuestion } from '../../src/cli/commands/release/wizard.js';
import { candidateNames, fileStem } from '../../src/cli/release-file/write.js';

describe('a catalog number in use', () => {
  it('names the release (id, title, status in words) and the commands that update it', () => {
    expect(holderWords('SBX-03', { releaseId: 7, status: 'in_review', title: 'Tidal Bloom' })).toBe(
      'catalog number SBX-03 is already release 7 "Tidal Bloom" (in review)',
    );
    expect(holderWords('SBX-03', { releaseId: 7, status: 'draft' })).toBe('catalog number SBX-03 is already release 7 (draft)');
    expect(catalogTakenAtPrompt('SBX-03', { releaseId: 7, status: 'draft', title: 'Tidal Bloom' })).toBe(
      'catalog number SBX-03 is already release 7 "Tidal Bloom" (draft): update that one with `reldist release edit cat:SBX-03 …` or `reldist release apply FILE`; here, type another number or Enter for none',
    );
  });

  it('quotes what the shell would split or expand, and only that', () => {
    expect(shellWord('cat:SBX-03')).toBe('cat:SBX-03');
    expect(shellWord('night-drive.yaml')).toBe('night-drive.yaml');
    expect(shellWord('cat:NLR 12')).toBe("'cat:NLR 12'");
    expect(shellWord("it's.yaml")).toBe(`'it'\\''s.yaml'`);
    expect(shellWord('$HOME')).toBe("'$HOME'");
  });
});

describe('the name the answers are saved under', () => {
  it('is the title in lower case, letters and digits joined by dashes', () => {
    expect(fileStem('Night Drive')).toBe('night-drive');
    expect(fileStem('  Señorita (Live) / 2027 ')).toBe('señorita-live-2027');
    expect(fileStem('!!!')).toBe('release');
    expect(fileStem('a'.repeat(100)).length).toBe(60);
  });

  it('tries stem.yaml, then stem-2.yaml … stem-99.yaml', () => {
    const names = candidateNames('night-drive');
    expect(names.slice(0, 3)).toEqual(['night-drive.yaml', 'night-drive-2.yaml', 'night-drive-3.yaml']);
    expect(names).toHaveLength(99);
    expect(new Set(names).size).toBe(99);
  });
});

describe('a release date in the past', () => {
  it('is one before today; today and later are not', () => {
    expect(isPast('2024-01-05', '2026-03-01')).toBe(true);
    expect(isPast('2026-02-28', '2026-03-01')).toBe(true);
    expect(isPast('2026-03-01', '2026-03-01')).toBe(false);
    expect(isPast('2030-01-15', '2026-03-01')).toBe(false);
  });

  it('is asked about in the words stores use', () => {
    expect(pastDateQuestion('2024-01-05')).toBe('2024-01-05 is in the past: stores will show it as the original date; keep it?');
  });
});

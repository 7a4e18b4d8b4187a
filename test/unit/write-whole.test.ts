// A release file is written whole or not at all: a new one never replaces a name that appeared
// meanwhile, and nothing of the write is left beside it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNewSync, writeWhole } from '../../src/cli/release-file/write-whole.js';

describe('write-whole', () => {
  it('writeNewSync creates the file and leaves no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reldist-write-'));
    writeNewSync(join(dir, 'NLR-1.yaml'), 'title: A\n');
    expect(readdirSync(dir)).toEqual(['NLR-1.yaml']);
    expect(readFileSync(join(dir, 'NLR-1.yaml'), 'utf8')).toBe('title: A\n');
  });

  it('writeNewSync refuses a name that exists (EEXIST), keeps that file as it was, leaves nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reldist-write-'));
    writeFileSync(join(dir, 'NLR-1.yaml'), 'mine\n');
    expect(() => writeNewSync(join(dir, 'NLR-1.yaml'), 'title: A\n')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readdirSync(dir)).toEqual(['NLR-1.yaml']);
    expect(readFileSync(join(dir, 'NLR-1.yaml'), 'utf8')).toBe('mine\n');
  });

  it('writeWhole replaces a file and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reldist-write-'));
    writeFileSync(join(dir, 'NLR-1.yaml'), 'old\n');
    await writeWhole(join(dir, 'NLR-1.yaml'), 'new\n');
    expect(readdirSync(dir)).toEqual(['NLR-1.yaml']);
    expect(readFileSync(join(dir, 'NLR-1.yaml'), 'utf8')).toBe('new\n');
  });
});

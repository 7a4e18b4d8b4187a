import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as contractIndex from '../../src/contract/index.js';
import * as openapi from '../../src/contract/openapi.js';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const docs = readFileSync(new URL('docs/api.md', root), 'utf8');

interface ApiDocsScript {
  renderApiDocs(contract: object, currentText: string, version: string): string;
  fillBlocks(text: string, blocks: Record<string, string>): string;
}
// Loaded by URL: the script is plain JavaScript, run by node for `npm run docs:api`.
const script = (await import(new URL('scripts/api-docs.mjs', root).href)) as ApiDocsScript;

describe('docs/api.md', () => {
  it('is in sync with the contract', () => {
    const fresh = script.renderApiDocs({ ...contractIndex, ...openapi }, docs, pkg.version);
    expect(fresh === docs, 'docs/api.md is out of date with src/contract: run `npm run docs:api` and commit it').toBe(true);
  });

  it('documents every endpoint of the catalog with a request and a response example', () => {
    for (const endpoint of contractIndex.endpoints) {
      const heading = `#### \`${endpoint.method} ${endpoint.path}\``;
      const start = docs.indexOf(heading);
      expect(start, heading).toBeGreaterThan(0);
      const next = docs.indexOf('\n#### ', start + heading.length);
      const section = docs.slice(start, next < 0 ? undefined : next);
      expect(section, endpoint.id).toMatch(/```sh\ncurl /);
      expect(section, endpoint.id).toContain(`Response \`${endpoint.status}`);
      expect(section, endpoint.id).toMatch(/```json\n/);
    }
  });

  it('names every error code with its status', () => {
    for (const [code, status] of Object.entries(contractIndex.errorCodes)) {
      expect(docs).toMatch(new RegExp(`\\| ${status} [^|]*\\| \`${code}\` \\|`));
    }
  });

  it('names every check code the submit checks can report', () => {
    const checks = new URL('src/rules/submit-checks.ts', root);
    expect(existsSync(checks), 'the submit checks moved: update this test and the list in docs/api.md').toBe(true);
    const source = readFileSync(checks, 'utf8');
    const codes = [...source.matchAll(/\b(?:error|warn)\([^,]+,\s*'([a-z0-9_]+)'/g)].map((m) => m[1]!);
    // The cover's rules live with the image facts they judge (src/artwork/rules.ts), as problems.
    const cover = readFileSync(new URL('src/artwork/rules.ts', root), 'utf8');
    codes.push(...[...cover.matchAll(/\bcode: '(artwork_[a-z0-9_]+)', severity:/g)].map((m) => m[1]!));
    if (cover.includes("code: 'artwork_not_verified'")) codes.push('artwork_not_verified');
    expect(codes.length).toBeGreaterThan(20);
    for (const code of new Set(codes)) expect(docs, `check code ${code}`).toContain(`\`${code}\``);
  });

  it('refuses to regenerate when a marker is missing, instead of dropping the block', () => {
    expect(() => script.fillBlocks('no markers here', { endpoints: 'x' })).toThrow(/endpoints/);
  });
});

// `reldist api` run in-process against the real service.
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const harness = useCli();
const cli = (args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) => harness.run(args, options);

describe('reldist api', () => {
  it('GET prints the JSON body', async () => {
    const r = await cli(['api', 'GET', '/me']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'label' });
  });

  it('a path alone is a GET, or a POST when fields give it a body (as gh api)', async () => {
    const get = await cli(['api', '/me']);
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({ kind: 'label' });
    const post = await cli([
      'api',
      '/releases',
      '-f',
      'type=single',
      '-f',
      'title=Path Only',
      '-f',
      'artists[0][name]=Nina Vale',
      '-f',
      'artists[0][role]=primary',
      '-f',
      'label=L',
      '-i',
    ]);
    expect(post.code, post.stderr).toBe(0);
    expect(post.stdout).toMatch(/^HTTP 201 Created\n/);
  });

  it('POST sends -f/-F fields as a JSON body; -i shows the status line and headers', async () => {
    const r = await cli([
      'api',
      'POST',
      '/releases',
      '-f',
      'type=single',
      '-f',
      'title=Field Notes',
      '-f',
      'artists[0][name]=Nina Vale',
      '-f',
      'artists[0][role]=primary',
      '-f',
      'label=Northern Lights',
      '-f',
      'explicit=clean',
    ]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ title: 'Field Notes', explicit: 'clean' });
    const got = await cli(['api', 'GET', `/releases/${created.id}`, '-i']);
    expect(got.stdout).toMatch(/^HTTP 200/);
    expect(got.stdout).toMatch(/\nx-request-id: req_/);
  });

  it('--paginate merges every page into one array', async () => {
    for (let i = 0; i < 3; i++) {
      await cli([
        'api',
        'POST',
        '/releases',
        '-f',
        'type=single',
        '-f',
        `title=P${i}`,
        '-f',
        'artists[0][name]=N',
        '-f',
        'artists[0][role]=primary',
        '-f',
        'label=L',
      ]);
    }
    const total = JSON.parse((await cli(['api', 'GET', '/releases'])).stdout).meta.total;
    const r = await cli(['api', 'GET', '/releases', '-F', 'perPage=1', '--paginate']);
    expect(r.code).toBe(0);
    const all = JSON.parse(r.stdout);
    expect(Array.isArray(all)).toBe(true);
    expect(all).toHaveLength(total);
  });

  it('--input sends a file or stdin as the body', async () => {
    const body = JSON.stringify({ upc: '036000291452' });
    const r = await cli(['api', 'POST', '/releases/validate/upc', '--input', '-'], { stdin: body });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toBeTypeOf('object');
  });

  it('a 404 prints the error body on stdout and exits 5', async () => {
    const r = await cli(['api', 'GET', '/releases/999999']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).error.code).toBe('not_found');
    expect(r.stderr).toMatch(/^error: .*request req_/);
  });

  it('refuses absolute URLs, unknown methods and tokens in -H', async () => {
    expect((await cli(['api', 'GET', 'https://elsewhere.example/me'])).code).toBe(2);
    expect((await cli(['api', 'FETCH', '/me'])).stderr).toMatch(/not an HTTP method/);
    expect((await cli(['api', 'GET', '/me', '-H', 'Authorization: Bearer x'])).code).toBe(2);
  });

  it('names the base URL when nothing listens there', async () => {
    const r = await cli(['api', 'GET', '/me'], { env: { RELDIST_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot connect to http://127.0.0.1:9: connection refused');
  });
});

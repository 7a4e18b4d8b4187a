import { describe, expect, it } from 'vitest';
import {
  buildPath,
  catalog,
  endpointIds,
  sandboxCatalog,
  sandboxEndpointIds,
  pathParamNames,
  routes,
  toUser,
  UserResource,
  type Route,
} from '../../src/contract/index.js';

describe('the endpoint catalog', () => {
  // No count here: openapi.json, compared with the catalog by its own test, holds the list.
  it('has each path once per method', () => {
    const keys = endpointIds.map((id) => `${routes[id].method} ${routes[id].path}`);
    expect(endpointIds.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(endpointIds.length);
  });

  it('keeps the sandbox controls apart: typed entries under /_sandbox, none of the endpoints', () => {
    expect(sandboxEndpointIds).toHaveLength(6);
    for (const id of sandboxEndpointIds) {
      const entry = sandboxCatalog[id];
      expect(entry.id).toBe(id);
      expect(entry.path.startsWith('/_sandbox/releases/{releaseId}/'), id).toBe(true);
      expect(entry.tag).toBe('sandbox');
      expect(entry.body, id).toBeDefined();
      expect(Object.keys(entry.pathParams.shape)).toEqual(['releaseId']);
      expect(id in catalog, id).toBe(false);
    }
    for (const id of endpointIds) expect(routes[id].path.startsWith('/_sandbox'), id).toBe(false);
  });

  it('declares a path-parameter schema matching every {param} of the path', () => {
    for (const endpoint of Object.values(catalog)) {
      expect(Object.keys(endpoint.pathParams.shape).sort()).toEqual(pathParamNames(endpoint.path).sort());
    }
  });

  it('gives every body-carrying method a body schema and no GET a body', () => {
    for (const endpoint of Object.values(catalog)) {
      if (endpoint.method === 'GET' || endpoint.method === 'DELETE') expect(endpoint.body, endpoint.id).toBeUndefined();
      else expect(endpoint.body, endpoint.id).toBeDefined();
    }
  });

  it('declares query schemas with exactly the names the route lists', () => {
    for (const endpoint of Object.values(catalog)) {
      const declared = endpoint.query ? Object.keys(endpoint.query.shape).sort() : [];
      const route: Route = routes[endpoint.id];
      expect(declared, endpoint.id).toEqual([...(route.query ?? [])].sort());
    }
  });

  it("takes no query parameters on GET /releases as the empty query (the service's fast lane answers that request without parsing it)", () => {
    expect(catalog.listReleases.query.parse({})).toEqual({});
  });

  it('encodes path parameters so an id cannot change the path', () => {
    expect(buildPath('/releases/{releaseId}/tracks/{trackId}', { releaseId: 42, trackId: '../x' })).toBe('/releases/42/tracks/..%2Fx');
    expect(() => buildPath('/releases/{releaseId}', {})).toThrow(/releaseId/);
  });
});

describe('toUser', () => {
  it('normalizes the snake_case UserResource into the camelCase User', () => {
    const raw = UserResource.parse({
      id: 1,
      kind: 'label',
      name: 'Ada',
      email: 'ada@example.test',
      label_name: 'NLR',
      artist_name: null,
      country: 'GB',
      created_at: '2026-11-22T10:15:00.000Z',
    });
    expect(toUser(raw)).toEqual({
      id: 1,
      kind: 'label',
      name: 'Ada',
      email: 'ada@example.test',
      labelName: 'NLR',
      artistName: null,
      country: 'GB',
      createdAt: '2026-11-22T10:15:00.000Z',
    });
  });
});

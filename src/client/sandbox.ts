// The sandbox's review controls (the contract's sandboxCatalog): typed calls, apart from the 36
// endpoints of `call`. Only a service running as a sandbox serves them; elsewhere they are 404.
// Loads zod (the body is checked, and the answer typed by parsing it): sandbox commands are rare.
import { buildPath, sandboxRoutes, type SandboxEndpointId } from '../contract/routes.js';
import type { ReleaseResource, SandboxRejectRequest } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { RequestValidationError, ResponseContractError } from './errors.js';
import { schemaIssues } from './catalog.js';

/** What each control sends: the reasons for a rejection, nothing for the others. */
export type SandboxBodyOf<Id extends SandboxEndpointId> = Id extends 'sandboxReject' ? SandboxRejectRequest : Record<string, never>;

/** Moves one release as the control does; resolves to the release afterwards. */
export async function callSandbox<Id extends SandboxEndpointId>(
  client: ApiClient,
  endpointId: Id,
  releaseId: number,
  body: SandboxBodyOf<Id>,
  options: { signal?: AbortSignal } = {},
): Promise<ReleaseResource> {
  const [{ sandboxCatalog }, { ReleaseResource: ReleaseSchema }] = await Promise.all([import('../contract/catalog.js'), import('../contract/resources.js')]);
  const entry = sandboxCatalog[endpointId];
  const issues = entry.body ? schemaIssues(entry.body, body) : [];
  if (issues.length > 0) throw new RequestValidationError(endpointId, issues);
  const route = sandboxRoutes[endpointId];
  const res = await client.request({
    method: route.method,
    path: buildPath(route.path, { releaseId }),
    // The controls take an Idempotency-Key, so a retried control cannot act twice.
    headers: { 'Idempotency-Key': globalThis.crypto.randomUUID() },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  const parsed = ReleaseSchema.safeParse(res.data);
  if (!parsed.success) throw new ResponseContractError(endpointId, schemaIssues(ReleaseSchema, res.data));
  return parsed.data;
}

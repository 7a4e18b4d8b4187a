// The wire contract: the single description of every resource, request and endpoint.
export * from './common.js';
export * from './resources.js';
export * from './requests.js';
export * from './errors.js';
export * from './routes.js';
export * from './catalog.js';
export { toUser } from './user.js';
export { catalogNumberKey } from './catalog-number.js';
export { artistPlatformIds, eventTypes, releaseStatuses } from './wire-values.js';
export * from './events.js';
export * from './webhooks.js';

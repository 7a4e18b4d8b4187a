// The code engine: pure functions over strings, no I/O and no dependencies, shared by the CLI
// and the service. See docs/codes.md for the rules and the policy choices.
export { checkUpc, upcCheckDigit, sameUpc, toGtin14 } from './upc.js';
export { checkIsrc, isrcDisplay, isrcFullYear, isrcPrefixKind, YEAR_WINDOW_AHEAD } from './isrc.js';
export { iso3166Codes, agencyPrefixes } from './countries.js';
export type { Problem, ProblemCode, UpcKind, UpcResult, IsrcParts, IsrcPrefixKind, IsrcResult, IsrcOptions } from './types.js';
export { NO_PROBLEMS } from './types.js';
export { plainValidUpcLength, plainValidIsrc, plainValidIsrcAt, upcKeyAt, isrcKeyAt, codeKey } from './bytes.js';
export { ByteDiagnosis, diagnoseIsrcBytes, diagnoseUpcBytes, problemOfSpec, SPEC } from './bytes-invalid.js';
export { diagnoseDamage, type Damage } from './damage.js';
export { releasePrefixProblem } from './gs1.js';

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with Liftoff at once and
// then re-compiles it with TurboFan on background threads; a short process waits for that work
// at exit (~130 ms here). Liftoff code is fast enough for our traffic, so skip the tier-up.
// Must run before undici is loaded. Measured in docs/startup.md.
import v8 from 'node:v8';

let done = false;

export function tameWasmCompilation(): void {
  if (done) return;
  done = true;
  v8.setFlagsFromString('--liftoff-only');
}

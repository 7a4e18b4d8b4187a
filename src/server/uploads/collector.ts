// One V8 setting for a standing service's process, for its uploads (docs/performance.md,
// "Uploads"). Each 64 KiB piece of a request body is a Buffer whose memory lies outside V8's heap;
// a young-generation collection frees them, but by default a background thread sweeps them, and
// until it has the bytes still count as external memory. With the service's heap (the database
// open, the schemas, the app) that count kept crossing V8's external-memory limit, and each time a
// full mark of the heap began: 6-8 per 200 MiB received, where a plain node:http server doing the
// same receive does none (the service 0.67-0.72x its CPU per upload; with the sweep on the main
// thread, 0.97-1.0x). The sweep is a walk over the young buffers' list, done in the collection
// that freed them, which requests of a few KB barely fill.
import { setFlagsFromString } from 'node:v8';

/** Sweeps freed Buffers' memory on the main thread, at once; for the service's own process only. */
export function sweepBuffersAtOnce(): void {
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
}

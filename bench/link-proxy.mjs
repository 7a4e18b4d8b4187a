// A TCP proxy of the upload benches' own, loopback only, in two uses:
//   - a long-distance link (`rate`, `delayMs`): each connection's bytes, each way, are held
//     `delayMs` after they arrive and leave at most `rate` bytes a second (a token bucket per
//     connection and direction, `burst` bytes deep), so N connections carry N times one
//     connection's rate, as over a path whose single TCP connection is held back by its round
//     trip. What a direction holds is bounded (twice rate x delay, its bandwidth-delay product,
//     plus a little): past it the sender's socket is paused, and TCP's own back-pressure follows.
//   - a byte counter (no `rate`): bytes pass at once, counted; `cutAt(n, f)` calls f (the bench
//     SIGKILLs the client there) when the client has sent n bytes through it, and cuts every
//     connection at that moment, so the service holds at most what had gone through.
// Counted: the client's bytes towards the service (`up`) and back (`down`), connections opened,
// and the most open at once. The target may be set after the start (`setTarget`), so that a
// service can be started with the proxy's address as its public URL.
//   const link = await startLinkProxy({ rate: 20e6, delayMs: 40 });
//   link.setTarget(serviceUrl); … link.url … link.stats.up; await link.close();
import { createConnection, createServer } from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export async function startLinkProxy({ rate = Infinity, delayMs = 0, burst = 64 * 1024, target } = {}) {
  let upstream = target ? new URL(target) : undefined;
  const shaped = Number.isFinite(rate) || delayMs > 0;
  // What one direction may hold before its sender is paused: a link's bytes in flight, plus room.
  const highWater = Number.isFinite(rate) ? Math.ceil((2 * rate * delayMs) / 1000) + 4 * burst : 4 * 1024 * 1024;
  const stats = { up: 0, down: 0, connections: 0, open: 0, maxOpen: 0 };
  const sockets = new Set();
  let cut;

  const setTarget = (url) => {
    const u = new URL(url);
    if (!LOOPBACK.has(u.hostname)) throw new Error(`link-proxy: loopback targets only, not ${u.hostname}`);
    upstream = u;
  };
  if (target) setTarget(target);

  const cutAll = () => {
    for (const s of sockets) s.destroy();
  };

  /** Moves bytes from `src` to `dst`, shaped or not; `onBytes(n)` counts them as they arrive. */
  function pipe(src, dst, onBytes) {
    if (!shaped) {
      src.on('data', (chunk) => {
        if (!dst.write(chunk)) src.pause();
        onBytes(chunk.length);
      });
      dst.on('drain', () => src.resume());
      src.on('end', () => dst.end());
      return;
    }
    const queue = [];
    let queued = 0;
    let nextFree = 0;
    let timer;
    let ended = false;
    let blocked = false;
    const pump = () => {
      if (timer || blocked || dst.destroyed) return;
      for (;;) {
        const now = performance.now();
        const head = queue[0];
        if (!head) break;
        const start = Math.max(head.due, nextFree);
        if (start > now) {
          // Not unref'd: bytes still held after the sender's end must still leave.
          timer = setTimeout(
            () => {
              timer = undefined;
              pump();
            },
            Math.max(1, Math.ceil(start - now)),
          );
          return;
        }
        queue.shift();
        queued -= head.chunk.length;
        // A late timer may catch up by a bucket's worth at most, never more.
        nextFree = Math.max(start, now - (burst / rate) * 1000) + (head.chunk.length / rate) * 1000;
        if (!dst.write(head.chunk)) {
          blocked = true;
          dst.once('drain', () => {
            blocked = false;
            pump();
          });
        }
        if (queued < highWater && src.isPaused()) src.resume();
        if (blocked) return;
      }
      if (ended && queue.length === 0) dst.end();
    };
    src.on('data', (chunk) => {
      const due = performance.now() + delayMs;
      // Pieces of at most a bucket, so pacing stays smooth.
      for (let i = 0; i < chunk.length; i += burst) queue.push({ chunk: chunk.subarray(i, i + burst), due });
      queued += chunk.length;
      onBytes(chunk.length);
      if (queued >= highWater) src.pause();
      pump();
    });
    src.on('end', () => {
      ended = true;
      pump();
    });
  }

  const server = createServer({ noDelay: true, allowHalfOpen: true }, (client) => {
    if (!upstream) return client.destroy();
    const service = createConnection({ host: upstream.hostname.replace(/^\[|\]$/g, ''), port: Number(upstream.port), noDelay: true, allowHalfOpen: true });
    for (const s of [client, service]) {
      sockets.add(s);
      s.on('error', () => {
        client.destroy();
        service.destroy();
      });
      s.on('close', () => {
        sockets.delete(s);
        // The other side goes too once this one is gone for good (a reset, a kill).
        if (s === client && !client.readableEnded) service.destroy();
        if (s === service && !service.readableEnded) client.destroy();
      });
    }
    stats.connections++;
    stats.open++;
    stats.maxOpen = Math.max(stats.maxOpen, stats.open);
    client.once('close', () => stats.open--);
    pipe(client, service, (n) => {
      stats.up += n;
      if (cut && stats.up >= cut.bytes) {
        const f = cut.onCut;
        cut = undefined;
        f();
        cutAll();
      }
    });
    pipe(service, client, (n) => {
      stats.down += n;
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    stats,
    setTarget,
    /** Zeroes the byte counts and the connections' peak (the open ones stay counted as open). */
    resetStats() {
      Object.assign(stats, { up: 0, down: 0, connections: 0, maxOpen: stats.open });
    },
    /** Calls `onCut` once `bytes` more than now have gone up, then cuts every connection. */
    cutAt(bytes, onCut) {
      cut = { bytes: stats.up + bytes, onCut };
    },
    clearCut() {
      cut = undefined;
    },
    /** Cuts every connection now. */
    cutAll,
    close() {
      cut = undefined;
      cutAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// A keep-alive connection between requests is closed by Node after its keep-alive timeout, but
// that timer restarts on any byte: a client sending only empty lines (which the parser skips
// without starting a request, so the headers bound never starts either) would hold it forever.
// This sweep closes a connection with no request in progress for longer than a real client can
// be: the keep-alive timeout, Node's extra second, then the headers bound of a request begun at
// its last moment. One Map write per request, and the clock is the sweep's tick count, not a
// call per request.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { CutLog } from './cut-log.js';

const BUSY = -1;

export class IdleConnections {
  /** Each open socket: the tick it went idle at, or BUSY while a request is in progress. */
  private readonly sockets = new Map<Socket, number>();
  private tick = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly boundTicks: number;

  constructor(
    server: Server,
    boundMs: number,
    private readonly intervalMs: number,
    private readonly cuts: CutLog,
  ) {
    this.boundTicks = Math.ceil(boundMs / intervalMs);
    server.on('connection', (socket: Socket) => {
      // The headers bound covers a new connection until its first request.
      this.sockets.set(socket, BUSY);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.timer = setInterval(() => this.sweep(), intervalMs).unref();
  }

  /** A request is in progress on `socket`. */
  busy(socket: Socket): void {
    if (this.sockets.has(socket)) this.sockets.set(socket, BUSY);
  }

  /** The request on `socket` is answered: idle from now. */
  idle(socket: Socket): void {
    if (this.sockets.has(socket)) this.sockets.set(socket, this.tick);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private sweep(): void {
    this.tick++;
    for (const [socket, since] of this.sockets) {
      if (since === BUSY || this.tick - since <= this.boundTicks) continue;
      this.sockets.delete(socket);
      socket.destroy();
      const idleFor = Math.round(((this.tick - since) * this.intervalMs) / 1000);
      this.cuts.cut('idle connections', `closed a connection from ${socket.remoteAddress ?? '?'}: no request for ${idleFor}s, kept open by empty lines`);
    }
  }
}

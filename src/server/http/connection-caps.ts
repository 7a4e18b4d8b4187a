// --max-connections, in total and per client address: a socket over either cap is closed as it
// arrives, so that one address holding its sockets open cannot lock every other client out. The
// address is the socket's: behind a reverse proxy every connection is the proxy's (see
// docs/api.md), which is why the per-address cap follows the total there unless set.
import type { Server } from 'node:http';
import type { CutLog } from './cut-log.js';

export interface ConnectionCaps {
  total: number | undefined;
  perAddress: number | undefined;
}

/** Counts the open sockets and closes those over a cap; nothing is installed when there is no cap. */
export function capConnections(server: Server, caps: ConnectionCaps, cuts: CutLog): void {
  const { total, perAddress } = caps;
  if (total === undefined && perAddress === undefined) return;
  const byAddress = new Map<string, number>();
  let open = 0;
  // Counted here rather than with server.maxConnections: a socket refused here is never counted,
  // so a flood of refused sockets, still closing, cannot fill the total for everyone else.
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const mine = byAddress.get(address) ?? 0;
    if (total !== undefined && open >= total) {
      socket.destroy();
      cuts.cut('refused (total)', `refused a connection from ${address}: ${total} connections are open (--max-connections)`);
      return;
    }
    if (perAddress !== undefined && mine >= perAddress) {
      socket.destroy();
      cuts.cut('refused (per address)', `refused a connection from ${address}: it has ${mine} open (--max-connections-per-address)`);
      return;
    }
    open++;
    byAddress.set(address, mine + 1);
    socket.once('close', () => {
      open--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
  });
}

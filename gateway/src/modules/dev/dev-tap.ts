import type { Server } from 'socket.io';
import type { EventBus } from '../../bus/bus.ts';

/** Outside production: `/dev-tap` sockets receive every event this node reads from the bus (for `npm run record`). */
export function mountDevTap(io: Server<never, never, never, never> | Server, bus: EventBus) {
  const nsp = (io as Server).of('/dev-tap');
  bus.subscribe((events) => {
    if (nsp.sockets.size === 0) return;
    for (const e of events) nsp.local.emit('event', e);
  });
  nsp.on('connection', (socket) => {
    socket.onAny(() => socket.disconnect(true));
  });
}

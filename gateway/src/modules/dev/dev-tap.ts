import type { Server } from 'socket.io';
import type { EventBus } from '../../bus/bus.ts';
import { isLocalRequest } from './local-only.ts';

/**
 * Outside production: `/dev-tap` sockets receive every event this node reads from the bus, every
 * member's included (for `npm run record`), so the namespace admits only sockets from this machine
 * (isLocalRequest on the handshake's HTTP request: its TCP peer, not a forwarded header).
 */
export function mountDevTap(io: Server<never, never, never, never> | Server, bus: EventBus) {
  const nsp = (io as Server).of('/dev-tap');
  nsp.use((socket, next) => next(isLocalRequest(socket.request) ? undefined : new Error('NOT_FOUND')));
  bus.subscribe((events) => {
    if (nsp.sockets.size === 0) return;
    // What members' sockets get: the nodes' own cache invalidations (`cache:{code}`) reach no socket.
    for (const e of events) if (!e.audience.startsWith('cache:')) nsp.local.emit('event', e);
  });
  nsp.on('connection', (socket) => {
    socket.onAny(() => socket.disconnect(true));
  });
}

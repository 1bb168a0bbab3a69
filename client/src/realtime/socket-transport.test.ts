import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { createSocketTransport, type RealtimeTransport } from './socket-transport';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A real Socket.IO server on loopback that sends each new socket `frames` (name, argument) after its hello. */
async function server(frames: Array<[string, unknown]>) {
  const http = createServer();
  const io = new Server(http);
  io.on('connection', (s) => {
    s.emit('hello', { memberId: null, merchantCode: 'DEMO', audiences: ['merchant:DEMO'], nodeId: 't' });
    for (const [name, arg] of frames) s.emit(name, arg);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => io.close(() => r())));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

describe('socket transport', () => {
  it('hands every element of an `events` frame to onEvent, in order, between lone `event` frames', async () => {
    const url = await server([
      ['event', { id: 'a' }],
      ['events', [{ id: 'b' }, { id: 'c' }]],
      ['event', { id: 'd' }],
      ['events', 'not an array'],
      ['event', { id: 'e' }],
    ]);
    const t: RealtimeTransport = createSocketTransport(() => ({ last: {} }), url);
    cleanup.push(() => t.close());
    const seen: unknown[] = [];
    t.onEvent((raw) => seen.push((raw as { id: string }).id));
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(5);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('drops its connection as soon as the browser goes offline ("reconnecting"), and reconnects and says hello again when it is back', async () => {
    const url = await server([]);
    const network = new EventTarget();
    const t = createSocketTransport(() => ({ last: {} }), url, network);
    cleanup.push(() => t.close());
    const states: string[] = [];
    let hellos = 0;
    t.onState((s) => states.push(s));
    t.onHello(() => { hellos++; });
    await expect.poll(() => hellos, { timeout: 10_000 }).toBe(1);
    network.dispatchEvent(new Event('offline'));
    await expect.poll(() => states.at(-1), { timeout: 10_000 }).toBe('reconnecting');
    network.dispatchEvent(new Event('online'));
    await expect.poll(() => hellos, { timeout: 10_000 }).toBe(2);
    expect(states.at(-1)).toBe('connected');
    t.close();
    const before = states.length;
    network.dispatchEvent(new Event('offline'));
    expect(states.length).toBe(before);
  });
});

/**
 * The SSE hub holds bounded memory for slow pages: a page that stops
 * reading keeps at most one message waiting (newer ones replace it), and
 * the hub takes at most MAX_CLIENTS pages. Real sockets, a real server.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { MAX_CLIENTS, SseHub } from '../../src/web/sse.js';

let server: Server | undefined;
let hub: SseHub | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  hub?.close();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

async function hubServer(): Promise<number> {
  const h = (hub = new SseHub());
  const s = (server = createServer((_req, res) => void h.add(res, null)));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return (s.address() as AddressInfo).port;
}

/** A client that sends the request and then never reads: its socket fills. */
function stalledClient(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      s.pause();
      resolve(s);
    });
    sockets.push(s);
  });
}

const until = async (check: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setImmediate(r));
  if (!check()) throw new Error(`not reached: ${what}`);
};

it('a page that stops reading holds at most one waiting message, however many are sent', async () => {
  const port = await hubServer();
  await stalledClient(port);
  await until(() => hub!.size === 1, 'the client joined');
  const big = JSON.stringify({ blob: 'x'.repeat(256 * 1024) });
  for (let i = 0; i < 200; i++) hub!.broadcast('snapshot', big);
  expect(hub!.coalesced).toBeGreaterThan(150);
  // the socket's own buffer (what it took before it was full) plus one waiting message
  expect(hub!.heldBytes()).toBeLessThan(8 * big.length);
});

it('takes at most MAX_CLIENTS pages and answers the next with 503', async () => {
  const port = await hubServer();
  for (let i = 0; i < MAX_CLIENTS; i++) await stalledClient(port);
  await until(() => hub!.size === MAX_CLIENTS, 'all clients joined');
  const res = await fetch(`http://127.0.0.1:${port}/`);
  expect(res.status).toBe(503);
  await res.body?.cancel();
});

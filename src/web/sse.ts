/**
 * Server-Sent Events to the open pages. What is sent is always the newest
 * whole state, so a page that reads slowly needs no history: each client
 * holds at most one message waiting (a newer one replaces it) while its
 * socket is full, and the hub holds at most MAX_CLIENTS pages. Memory stays
 * bounded by clients × one snapshot, however slow a reader is.
 */
import type { ServerResponse } from 'node:http';

export const MAX_CLIENTS = 64;
/** A comment line now and then keeps proxies and idle sockets from closing the stream. */
const KEEPALIVE_MS = 15_000;

interface Client {
  res: ServerResponse;
  /** The message waiting for the socket to drain (only the newest is kept). */
  waiting: string | null;
}

export class SseHub {
  private readonly clients = new Set<Client>();
  private readonly keepalive: NodeJS.Timeout;
  /** How many messages were replaced by a newer one before a slow client got them (tests, bench). */
  coalesced = 0;

  constructor() {
    this.keepalive = setInterval(() => this.each((c) => this.write(c, ': keepalive\n\n')), KEEPALIVE_MS);
    this.keepalive.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Bytes held for the pages: what the sockets buffer plus the messages waiting (bench, tests). */
  heldBytes(): number {
    let n = 0;
    for (const c of this.clients) n += c.res.writableLength + (c.waiting?.length ?? 0);
    return n;
  }

  /** Takes over `res` as an event stream; false (and a 503) when the hub is full. */
  add(res: ServerResponse, first: string | null): boolean {
    if (this.clients.size >= MAX_CLIENTS) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`at most ${MAX_CLIENTS} open pages\n`);
      return false;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const client: Client = { res, waiting: null };
    this.clients.add(client);
    res.on('close', () => this.clients.delete(client));
    res.on('drain', () => this.flush(client));
    if (first !== null) this.send(client, first);
    return true;
  }

  /** Sends `data` (one JSON text) as event `name` to every page. */
  broadcast(name: string, data: string): void {
    const message = `event: ${name}\ndata: ${data}\n\n`;
    this.each((c) => this.send(c, message));
  }

  private each(f: (c: Client) => void): void {
    for (const c of this.clients) f(c);
  }

  private send(c: Client, message: string): void {
    if (c.waiting !== null || c.res.writableNeedDrain) {
      if (c.waiting !== null) this.coalesced += 1;
      c.waiting = message;
      return;
    }
    this.write(c, message);
  }

  private flush(c: Client): void {
    const next = c.waiting;
    c.waiting = null;
    if (next !== null) this.write(c, next);
  }

  private write(c: Client, text: string): void {
    if (!c.res.writableEnded) c.res.write(text);
  }

  close(): void {
    clearInterval(this.keepalive);
    this.each((c) => c.res.end());
    this.clients.clear();
  }
}

/** A snapshot as the first message of a new stream. */
export const sseMessage = (name: string, data: string): string => `event: ${name}\ndata: ${data}\n\n`;

/**
 * A Messages endpoint on 127.0.0.1 that answers every request with a canned
 * SSE answer, for the first turn's rehearsal (turn-rehearsal.ts). Plain
 * `net`, not `node:http`: it reads a request's head and `content-length`
 * body and writes a chunked `text/event-stream` answer on the same
 * keep-alive connection, which is all a fetch client needs. The answer
 * for the n-th request is `answers[n]` (the last one repeats). Nothing of
 * it holds the process: the server and its sockets are unref'd.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CannedEndpoint {
  url: string;
  /** Requests answered so far. */
  readonly answered: number;
  close(): void;
}

/** The SSE text of one answer, from its events. */
export const sseOf = (events: Record<string, unknown>[]): string[] =>
  events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);

const HEAD = [
  'HTTP/1.1 200 OK',
  'content-type: text/event-stream; charset=utf-8',
  'cache-control: no-cache',
  'request-id: req_rehearsal',
  'connection: keep-alive',
  'transfer-encoding: chunked',
].join('\r\n');

const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

/** The length of the first complete request in `buffer` (head and body), or 0 while it is incomplete. */
export function requestLength(buffer: Buffer): number {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return 0;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString('latin1'));
  const total = end + 4 + Number(length?.[1] ?? 0);
  return buffer.length >= total ? total : 0;
}

function serve(socket: Socket, next: () => string[]): void {
  socket.unref();
  socket.on('error', () => socket.destroy());
  let pending = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    for (let length = requestLength(pending); length > 0; length = requestLength(pending)) {
      pending = pending.subarray(length);
      socket.write(`${HEAD}\r\n\r\n${next().map(chunk).join('')}0\r\n\r\n`);
    }
  });
}

/** Starts the endpoint; resolves with its URL once it listens. */
export async function startCannedEndpoint(answers: string[][]): Promise<CannedEndpoint> {
  let answered = 0;
  const sockets = new Set<Socket>();
  const next = (): string[] => answers[Math.min(answered++, answers.length - 1)] ?? [];
  const server: Server = createServer((socket) => {
    sockets.add(socket.once('close', () => sockets.delete(socket)));
    serve(socket, next);
  });
  server.unref();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get answered() {
      return answered;
    },
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

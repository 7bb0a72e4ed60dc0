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

/** A request head past this size is no rehearsal's: the connection is dropped (the port is open to every local process). */
export const MAX_HEAD_BYTES = 64 * 1024;

const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

/**
 * Counts whole requests in a byte stream: a head up to its blank line, then
 * `content-length` bytes of body, skipped without being kept (memory stays
 * bounded by the head, however long a body). A head past MAX_HEAD_BYTES is
 * an error.
 */
export class RequestSplitter {
  #head = Buffer.alloc(0);
  #bodyLeft = -1; // -1: reading a head

  /** Feeds bytes; the number of requests they completed, or 'too-big'. */
  feed(data: Buffer): number | 'too-big' {
    let done = 0;
    for (let rest = data; rest.length > 0; ) {
      if (this.#bodyLeft < 0) {
        const head = Buffer.concat([this.#head, rest]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          if (head.length > MAX_HEAD_BYTES) return 'too-big';
          this.#head = head;
          return done;
        }
        if (end > MAX_HEAD_BYTES) return 'too-big';
        this.#bodyLeft = contentLength(head.subarray(0, end));
        this.#head = Buffer.alloc(0);
        rest = head.subarray(end + 4);
      }
      const take = Math.min(this.#bodyLeft, rest.length);
      this.#bodyLeft -= take;
      rest = rest.subarray(take);
      if (this.#bodyLeft === 0) [done, this.#bodyLeft] = [done + 1, -1];
    }
    return done;
  }
}

const contentLength = (head: Buffer): number =>
  Number(/\r\ncontent-length:\s*(\d+)/i.exec(head.toString('latin1'))?.[1] ?? 0);

function serve(socket: Socket, next: () => string[]): void {
  socket.unref();
  socket.on('error', () => socket.destroy());
  const requests = new RequestSplitter();
  socket.on('data', (data: Buffer) => {
    const done = requests.feed(data);
    if (done === 'too-big') return void socket.destroy();
    for (let i = 0; i < done; i++) socket.write(`${HEAD}\r\n\r\n${next().map(chunk).join('')}0\r\n\r\n`);
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

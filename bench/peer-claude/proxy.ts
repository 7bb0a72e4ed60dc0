/**
 * A timing proxy in front of the fake Messages API: it records, for every
 * request, when its last body byte arrived, when the answer's last byte was
 * written, and the body (bytes and its parsed JSON). Both clients go through
 * the same proxy, so its own cost (one local hop) is the same for both.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  path: string;
  /** performance.now() when the request body was complete. */
  receivedAt: number;
  /** performance.now() when the answer was written to the end. */
  doneAt: number;
  bytes: number;
  body: unknown;
}

export class TimingProxy implements AsyncDisposable {
  readonly exchanges: Exchange[] = [];
  url = '';
  private readonly server: Server;

  constructor(private readonly target: string) {
    this.server = createServer((req, res) => void this.forward(req, res));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The exchanges from `from` on, for one run's accounting. */
  since(from: number): Exchange[] {
    return this.exchanges.slice(from);
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const receivedAt = performance.now();
    const raw = Buffer.concat(chunks);
    const exchange: Exchange = { path: req.url ?? '', receivedAt, doneAt: NaN, bytes: raw.length, body: parsed(raw) };
    if (req.url?.startsWith('/v1/messages')) this.exchanges.push(exchange);
    const upstream = request(`${this.target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      res.on('finish', () => (exchange.doneAt = performance.now()));
    });
    upstream.on('error', () => res.destroy());
    upstream.end(raw);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parsed(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

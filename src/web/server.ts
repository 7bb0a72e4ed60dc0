/**
 * `teamd web`'s server: node:http on 127.0.0.1, the state read through
 * `teamd top`'s source (the same files, the same watcher, a short settle so a
 * change reaches the page fast), pushed to every open page as a whole
 * snapshot over SSE. It needs no daemon: with none running the page shows
 * the files as they are, and buttons still write the answers the lead reads
 * when it starts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import { createTeamSource, TRANSCRIPT_SWEEP_MS } from '../dashboard/source.js';
import { TranscriptSpendReader } from '../observe/cost.js';
import { readAgentStatuses } from '../teammate/status-file.js';
import { loadAssets, type PageAssets } from './assets.js';
import { checkRequest, newToken } from './auth.js';
import { CostTimeline } from './cost-series.js';
import { route, send, type RouteContext } from './routes.js';
import { SseHub } from './sse.js';
import { snapshotOf } from './views.js';

export interface WebServerOptions {
  repoRoot: string;
  config: TeamConfig;
  /** 0 (default): any free port. */
  port?: number;
  /** A fixed token (tests); default a random one. */
  token?: string;
  /** Where the bundle is (tests); default dist/web/page of this package. */
  assets?: PageAssets;
  /** The fallback refresh (default 2000 ms) and the watcher's settle (default 10 ms). */
  refreshMs?: number;
  settleMs?: number;
}

export interface WebServer {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  hub: SseHub;
  /** Requests refused by the token, Origin or Host checks (tests, bench). */
  stats: { refused: number };
  /** Resolves after the next snapshot was sent to the pages (tests, bench). */
  nextBroadcast(): Promise<void>;
  close(): Promise<void>;
}

function snapshotReader(options: WebServerOptions) {
  const reader = new TranscriptSpendReader(options.repoRoot, options.config.prices, { sweepMs: TRANSCRIPT_SWEEP_MS, watch: true });
  const source = createTeamSource(options.repoRoot, options.config, {
    reader,
    refreshMs: options.refreshMs ?? 2000,
    settleMs: options.settleMs ?? 10,
  });
  const timeline = new CostTimeline();
  const read = async (): Promise<string> => {
    const state = await source.load();
    const series = timeline.update(await reader.spends(), state.now);
    return JSON.stringify(snapshotOf(state, readAgentStatuses(options.repoRoot), series, options.config));
  };
  return { source, read, close: () => reader.close() };
}

/** Reads run one at a time: a change during a read asks for one more read after it, never a second in parallel. */
function serialRefresh(read: () => Promise<string>, publish: (text: string) => void): () => Promise<void> {
  let running = false;
  let dirty = false;
  return async () => {
    if (running) {
      dirty = true;
      return;
    }
    running = true;
    try {
      do {
        dirty = false;
        publish(await read());
      } while (dirty);
    } finally {
      running = false;
    }
  };
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? newToken();
  const hub = new SseHub();
  const loaded = options.assets ? { ok: true as const, value: options.assets } : loadAssets();
  const snaps = snapshotReader(options);
  let latest: string | null = null;
  let waiters: (() => void)[] = [];
  const ctx: RouteContext = {
    repoRoot: options.repoRoot,
    repoName: basename(options.repoRoot),
    config: options.config,
    token,
    assets: loaded.ok ? loaded.value : null,
    assetsError: loaded.ok ? null : loaded.error,
    hub,
    snapshot: async () => latest ?? (latest = await snaps.read()),
  };
  const refresh = serialRefresh(snaps.read, (text) => {
    if (text !== latest) {
      latest = text;
      hub.broadcast('snapshot', text);
    }
    for (const w of waiters.splice(0)) w();
  });
  const stats = { refused: 0 };
  const server = createServer((req, res) => void handle(ctx, port(), req, res, stats));
  // Listen before watching: a taken port must leave no watcher or timer behind (the CLI then exits with the error).
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => {
      hub.close();
      reject(err);
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const stopWatching = snaps.source.watch(() => void refresh().catch(() => undefined));
  const port = (): number => (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port()}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port: port(),
    token,
    hub,
    stats,
    nextBroadcast: () => new Promise<void>((resolve) => (waiters = [...waiters, resolve])),
    close: async () => {
      stopWatching();
      snaps.close();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(ctx: RouteContext, port: number, req: IncomingMessage, res: ServerResponse, stats: { refused: number }): Promise<void> {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  const verdict = checkRequest(req, url, ctx.token, port);
  if (!verdict.ok) {
    stats.refused += 1;
    return send(res, verdict.status, 'text/plain; charset=utf-8', `${verdict.why}\n`);
  }
  if (verdict.redirect) {
    res.writeHead(303, { location: verdict.redirect, 'set-cookie': verdict.setCookie, 'cache-control': 'no-store' }).end();
    return;
  }
  try {
    await route(ctx, req, url, res);
  } catch (err) {
    if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `teamd web: ${(err as Error).message}\n`);
    else res.end();
  }
}

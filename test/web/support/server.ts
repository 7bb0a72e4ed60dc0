/** A `teamd web` server on a temp repository (real files, real git), and raw HTTP for the checks fetch cannot make. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import type { PageAssets } from '../../../src/web/assets.js';
import { startWebServer, type WebServer } from '../../../src/web/server.js';

export const TOKEN = 'test-token-0123456789';
const STUB_ASSETS = { js: Buffer.from('/* page */'), css: Buffer.from('/* css */') };

export interface WebRepo {
  dir: string;
  web: WebServer;
  writeTask(id: string, task: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** `assets`: the real page bundle for browser tests (test/web/support/browser.ts builds it); a stub otherwise. */
export async function webRepo(
  config: Record<string, unknown> = { teammates: [{ name: 'ann' }] },
  assets: PageAssets = STUB_ASSETS,
): Promise<WebRepo> {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-web-'));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  mkdirSync(join(dir, '.team'), { recursive: true });
  mkdirSync(join(dir, '.tasks'), { recursive: true });
  writeFileSync(join(dir, '.team', 'config.json'), JSON.stringify(config));
  const loaded = await loadConfig(dir);
  if (!loaded.ok) throw new Error(loaded.error);
  const web = await startWebServer({ repoRoot: dir, config: loaded.config, token: TOKEN, assets });
  return {
    dir,
    web,
    writeTask: (id, task) => writeFileSync(join(dir, '.tasks', `${id}.json`), JSON.stringify(task)),
    close: async () => {
      await web.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (Host and Origin included, which fetch would not let a test set). */
export function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers of a POST from the page itself. */
export const pageHeaders = (port: number): Record<string, string> => ({
  cookie: `teamd_web=${TOKEN}`,
  origin: `http://127.0.0.1:${port}`,
  'x-teamd-token': TOKEN,
  'content-type': 'application/json',
});

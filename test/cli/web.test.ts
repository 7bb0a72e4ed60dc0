/** `teamd web` as a person runs it: it prints the URL with its token, serves it, and stops on SIGTERM; a bad --port is an error naming it. */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { spawnCli, waitForOutput } from '../e2e/support/cli.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const repo = (): string => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-web-cli-'));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  return dir;
};

it('prints a token URL on 127.0.0.1 that sets the cookie, and stops on SIGTERM', async () => {
  const run = spawnCli(['web', '--dir', repo(), '--port', '0']);
  await waitForOutput(run, /teamd web: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
  const url = /teamd web: (\S+)/.exec(run.output())![1]!;
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  expect(res.headers.get('set-cookie')).toContain('HttpOnly');
  expect((await fetch(new URL(url).origin + '/api/state')).status).toBe(401);
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
});

it('says so when the port is taken', async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  const port = (taken.address() as AddressInfo).port;
  try {
    const run = spawnCli(['web', '--dir', repo(), '--port', String(port)]);
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toContain(`cannot listen on 127.0.0.1:${port}`);
  } finally {
    taken.close();
  }
});

it('refuses a port that is not one', async () => {
  const run = spawnCli(['web', '--dir', repo(), '--port', 'eighty']);
  expect(await run.exited).not.toBe(0);
  expect(run.output()).toContain('--port: must be a whole number');
});

/**
 * `teamd start`, `teamd run` and `teamd doctor` check before any work: real
 * CLI processes, real git, the real SDK against the fake Messages API on
 * 127.0.0.1. A failure is printed by the command itself with its fix, exit 1,
 * no daemon forked and no task touched.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { spawnCli } from '../e2e/support/cli.js';

let server: FakeAnthropicServer;
let deadUrl: string;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startFakeAnthropicServer({});
  const dead = await startFakeAnthropicServer({});
  deadUrl = dead.url;
  await dead.close();
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function repo(opts: { git?: 'none' | 'empty' | 'commit'; config?: unknown } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-preflight-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  if ((opts.git ?? 'commit') !== 'none') git('init', '-q', '-b', 'main');
  if ((opts.git ?? 'commit') === 'commit') {
    writeFileSync(join(dir, 'README.md'), '# x\n');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'init');
  }
  mkdirSync(join(dir, '.team'), { recursive: true });
  writeFileSync(
    join(dir, '.team', 'config.json'),
    JSON.stringify(opts.config ?? { model: 'claude-sonnet-5' }),
  );
  return dir;
}

async function teamd(dir: string, args: string[], env: Record<string, string | undefined> = {}) {
  const run = spawnCli([...args, '--dir', dir], {
    env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key', ...env },
  });
  const code = await run.exited;
  return { code, out: run.output() };
}

/** Nothing was started: no daemon output, no pid file, no task. */
function untouched(dir: string): void {
  expect(existsSync(join(dir, '.team', 'state', 'daemon.out'))).toBe(false);
  expect(existsSync(join(dir, '.team', 'state', 'lead.pid'))).toBe(false);
  expect(existsSync(join(dir, '.tasks')) ? readdirSync(join(dir, '.tasks')) : []).toEqual([]);
}

it.concurrent('outside a git repository: start refuses, saying how to fix it', async () => {
  const dir = repo({ git: 'none' });
  const r = await teamd(dir, ['start']);
  expect(r.code, r.out).toBe(1);
  expect(r.out).toMatch(/not a git repository\n\s+fix: run `git init`/);
  expect(r.out).not.toMatch(/started/);
  untouched(dir);
});

it.concurrent('a repository with no commits: start refuses', async () => {
  const dir = repo({ git: 'empty' });
  const r = await teamd(dir, ['start']);
  expect(r.code, r.out).toBe(1);
  expect(r.out).toMatch(/no commits yet\n\s+fix: commit something/);
  untouched(dir);
});

it.concurrent('a config typo and a bad --teammates are explained by the command', async () => {
  const typo = repo({ config: { model: 'claude-sonnet-5', teamates: [] } });
  const r = await teamd(typo, ['start']);
  expect(r.code, r.out).toBe(1);
  expect(r.out).toMatch(/config\.json.*teamates/);
  untouched(typo);
  const dir = repo();
  const bad = await teamd(dir, ['start', '--teammates=-3']);
  expect(bad.code, bad.out).toBe(1);
  expect(bad.out).toMatch(/--teammates: must be a whole number from 0 to 64, got "-3"/);
  untouched(dir);
});

it.concurrent('no key, a refused key, a dead endpoint: start and run refuse before any work', async () => {
  const dir = repo();
  const noKey = await teamd(dir, ['start'], { ANTHROPIC_API_KEY: undefined });
  expect(noKey.code, noKey.out).toBe(1);
  expect(noKey.out).toMatch(
    /no API key: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN is not set\n\s+fix: export ANTHROPIC_API_KEY/,
  );
  const refused = await teamd(dir, ['run', 'do something'], { ANTHROPIC_API_KEY: 'wrong-key' });
  expect(refused.code, refused.out).toBe(1);
  expect(refused.out).toMatch(/model authentication failed: .* refused the key/);
  const dead = await teamd(dir, ['start'], { ANTHROPIC_BASE_URL: deadUrl });
  expect(dead.code, dead.out).toBe(1);
  expect(dead.out).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+/);
  untouched(dir);
});

it.concurrent('doctor prints a table; a scripted model needs no key', async () => {
  const dir = repo();
  const r = await teamd(dir, ['doctor']);
  expect(r.code, r.out).toBe(0);
  expect(r.out).toMatch(/^CHECK\s+RESULT\s+DETAIL/m);
  for (const name of [
    'config',
    'git repository',
    'model claude-sonnet-5',
    'node',
    'git',
    'inotify',
    'disk',
    'hooks',
    'tmux',
  ])
    expect(r.out).toMatch(new RegExp(`^${name}\\s+(ok|WARN)`, 'm'));
  expect(
    server.requests.some(
      (q) => q.method === 'GET' && q.path.startsWith('/v1/models') && q.outcome === 'models',
    ),
  ).toBe(true);
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ steps: [] }));
  const offline = await teamd(dir, ['doctor', '--model', 'scripted:script.json'], {
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_BASE_URL: deadUrl,
  });
  expect(offline.code, offline.out).toBe(0);
  expect(offline.out).toMatch(/^model scripted:script\.json\s+ok\s+script loads/m);
  const failing = await teamd(dir, ['doctor'], { ANTHROPIC_API_KEY: undefined });
  expect(failing.code).toBe(1);
  expect(failing.out).toMatch(/^FAIL model claude-sonnet-5: export ANTHROPIC_API_KEY/m);
});

it.concurrent(
  'a teammate on its own endpoint is checked there, with the token its config names',
  async () => {
    const local = await startFakeAnthropicServer({ compatible: true, apiKey: 'local-secret' });
    try {
      const endpoint = { baseURL: local.url, tokenEnv: 'TEAMD_TEST_LOCAL_TOKEN' };
      const config = {
        model: 'claude-sonnet-5',
        teammates: [{ name: 'ann', model: 'qwen3-coder', endpoint }, { name: 'bob' }],
      };
      const dir = repo({ config });
      const good = await teamd(dir, ['doctor'], { TEAMD_TEST_LOCAL_TOKEN: 'local-secret' });
      expect(good.out).toMatch(/^model qwen3-coder\s+ok\s+http:\/\/127\.0\.0\.1:\d+ accepted/m);
      expect(good.out).toMatch(/^model claude-sonnet-5\s+ok/m);
      const unset = await teamd(dir, ['doctor'], { TEAMD_TEST_LOCAL_TOKEN: undefined });
      expect(unset.code).toBe(1);
      expect(unset.out).toMatch(/no API key: TEAMD_TEST_LOCAL_TOKEN \(endpoint\.tokenEnv\) is not set/);
      expect(unset.out).toMatch(/^FAIL model qwen3-coder: export TEAMD_TEST_LOCAL_TOKEN=/m);
      expect(local.requests.every((q) => q.headers.authorization !== 'Bearer test-key')).toBe(true);
    } finally {
      await local.close();
    }
  },
);

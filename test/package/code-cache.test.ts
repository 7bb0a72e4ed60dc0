/**
 * The built CLI runs `agent` and `status` from CommonJS bundles with a V8
 * code cache (src/cli/code-cache.ts): the first run writes the cache, the
 * next ones use it without writing it again (so V8 did not refuse it — a run
 * that changes V8 flags puts them back first), and a torn, damaged or
 * foreign cache file is refused, recompiled and replaced, never an error; a
 * link or FIFO planted at the cache's name is neither followed nor waited
 * on. A stale build is a skip line.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import { MAIN, staleBuild } from './support/built.js';

const API_KEY = 'sk-ant-test-offline';
const dir = mkdtempSync(join(tmpdir(), 'teamd-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv, cwd = dir): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [MAIN, ...args], { cwd, env: { PATH: process.env.PATH, HOME: dir, ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const HELLO = [{ content: [{ type: 'text', text: 'Hello.' }] }];
/** A tool turn first: the model asks for bash, then answers. */
const ECHO_THEN_HELLO = [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo one' } }] }, ...HELLO];

/** One `agent -p` through the SDK (fetch, so the run changes a V8 flag: fetch-parser-tier.ts) against the fake server. */
async function agentRun(cacheDir: string, extra: NodeJS.ProcessEnv = {}, steps: unknown[] = HELLO): Promise<Ran> {
  await using server = await startFakeAnthropicServer({ apiKey: API_KEY, script: { steps } as never });
  const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: API_KEY, TEAMD_CODE_CACHE_DIR: cacheDir, ...extra };
  return await run(['agent', '-p', '--output-format', 'json', '--permission-mode', 'bypassPermissions', 'Say hello.'], env);
}

const files = (d: string): string[] => readdirSync(d).filter((f) => f.endsWith('.bin'));
const stamp = (f: string): string => {
  const s = statSync(f);
  return `${s.ino}:${s.mtimeMs}`;
};

it('agent -p writes its code cache on the first run and uses it, unchanged, on the next', async (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const cache = mkdtempSync(join(dir, 'agent-'));
  const first = await agentRun(cache);
  expect(first.code, first.stderr).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({ result: 'Hello.' });
  expect(files(cache)).toHaveLength(1);
  const file = join(cache, files(cache)[0]!);
  expect(file).toMatch(new RegExp(`-${process.version}-${process.arch}\\.bin$`));
  const written = stamp(file);
  const second = await agentRun(cache);
  expect(second.code, second.stderr).toBe(0);
  expect(JSON.parse(second.stdout)).toMatchObject({ result: 'Hello.' });
  expect(stamp(file)).toBe(written); // accepted by V8: a refused cache is written again
});

it('a cache made by a run without a tool turn is written again by the first run with one, and then left', async (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const cache = mkdtempSync(join(dir, 'depth-'));
  expect((await agentRun(cache)).code).toBe(0);
  const file = join(cache, files(cache)[0]!);
  const textOnly = stamp(file);
  const size = statSync(file).size;
  const withTool = await agentRun(cache, {}, ECHO_THEN_HELLO);
  expect(withTool.code, withTool.stderr).toBe(0);
  expect(JSON.parse(withTool.stdout)).toMatchObject({ result: 'Hello.', num_turns: 2 });
  expect(stamp(file)).not.toBe(textOnly); // written again: it now holds the tool turn's functions too
  expect(statSync(file).size).toBeGreaterThan(size);
  const upgraded = stamp(file);
  expect((await agentRun(cache, {}, ECHO_THEN_HELLO)).code).toBe(0);
  expect((await agentRun(cache)).code).toBe(0);
  expect(stamp(file)).toBe(upgraded); // accepted by V8, and no run got further
});

it('a torn or foreign cache file is refused and replaced; the run is not affected', async (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const cache = mkdtempSync(join(dir, 'bad-'));
  await agentRun(cache);
  const file = join(cache, files(cache)[0]!);
  const good = readFileSync(file);
  const flipped = Buffer.from(good);
  for (let i = 0; i < 64; i++) flipped[(flipped.length >> 1) + i]! ^= 0xff; // crashed V8 (SIGSEGV) in every run before the digest
  for (const bad of [Buffer.alloc(0), Buffer.from('not a code cache'), Buffer.alloc(70_000, 7), good.subarray(0, good.length >> 1), flipped]) {
    writeFileSync(file, bad);
    const ran = await agentRun(cache);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ result: 'Hello.' });
    expect(statSync(file).size).toBeGreaterThan(100_000); // a real cache again
  }
});

it('a link, a FIFO, or a file others may write planted at the cache name is refused, not followed, and replaced', async (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const cache = mkdtempSync(join(dir, 'planted-'));
  await agentRun(cache);
  const name = files(cache)[0]!;
  const file = join(cache, name);
  const outside = join(dir, 'outside.txt');
  writeFileSync(outside, 'not a cache');
  const plants: Record<string, () => void> = {
    link: () => symlinkSync(outside, file),
    fifo: () => execFileSync('mkfifo', [file]),
    'mode 0666': () => {
      copyFileSync(outside, file);
      chmodSync(file, 0o666);
    },
  };
  for (const [what, plant] of Object.entries(plants)) {
    rmSync(file);
    plant();
    const ran = await agentRun(cache);
    expect(ran.code, `${what}: ${ran.stderr}`).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ result: 'Hello.' });
    expect(readFileSync(outside, 'utf8')).toBe('not a cache');
    expect(lstatSync(file).isFile(), what).toBe(true);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(cache)).toEqual([name]);
  }
});

it('TEAMD_NO_CODE_CACHE=1 writes none; an unwritable cache folder is no error', async (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const off = mkdtempSync(join(dir, 'off-'));
  const ran = await agentRun(off, { TEAMD_NO_CODE_CACHE: '1' });
  expect(ran.code, ran.stderr).toBe(0);
  expect(files(off)).toEqual([]);
  const notADir = join(dir, 'a-file');
  writeFileSync(notADir, '');
  const blocked = await agentRun(join(notADir, 'cache'));
  expect(blocked.code, blocked.stderr).toBe(0);
  expect(JSON.parse(blocked.stdout)).toMatchObject({ result: 'Hello.' });
});

it('status, help and a file command run as before (status from its own cached bundle)', async (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const repo = mkdtempSync(join(dir, 'repo-'));
  const cache = mkdtempSync(join(dir, 'status-'));
  await new Promise((r) => execFile('git', ['init', '-q'], { cwd: repo }, r));
  expect((await run(['init'], {}, repo)).code).toBe(0);
  for (let i = 0; i < 2; i++) {
    const status = await run(['status'], { TEAMD_CODE_CACHE_DIR: cache }, repo);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('tasks');
  }
  expect(files(cache)).toHaveLength(1);
  const help = await run(['--help'], { TEAMD_CODE_CACHE_DIR: cache });
  expect(help.stdout).toContain('agent');
  expect(help.stdout).toContain('status');
  const agentHelp = await run(['agent', '--help'], { TEAMD_CODE_CACHE_DIR: cache });
  expect(agentHelp.stdout).toContain('--output-format');
  expect((await run(['nonsense'], {})).stderr).toContain("unknown command 'nonsense'");
});

/**
 * `teamd status` and `teamd logs --events --tail 20` should answer in well
 * under 200 ms, and most of that is the CLI's start: each module loaded is
 * parsed whole. So the built CLI loads what the command runs and nothing
 * more: `--version` no command at all (no zod, no yaml), a daemon command
 * only its own group, and reading logs never pino. A stale build is a skip line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { MAIN, staleBuild } from './support/built.js';

const TRACE = fileURLToPath(new URL('./support/load-trace.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'teamd-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
spawnSync('git', ['init', '-q'], { cwd: dir });
spawnSync(process.execPath, [MAIN, 'init'], { cwd: dir });

interface Loads {
  stdout: string;
  status: number | null;
  esmBytes: number;
  cjs: string[];
}

function loadsOf(...args: string[]): Loads {
  const r = spawnSync(process.execPath, ['--import', TRACE, MAIN, ...args], { cwd: dir, encoding: 'utf8' });
  const lines = r.stderr.split('\n');
  const esm = lines.filter((l) => l.startsWith('ESM ')).map((l) => Number(l.split(' ')[1]));
  const cjs = lines.filter((l) => l.startsWith('CJS ')).map((l) => l.slice(4));
  if (r.status !== 0) throw new Error(`teamd ${args.join(' ')} failed: ${r.stderr.split('\n').filter((l) => !/^(ESM|CJS) /.test(l)).join('\n')}`);
  return { stdout: r.stdout, status: r.status, esmBytes: esm.reduce((a, b) => a + b, 0), cjs };
}

const pinoIn = (cjs: string[]): string[] => cjs.filter((p) => /node_modules[\\/]pino[\\/]/.test(p));

it('teamd --version loads no command: a few hundred kB of code, not the MB of zod and yaml', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const r = loadsOf('--version');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  expect(r.esmBytes).toBeGreaterThan(0);
  expect(r.esmBytes).toBeLessThan(400_000);
});

it("teamd --version loads neither node:crypto nor node:worker_threads (the launcher's code cache loads them only when used)", (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const probe = join(dir, 'builtins.cjs');
  writeFileSync(probe, "process.on('exit', () => process._rawDebug(JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')))));");
  const r = spawnSync(process.execPath, ['--require', probe, MAIN, '--version'], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const builtins = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as string[];
  expect(builtins).toContain('NativeModule fs'); // the probe saw the load list
  expect(builtins.filter((m) => /^NativeModule (crypto|worker_threads)$/.test(m))).toEqual([]);
});

it('teamd logs --events and teamd status read the logs without loading pino', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  mkdirSync(join(dir, '.team', 'state'), { recursive: true });
  const event = { type: 'task_claimed', task: 't1', agent: 'ann', attempt: 1, ts: '2026-01-01T00:00:00.000Z' };
  writeFileSync(join(dir, '.team', 'state', 'events.jsonl'), `${JSON.stringify(event)}\n`);
  const logs = loadsOf('logs', '--events', '--tail', '20');
  expect(logs.stdout).toContain('ann claimed t1');
  expect(pinoIn(logs.cjs)).toEqual([]);
  const status = loadsOf('status');
  expect(status.cjs.length).toBeGreaterThan(0);
  expect(pinoIn(status.cjs)).toEqual([]);
});

it('the bundle holds zod with its English messages only, not its ~50 locales', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const cli = join(MAIN, '..');
  const chunks = readdirSync(cli).filter((f) => (f.startsWith('bundle-') && f.endsWith('.js')) || (f.startsWith('cached-') && f.endsWith('.cjs')));
  const text = chunks.map((f) => readFileSync(join(cli, f), 'utf8')).join('\n');
  expect(text).toContain('node_modules/zod/v4/locales/en.js');
  expect(text).not.toContain('node_modules/zod/v4/locales/de.js');
});

it('a zod error from the built CLI is still in English', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const bad = mkdtempSync(join(tmpdir(), 'teamd-start-bad-'));
  try {
    spawnSync('git', ['init', '-q'], { cwd: bad });
    spawnSync(process.execPath, [MAIN, 'init'], { cwd: bad });
    writeFileSync(join(bad, '.team', 'config.json'), '{"teammates":"x"}');
    const r = spawnSync(process.execPath, [MAIN, 'validate'], { cwd: bad, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toContain('teammates: Invalid input: expected array, received string');
  } finally {
    rmSync(bad, { recursive: true, force: true });
  }
});

it('teamd top loads React only for the terminal dashboard (its production build: see top.ts), not for its plain output', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  const r = loadsOf('top'); // not a terminal: the status text
  expect(r.stdout).toContain('tasks:');
  expect(r.cjs.filter((p) => /node_modules[\\/](react|react-reconciler)[\\/]/.test(p))).toEqual([]);
});

it('teamd status and teamd agent run from their code-cached CommonJS bundle: no ES module chunk of the CLI, no pino, no ink', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  for (const args of [['status'], ['agent', '--help']]) {
    const r = spawnSync(process.execPath, ['--import', TRACE, MAIN, ...args], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const esm = r.stderr.split('\n').filter((l) => l.startsWith('ESM ')).map((l) => l.split(' ')[2]!);
    const cjs = r.stderr.split('\n').filter((l) => l.startsWith('CJS ')).map((l) => l.slice(4));
    expect(esm.filter((u) => /dist\/cli\/(main-esm|bundle-)/.test(u)), args.join(' ')).toEqual([]);
    expect(esm.filter((u) => u.endsWith('/dist/cli/main.js'))).toHaveLength(1); // the launcher is the only ES module of the CLI
    expect(cjs.filter((p) => /node_modules[\\/](pino|ink)[\\/]/.test(p))).toEqual([]);
  }
});

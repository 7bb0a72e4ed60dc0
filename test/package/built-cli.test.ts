/**
 * What a user runs is the built CLI (dist/cli/main.js, bundled by
 * scripts/bundle-cli.mjs), not src/ under tsx: a teammate out of the lead's
 * process must start from it too. `npm ci` builds dist/ (the `prepare`
 * script), so CI always has it fresh; a stale local build is a skip line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, expect, it, type TestContext } from 'vitest';
import { pollUntil } from '../e2e/support/cli.js';
import { genericTaskScript, makeTeamRepo, type TeamRepo } from '../e2e/support/harness.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { MAIN, staleBuild } from './support/built.js';

const noBwrap = (): string | null => (spawnSync('bwrap', ['--version']).status === 0 ? null : 'bubblewrap is not installed');

let repo: TeamRepo | undefined;
afterEach(() => repo?.cleanup());

async function runTeam(host: 'process' | 'sandbox', missing: string | null, ctx: TestContext): Promise<void> {
  const skip = staleBuild() ?? missing;
  if (skip) return ctx.skip(skip);
  const r = (repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' } } }));
  r.writeTask('t1', { subject: 'make t1' });
  const child = spawn(process.execPath, [MAIN, 'start', '--foreground', '--host', host, '--dir', r.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`${code}/${signal}`)));
  try {
    await pollUntil(() => tasksOnDisk(r.dir).get('t1')?.status === 'completed' || child.exitCode !== null, 60_000, `t1 completed by a ${host} teammate`);
    expect(tasksOnDisk(r.dir).get('t1')?.status, out).toBe('completed');
    expect(r.git('show', 'teamd/integration:out/t1.txt')).toBe('done t1\n');
    expect(out).not.toMatch(/crashed|Cannot find module/);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited, out).toBe('0/null');
}

it('the built CLI runs a team of process teammates that completes its task', (ctx) => runTeam('process', null, ctx), 90_000);
it('the built CLI runs a team of sandbox teammates that completes its task', (ctx) => runTeam('sandbox', noBwrap(), ctx), 90_000);

/**
 * A sandboxed team (`host: sandbox`, real bubblewrap): a teammate's bash
 * tries to get out — write outside its worktree, read ~/.ssh and the lead's
 * .team/state, change the main repository's .git/config, open a socket, find
 * an API key — and each fails, while the task itself completes and merges.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { findBwrap } from '../../../src/teammate/hosts/sandbox.js';
import { makeTeamRepo, startLead, teamPerTest, until } from '../../e2e/support/harness.js';
import { slowTaskScript } from './support/slow-task.js';

const bwrap = findBwrap();
const team = teamPerTest();
const saved = { home: process.env.HOME, key: process.env.ANTHROPIC_API_KEY };
let home = '';

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'teamd-home-'));
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-MATERIAL\n');
  process.env.HOME = home;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-secret-123';
});
afterEach(() => {
  process.env.HOME = saved.home;
  if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = saved.key;
  rmSync(home, { recursive: true, force: true });
});

/** Each probe prints `<name>: blocked` or `<name>: LEAKED`; it runs in the task's worktree. */
const probe = (repo: string, port: number) => `#!/bin/bash
r() { if ( eval "$2" ) >/dev/null 2>&1; then echo "$1: LEAKED"; else echo "$1: blocked"; fi; }
r write-outside "echo x > '${repo}/outside.txt'"
r write-main-git "echo x > '${repo}/.git/evil'"
r read-ssh "grep -q PRIVATE '${home}/.ssh/id_ed25519'"
r read-lead-state "ls '${repo}/.team/state/agents' | grep -q json"
r git-config "git -C '${repo}' config user.name evil"
r socket "exec 3<>/dev/tcp/127.0.0.1/${port}"
r api-key "env | grep -q sk-ant-test-secret"
echo worktree-write: $(echo ok > in-worktree.txt && cat in-worktree.txt)
`;

const PROBES = ['write-outside', 'write-main-git', 'read-ssh', 'read-lead-state', 'git-config', 'socket', 'api-key'];

/** The bwrap processes whose command line names `dir` (the sandboxes of that repository). */
const processesNaming = (dir: string): number[] =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        return argv[0]!.endsWith('bwrap') && argv.includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);

it.skipIf(!bwrap)('each way out fails inside the sandbox, and the task still completes and merges', async () => {
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  try {
    const repo = team.repo(
      makeTeamRepo({
        script: {
          rules: [
            { conversation: 'Task box:', turn: 0, content: [{ type: 'tool_use', name: 'bash', input: { command: 'mkdir -p out && bash probe.sh > out/report.txt; cat out/report.txt' } }] },
            { conversation: 'Task box:', turn: 1, content: [{ type: 'text', text: 'probed' }] },
          ],
        },
        config: { host: { kind: 'sandbox' }, teammates: [{ name: 'ann' }], permissions: { defaultMode: 'bypassPermissions' } },
      }),
    );
    writeFileSync(join(repo.dir, 'probe.sh'), probe(repo.dir, port));
    repo.git('add', 'probe.sh');
    repo.git('commit', '-q', '-m', 'probe');
    const gitConfig = readFileSync(join(repo.dir, '.git', 'config'), 'utf8');
    repo.writeTask('box', { subject: 'probe the sandbox' });
    const { lead } = await startLead(repo);
    team.lead(lead);
    await until(lead, () => lead.tasks.get('box')?.status === 'completed', 60_000, 'the task to complete');
    const report = repo.git('show', 'teamd/integration:out/report.txt');
    for (const name of PROBES) expect(report, report).toContain(`${name}: blocked`);
    expect(report).not.toContain('LEAKED');
    expect(report).toContain('worktree-write: ok');
    expect(existsSync(join(repo.dir, 'outside.txt'))).toBe(false);
    expect(existsSync(join(repo.dir, '.git', 'evil'))).toBe(false);
    expect(readFileSync(join(repo.dir, '.git', 'config'), 'utf8')).toBe(gitConfig);
    expect(connections).toBe(0);
    expect(processesNaming(repo.dir).length).toBeGreaterThan(0);
    await lead.stop('test over');
    expect(processesNaming(repo.dir)).toEqual([]);
  } finally {
    server.close();
  }
}, 90_000);

/** Processes whose working folder is under `dir` (a sandbox's commands, seen from outside). */
const processesIn = (dir: string): number[] =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/cwd`).startsWith(dir);
      } catch {
        return false;
      }
    })
    .map(Number);

it.skipIf(!bwrap)('a sandbox killed mid-task is a crash: its commands die with it, the task is reclaimed and completed once', async () => {
  const repo = team.repo(
    makeTeamRepo({
      script: slowTaskScript('../../marks/attempted'),
      config: { host: { kind: 'sandbox', writable: ['marks'] }, teammates: [{ name: 'ann' }], permissions: { defaultMode: 'bypassPermissions' } },
    }),
  );
  mkdirSync(join(repo.dir, 'marks'));
  repo.writeTask('slow', { subject: 'a slow task' });
  const started = await startLead(repo, { idleRecheckMs: 300 });
  const lead = team.lead(started.lead);
  await until(lead, () => existsSync(join(repo.dir, 'marks', 'attempted')), 30_000, 'the first attempt to start');
  const worktrees = join(repo.dir, '.worktrees');
  await until(lead, () => processesIn(worktrees).length > 0, 10_000, 'its command to be seen');
  for (const pid of processesNaming(repo.dir)) process.kill(pid, 'SIGKILL'); // the sandbox (bwrap), from outside
  await until(lead, () => processesIn(worktrees).length === 0, 10_000, "the sandbox's commands to end with it");
  await until(lead, () => lead.tasks.get('slow')?.status === 'completed', 60_000, 'the task to complete');
  expect(lead.tasks.get('slow')!.result?.summary).toContain('second attempt');
  expect(started.events.some((e) => e.type === 'teammate_crashed' && e.agent === 'ann')).toBe(true);
  expect(started.events.filter((e) => e.type === 'task_completed')).toHaveLength(1);
}, 90_000);

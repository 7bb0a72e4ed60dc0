/**
 * A sandboxed teammate writes only the worktree the lead granted it (real
 * bubblewrap): two sandboxed teammates work at once; the one on `box` tries to
 * write into the other task's worktree (by its path, through `..`, through a
 * symlink it makes in its own worktree, by renaming it away), into the merge
 * queue's `.worktrees/.merge`, and to make a new folder under `.worktrees/`.
 * Each fails, and both tasks complete and merge.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ScriptInput } from '../../../src/model/scripted/schema.js';
import { findBwrap } from '../../../src/teammate/hosts/sandbox.js';
import { makeTeamRepo, startLead, teamPerTest, until } from '../../e2e/support/harness.js';

const bwrap = findBwrap();
const team = teamPerTest();

/** Waits (bounded) inside the sandbox for a file to appear: the two tasks meet without a test sleep. */
const waitFor = (path: string) => `for i in $(seq 600); do [ -e '${path}' ] && break; sleep 0.1; done`;

/** Each probe prints `<name>: blocked` or `<name>: LEAKED`; every one would succeed with `.worktrees/` writable. */
const probe = (repo: string) => {
  const wt = join(repo, '.worktrees');
  return `#!/bin/bash
${waitFor(`${wt}/hold/hold.txt`)}
r() { if ( eval "$2" ) >/dev/null 2>&1; then echo "$1: LEAKED"; else echo "$1: blocked"; fi; }
r other-worktree "echo x > '${wt}/hold/evil.txt'"
r other-worktree-relative "echo x > ../hold/evil.txt"
r other-worktree-overwrite "echo x > ../hold/hold.txt"
r other-worktree-delete "rm '${wt}/hold/hold.txt'"
r other-worktree-symlink "ln -s '${wt}/hold' via && echo x > via/evil.txt"
r other-worktree-rename "mv '${wt}/hold' '${wt}/stolen'"
r merge-worktree "mkdir -p '${wt}/.merge' && echo x > '${wt}/.merge/evil.txt'"
r new-folder "mkdir '${wt}/newdir'"
r new-file "echo x > '${wt}/evil.txt'"
rm -f via
echo own-worktree: $(echo ok > own.txt && cat own.txt)
# The teammate's stdout is its channel to the lead (a socket): a command that takes it (pidfd_getfd) forges a
# request for the other task's worktree (a sandbox with that worktree writable, were it granted).
for p in /proc/[0-9]*; do grep -qa 'stdio-main[.][jt]s' $p/cmdline 2>/dev/null && tm=\${p#/proc/}; done
/usr/bin/python3 ../../forge.py "$tm" 2>&1 && echo forged: sent
touch '${repo}/marks/probed'
`;
};

/** Takes fd 1 of the teammate's process (pidfd_open, pidfd_getfd) and writes a request of its own on it. */
const FORGE = `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pidfd = libc.syscall(434, int(sys.argv[1]), 0)
fd = libc.syscall(438, pidfd, 1, 0)
if fd < 0: sys.exit('pidfd_getfd: errno %d' % ctypes.get_errno())
os.write(fd, b'{"type":"worktree_request","requestId":"forged-1","taskId":"hold"}\\n')
`;

const statusOf = (repo: string, name: string): { turns: number } => {
  try {
    return JSON.parse(readFileSync(join(repo, '.team', 'state', 'agents', `${name}.json`), 'utf8')) as { turns: number };
  } catch {
    return { turns: -1 };
  }
};

const PROBES = ['other-worktree', 'other-worktree-relative', 'other-worktree-overwrite', 'other-worktree-delete', 'other-worktree-symlink', 'other-worktree-rename', 'merge-worktree', 'new-folder', 'new-file'];

it.skipIf(!bwrap)("a sandboxed teammate cannot write another task's worktree, .worktrees/.merge or a new folder there; both tasks merge", async () => {
  const repo = team.repo(
    makeTeamRepo({
      script: {
        rules: [
          { conversation: 'Task box:', turn: 0, content: [{ type: 'tool_use', name: 'bash', input: { command: 'mkdir -p out && bash ../../probe.sh > out/report.txt; cp out/report.txt ../../marks/report.txt; cat out/report.txt' } }] },
          { conversation: 'Task box:', turn: 1, content: [{ type: 'text', text: 'probed' }] },
          { conversation: 'Task hold:', turn: 0, content: [{ type: 'tool_use', name: 'bash', input: { command: `echo mine > hold.txt && ${waitFor('../../marks/probed')} && cat hold.txt` } }] },
          { conversation: 'Task hold:', turn: 1, content: [{ type: 'text', text: 'held' }] },
        ],
      },
      config: { host: { kind: 'sandbox', writable: ['marks'] }, teammates: [{ name: 'ann' }, { name: 'bob' }], permissions: { defaultMode: 'bypassPermissions' } },
    }),
  );
  mkdirSync(join(repo.dir, 'marks'));
  writeFileSync(join(repo.dir, 'probe.sh'), probe(repo.dir));
  writeFileSync(join(repo.dir, 'forge.py'), FORGE);
  repo.git('add', 'probe.sh', 'forge.py');
  repo.git('commit', '-q', '-m', 'probe');
  repo.writeTask('hold', { subject: 'hold a worktree' });
  repo.writeTask('box', { subject: 'probe the other worktrees' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  const settled = (id: string) => ['completed', 'failed'].includes(lead.tasks.get(id)?.status ?? '');
  await until(lead, () => settled('box') && settled('hold'), 60_000, 'both tasks to finish');
  const seen = readFileSync(join(repo.dir, 'marks', 'report.txt'), 'utf8');
  for (const name of PROBES) expect(seen, seen).toContain(`${name}: blocked`);
  expect(seen).not.toContain('LEAKED');
  expect(seen).toContain('forged: sent');
  await until(lead, () => events.some((e) => e.type === 'notice' && /worktree of task hold: not claimed by/.test(e.message)), 10_000, 'the forged request refused');
  expect(events.filter((e) => e.type === 'worktree_created' && e.task === 'hold')).toHaveLength(1);
  expect([lead.tasks.get('box')?.status, lead.tasks.get('hold')?.status]).toEqual(['completed', 'completed']);
  const report = repo.git('show', 'teamd/integration:out/report.txt');
  expect(report).toBe(seen);
  expect(report).toContain('own-worktree: ok');
  expect(repo.git('show', 'teamd/integration:hold.txt').trim()).toBe('mine');
  const worktrees = join(repo.dir, '.worktrees');
  expect(existsSync(join(worktrees, 'newdir'))).toBe(false);
  expect(existsSync(join(worktrees, 'stolen'))).toBe(false);
  expect(existsSync(join(worktrees, 'evil.txt'))).toBe(false);
  expect(existsSync(join(worktrees, '.merge', 'evil.txt'))).toBe(false);
  expect(readdirSync(worktrees).filter((f) => !['.merge', 'box', 'hold'].includes(f))).toEqual([]);
}, 90_000);

it.skipIf(!bwrap)('one sandboxed teammate does two tasks in turn, per-teammate worktree: a fresh sandbox for each grant, both merge', async () => {
  const write = (id: string): NonNullable<ScriptInput['rules']> => [
    { conversation: `Task ${id}:`, turn: 0, content: [{ type: 'tool_use', name: 'bash', input: { command: `echo ${id} > ${id}.txt && touch ../x-${id} 2>/dev/null || echo ${id}: parent blocked` } }] },
    { conversation: `Task ${id}:`, turn: 1, content: [{ type: 'text', text: `wrote ${id}` }] },
  ];
  const repo = team.repo(
    makeTeamRepo({
      script: { rules: [...write('one'), ...write('two')] },
      config: { host: { kind: 'sandbox' }, worktrees: { mode: 'per-teammate' }, teammates: [{ name: 'ann' }], permissions: { defaultMode: 'bypassPermissions' } },
    }),
  );
  repo.writeTask('one', { subject: 'write one' });
  repo.writeTask('two', { subject: 'write two' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  const done = (id: string) => lead.tasks.get(id)?.status === 'completed';
  await until(lead, () => done('one') && done('two'), 60_000, 'both tasks to complete');
  await until(lead, () => events.filter((e) => e.type === 'merge_merged').length === 2, 30_000, 'both merged');
  const tree = repo.git('ls-tree', '--name-only', 'teamd/integration');
  expect(tree).toContain('one.txt');
  expect(tree).toContain('two.txt');
  expect(readdirSync(join(repo.dir, '.worktrees')).filter((f) => f.startsWith('x-'))).toEqual([]);
  expect(events.filter((e) => e.type === 'teammate_crashed')).toEqual([]);
  expect(events.filter((e) => e.type === 'task_claimed')).toHaveLength(2);
  // One teammate's status across its sandboxes: the turns of both tasks (two each), counted on.
  await until(lead, () => statusOf(repo.dir, 'ann').turns === 4, 10_000, "ann's status to count both tasks' turns");
}, 90_000);

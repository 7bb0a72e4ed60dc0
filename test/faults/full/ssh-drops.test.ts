/**
 * Fault: the connections to remote teammates drop at random moments (every open ssh session of a real
 * sshd on 127.0.0.1 killed, as a crashed server or a cut cable would), while two teammates work on a
 * DAG in per-task worktrees over ssh, code carried by git both ways. Each drop is a crash: the task
 * is reclaimed and tried again from the lead's branch; every task completes exactly once and its
 * file is merged; after stop nothing of the team runs on the remote and no remote worktree is left.
 * Only in `npm run test:faults` (test/hosts/ssh-team.test.ts has the one-drop version for `npm test`).
 * Reduced (run directly with vitest): 4 tasks, 2 drops. Full: 16 tasks, 8 drops.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { makeTeamRepo, startLead, teamPerTest, until } from '../../e2e/support/harness.js';
import { sshServerPerFile } from '../../hosts/support/ssh-team.js';
import { waitFor } from '../../store/temp-repo.js';
import { processesUnder } from '../../support/remote-user.js';
import { tasksOnDisk } from '../support/files.js';
import { budget, SEED, seededRandom, sized } from '../support/scale.js';

const TASKS = sized(16, 4);
const DROPS = sized(8, 2);
const team = teamPerTest();
const server = sshServerPerFile('drops');

/** Each task: a short command (a window to drop the connection in), a file written, a summary. */
const script = {
  rules: [
    { conversation: 'Task (\\S+):', turn: 0, times: 'always' as const, content: [{ type: 'tool_use' as const, name: 'bash', input: { command: 'sleep 0.5; echo working on $1' } }] },
    { conversation: 'Task (\\S+):', turn: 1, times: 'always' as const, content: [{ type: 'tool_use' as const, name: 'write', input: { file_path: 'out/$1.txt', content: 'done $1\n' } }] },
    { conversation: 'Task (\\S+):', turn: 2, times: 'always' as const, content: [{ type: 'text' as const, text: 'wrote out/$1.txt' }] },
    { conversation: 'You have new messages', times: 'always' as const, content: [{ type: 'text' as const, text: 'Noted.' }] },
  ],
};

it(
  `ssh connections dropped ${DROPS} times mid-work: every task completed once and merged, nothing left on the remote (seed ${SEED})`,
  async (ctx) => {
    const { sshd, remote } = server;
    if (!sshd.ok) return ctx.skip(sshd.reason);
    const random = seededRandom();
    const repo = team.repo(
      makeTeamRepo({
        script,
        config: { host: remote.host, teammates: [{ name: 'ann' }, { name: 'bob' }], permissions: { defaultMode: 'bypassPermissions' }, maxAttempts: 1_000 },
      }),
    );
    const ids = Array.from({ length: TASKS }, (_, i) => `t${i + 1}`);
    ids.forEach((id, i) => repo.writeTask(id, { subject: `make ${id}`, blockedBy: i > 1 && random() < 0.3 ? [ids[Math.floor(random() * i)]!] : [] }));
    const { lead, events } = await startLead(repo, { idleRecheckMs: 300 });
    team.lead(lead);
    const allDone = () => ids.every((id) => tasksOnDisk(repo.dir).get(id)?.status === 'completed');
    let drops = 0;
    while (drops < DROPS && !allDone()) {
      await until(lead, () => allDone() || lead.pool.names().some((n) => lead.pool.stateOf(n)?.state === 'working'), 60_000, 'a working teammate');
      if (allDone()) break;
      await new Promise((resolve) => setTimeout(resolve, random() * 1_000)); // the random moment
      if (sshd.dropConnections() > 0) drops++;
    }
    await until(lead, allDone, budget(600_000, 120_000), `all ${TASKS} tasks completed`);
    const completions = events.filter((e) => e.type === 'task_completed').map((e) => (e as { task: string }).task);
    expect(completions.sort()).toEqual([...ids].sort());
    await until(lead, () => repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim().split('\n').length === TASKS, 60_000, 'all merged');
    expect(drops).toBeGreaterThan(0);
    await lead.stop('test over');
    const user = sshd.user.name;
    await waitFor(() => processesUnder(user, remote.remoteDir).length === 0, 'no remote process left', 30_000);
    const teams = readdirSync(remote.remoteDir).filter((d) => d.startsWith('team-'));
    for (const t of teams) expect(readdirSync(join(remote.remoteDir, t, 'worktrees'))).toEqual([]);
  },
  budget(900_000, 180_000),
);

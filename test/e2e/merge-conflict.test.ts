import { afterEach, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import { makeTeamRepo, startLead, until, type TeamRepo } from './support/harness.js';

let repo: TeamRepo;
let lead: Lead | undefined;
afterEach(async () => {
  await lead?.stop('test over');
  repo.cleanup();
});

const BARRIER = 'touch ../../.team/state/ready-$1; while [ ! -f ../../.team/state/ready-a ] || [ ! -f ../../.team/state/ready-b ]; do sleep 0.05; done';

it('two teammates edit the same file: one merges, the other is sent back with the conflict, resolves it in its worktree, and merges', async () => {
  repo = makeTeamRepo({
    script: {
      rules: [
        // The second attempt sees the refusal in its task notes and the conflict markers in its worktree.
        { name: 'read the conflict', conversation: 'Task (\\S+):[\\s\\S]*Merge refused', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'read', input: { file_path: 'shared.txt' } }] },
        { name: 'resolve', conversation: 'Task (\\S+):[\\s\\S]*Merge refused', turn: 1, match: '<<<<<<<', times: 'always', content: [{ type: 'tool_use', name: 'write', input: { file_path: 'shared.txt', content: 'from a\nfrom b\n' } }] },
        { name: 'report fix', conversation: 'Task (\\S+):[\\s\\S]*Merge refused', turn: 2, times: 'always', content: [{ type: 'text', text: 'resolved the conflict in shared.txt' }] },
        // Both first attempts start from the same base: each waits until both worktrees exist.
        { name: 'barrier', conversation: 'Task (\\S+):', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'bash', input: { command: BARRIER } }] },
        { name: 'first write', conversation: 'Task (\\S+):', turn: 1, times: 'always', content: [{ type: 'tool_use', name: 'write', input: { file_path: 'shared.txt', content: 'from $1\n' } }] },
        { name: 'first report', conversation: 'Task (\\S+):', turn: 2, times: 'always', content: [{ type: 'text', text: 'wrote shared.txt for $1' }] },
      ],
    },
    config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'per-task' }, permissions: { defaultMode: 'bypassPermissions' } },
  });
  repo.writeTask('a', { subject: 'write shared.txt for a' });
  repo.writeTask('b', { subject: 'write shared.txt for b' });
  const started = await startLead(repo);
  lead = started.lead;
  const l = lead;
  await until(l, () => ['a', 'b'].every((id) => l.tasks.get(id)?.status === 'completed'), 150_000, 'both tasks merged');
  const refused = started.events.filter((e) => e.type === 'merge_refused');
  expect(refused.length).toBe(1);
  const loser = (refused[0] as { task: string }).task;
  expect((refused[0] as { reason: string }).reason).toBe('conflict');
  expect(l.tasks.get(loser)!.notes.some((n) => n.text.includes('shared.txt'))).toBe(true);
  expect(repo.git('show', 'teamd/integration:shared.txt')).toBe('from a\nfrom b\n');
  expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
}, 180_000);

/**
 * A lead killed outright (SIGKILL) cannot end its teammates' commands, which
 * run detached in their own process groups. The groups are recorded in
 * `.team/state/process-groups.json`; the next lead ends the ones whose leader
 * is still the same process, before any teammate starts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { processAlive } from '../../src/tools/process-group.js';
import { pollUntil, spawnCli, type CliRun } from './support/cli.js';
import { makeTeamRepo, type TeamRepo } from './support/harness.js';

let repo: TeamRepo | undefined;
const runs: CliRun[] = [];
let leader = 0;
afterEach(async () => {
  if (leader) {
    try {
      process.kill(-leader, 'SIGKILL'); // first: whatever else fails, no process outlives the test
    } catch {
      // already gone, as it should be
    }
    leader = 0;
  }
  for (const r of runs.splice(0)) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  repo?.cleanup();
});

it("after a SIGKILL of the daemon, the next start ends the teammates' commands it left running", async () => {
  repo = makeTeamRepo({
    script: {
      rules: [
        // `$$$$`: the script's substitution turns `$$` into `$`, so the shell sees `$$` (its pid, the group leader).
        { conversation: 'Task hold:', turn: 0, content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo $$$$ > leader.pid; while true; do sleep 0.1; done' } }] },
      ],
    },
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'bypassPermissions' } },
  });
  const dir = repo.dir;
  repo.writeTask('hold', { subject: 'runs until stopped' });
  const first = spawnCli(['start', '--foreground', '--dir', dir]);
  runs.push(first);
  const pidFile = join(dir, 'leader.pid');
  await pollUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 60_000, 'the command to start');
  leader = Number(readFileSync(pidFile, 'utf8').trim());
  await pollUntil(() => existsSync(join(dir, '.team', 'state', 'process-groups.json')) && readFileSync(join(dir, '.team', 'state', 'process-groups.json'), 'utf8').includes(String(leader)), 10_000, 'the group to be recorded');

  first.child.kill('SIGKILL');
  await first.exited;
  expect(processAlive(leader)).toBe(true); // orphaned: nothing of the lead is left to end it

  const second = spawnCli(['start', '--foreground', '--dir', dir]);
  runs.push(second);
  await pollUntil(() => !processAlive(leader), 60_000, 'the leftover command to be ended by the next start');
  second.child.kill('SIGTERM');
  await second.exited;
}, 180_000);

/**
 * A lead killed outright (SIGKILL) says goodbye to no one: its process
 * teammates see their stdin end and stop by themselves, and a sandbox dies
 * with its parent. No teammate process outlives the lead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { processAlive } from '../../../src/tools/process-group.js';
import { pollUntil, spawnCli, type CliRun } from '../../e2e/support/cli.js';
import { makeTeamRepo, type TeamRepo } from '../../e2e/support/harness.js';

let repo: TeamRepo | undefined;
const runs: CliRun[] = [];
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const r of runs.splice(0)) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  repo?.cleanup();
});

it('teamd start --host process, then a SIGKILL of the lead: the teammate processes end by themselves', async () => {
  repo = makeTeamRepo({ script: { rules: [] }, config: { teammates: [{ name: 'ann' }, { name: 'bob' }] } });
  const dir = repo.dir;
  const status = (name: string) => join(dir, '.team', 'state', 'agents', `${name}.json`);
  const lead = spawnCli(['start', '--foreground', '--host', 'process', '--dir', dir]);
  runs.push(lead);
  await pollUntil(() => existsSync(status('ann')) && existsSync(status('bob')), 30_000, 'both teammates to report');
  for (const name of ['ann', 'bob']) pids.push(JSON.parse(readFileSync(status(name), 'utf8')).pid as number);
  expect(pids.every((p) => p !== lead.child.pid && processAlive(p))).toBe(true);
  lead.child.kill('SIGKILL');
  await lead.exited;
  await pollUntil(() => pids.every((p) => !processAlive(p)), 15_000, 'the teammates to end');
}, 60_000);

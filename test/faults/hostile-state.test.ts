/**
 * Hostile `.team/state/` files with a real lead (issue 16): anyone who can
 * write to the repository (a teammate's bash) can replace a request file, a
 * teammate status, the merge queue, process-groups.json, paused.json,
 * lead.pid, stalls.json or the event log with a FIFO, a link to /dev/zero or to a secret, a
 * file over the cap or JSON nested past the bound (generated, seeded). With
 * such files at boot and swapped in while it runs, the daemon starts, claims
 * and completes the valid tasks, stops on SIGTERM with 0, and the secret
 * appears in none of its output or files. `npm test` runs one lead; the full
 * run (`npm run test:faults`) several, each with other entries.
 */
import fc from 'fast-check';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { mergeQueuePath } from '../../src/git/merge-queue-file.js';
import { pausePath } from '../../src/lead/pause-file.js';
import { pidFilePath } from '../../src/lead/pid-lock.js';
import { processGroupsFile } from '../../src/lead/process-groups.js';
import { stallsPath } from '../../src/notify/stall.js';
import { eventLogPath } from '../../src/observe/event-log.js';
import { STATE_LIMITS } from '../../src/store/state-file.js';
import { requestsDir } from '../../src/teammate/requests.js';
import { agentsStateDir } from '../../src/teammate/status-file.js';
import { spawnCli, waitForOutput, type CliRun } from '../e2e/support/cli.js';
import { genericTaskScript } from '../e2e/support/harness.js';
import { hostileEntry, placeEntry, SECRET, type HostileEntry } from '../store/hostile-entries.js';
import { WORST } from '../store/hostile-state.js';
import { tasksOnDisk, untilFiles, walk } from './support/files.js';
import { processesInside, teammatesIdle } from './support/processes.js';
import { makeSandboxRepo, type Sandbox } from './support/sandbox.js';
import { SEED, sized } from './support/scale.js';

/** The state files a lead reads, by path (a status of a teammate that does not run: ann rewrites her own). */
const STATE_PATHS = (repo: string): string[] => [
  join(requestsDir(repo), 'perm-1.json'),
  join(requestsDir(repo), 'plan-2.json'),
  join(agentsStateDir(repo), 'bob.json'),
  mergeQueuePath(repo),
  processGroupsFile(repo),
  pausePath(repo),
  stallsPath(repo),
  eventLogPath(repo),
];

let box: Sandbox | undefined;
let daemon: CliRun | undefined;
afterEach(() => {
  if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null)
    daemon.child.kill('SIGKILL');
  daemon = undefined;
  box?.cleanup();
  box = undefined;
});

/** Puts `entry` at `file` (replacing whatever is there). */
function swapIn(b: Sandbox, file: string, entry: HostileEntry): void {
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { recursive: true, force: true });
  placeEntry(entry, file, b.outside, join(b.dir, 'README.md'));
}

const LEADS = sized(4, 1);
const entries = (n: number, seed: number): HostileEntry[] =>
  fc.sample(hostileEntry(STATE_LIMITS.small), { numRuns: n, seed });

async function leadSurvives(round: number): Promise<void> {
  const b = (box = makeSandboxRepo({
    script: genericTaskScript(),
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' } },
  }));
  const paths = STATE_PATHS(b.dir);
  // Round 0: a FIFO at every path at boot, then each of the worst entries swapped in while running; then generated ones.
  const atBoot = round === 0 ? paths.map(() => WORST[0]!) : entries(paths.length, SEED + round);
  paths.forEach((p, i) => swapIn(b, p, atBoot[i]!));
  swapIn(b, pidFilePath(b.dir), atBoot[0]!);
  b.writeTask('t1', { subject: 'make t1' });
  const run = (daemon = spawnCli(['start', '--foreground', '--dir', b.dir]));
  await waitForOutput(run, /lead started/, 60_000);
  // While running: other entries swapped in (lead.pid is the lead's own now).
  const late =
    round === 0
      ? paths.map((_, i) => WORST[1 + (i % (WORST.length - 1))]!)
      : entries(paths.length, SEED + 1000 + round);
  paths.forEach((p, i) => swapIn(b, p, late[i]!));
  b.writeTask('t2', { subject: 'make t2' });
  b.writeTask('t3', { subject: 'make t3', blockedBy: ['t2'] });
  const done = () => ['t1', 't2', 't3'].every((id) => tasksOnDisk(b.dir).get(id)?.status === 'completed');
  await untilFiles(done, 90_000, `the valid tasks to be completed (round ${round}, seed ${SEED})`);
  if (round === 0) {
    // The FIFO at paused.json is read at boot: the lead says so once (at its next reap), naming the file.
    const said = () => /\.team\/state\/paused\.json: is a FIFO \(named pipe\)/.test(run.output());
    await untilFiles(said, 20_000, 'a notice naming .team/state/paused.json');
    expect(run.output().match(/paused\.json: is a FIFO/g)).toHaveLength(1);
  }
  const quiet = () =>
    teammatesIdle(agentsStateDir(b.dir), ['ann'], run.child.pid!) &&
    processesInside(b.dir, [run.child.pid!]).length === 0;
  await untilFiles(quiet, 60_000, 'an idle teammate');
  const how = new Promise<string>((res) =>
    run.child.once('exit', (code, signal) => res(`${code}/${signal}`)),
  );
  run.child.kill('SIGTERM');
  expect(await how, run.output()).toBe('0/null');
  expect(run.output()).not.toContain(SECRET);
  for (const p of paths) rmSync(p, { recursive: true, force: true }); // a FIFO left would block the walk's reads
  for (const file of walk(join(b.dir, '.team')))
    expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
  for (const file of walk(join(b.dir, '.tasks')))
    expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
}

it(
  `a real lead with hostile state files at boot and while running (${LEADS} lead(s), seed ${SEED}): it completes the valid tasks, stops on SIGTERM, never shows the secret`,
  async () => {
    for (let round = 0; round < LEADS; round++) {
      await leadSurvives(round);
      box?.cleanup();
      box = undefined;
    }
  },
  sized(600_000, 150_000),
);

/**
 * Hostile `.team/state/` files (issue 16): every reader of a state file —
 * approval/plan/review requests, teammate statuses, the merge queue, process
 * groups, the pause, lead.pid, reported stalls, the event log — given a
 * generated replacement (a FIFO, a link to /dev/zero or to a secret, a
 * dangling link, a folder, random bytes, a file over the cap, JSON nested past
 * the bound) returns its "nothing there" answer at once: it does not throw,
 * block or read the device, and the refusal it records never holds the secret.
 * The full-size run is in test/faults/hostile-state.test.ts (with a real lead).
 */

import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { pausePath, readPause } from '../../src/lead/pause-file.js';
import { pidFilePath, runningLeadPid } from '../../src/lead/pid-lock.js';
import { STATE_LIMITS, stateProblems } from '../../src/store/state-file.js';
import { hostileEntry, placeEntry } from './hostile-entries.js';
import { hostileStateHolds, STATE_KINDS, WORST } from './hostile-state.js';

const SEED = Number(process.env.TEAMD_SEED ?? 16);
const RUNS_PER_KIND = Number(process.env.TEAMD_STATE_RUNS ?? 12);

const root = mkdtempSync(join(tmpdir(), 'teamd-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
it.each(STATE_KINDS.map((k) => [k.name, k] as const))(
  '%s: a FIFO, a link to /dev/zero or to a secret, JSON 5,000 deep are refused unread',
  async (_name, kind) => {
    for (const entry of WORST) await hostileStateHolds(kind, entry, root);
  },
  30_000,
);

it.each(STATE_KINDS.map((k) => [k.name, k] as const))(
  `%s: generated hostile replacements are refused unread, never thrown, never block (${RUNS_PER_KIND} runs)`,
  async (_name, kind) => {
    const cap =
      kind.name === 'merge queue'
        ? STATE_LIMITS.mergeQueue
        : kind.name.endsWith('log')
          ? 0
          : STATE_LIMITS.small;
    const entries =
      cap === 0
        ? hostileEntry(1_000).filter((e) => e.kind !== 'big' && e.kind !== 'deep')
        : hostileEntry(Math.min(cap, 64 * 1024));
    await fc.assert(
      fc.asyncProperty(entries, (e) => hostileStateHolds(kind, e, root)),
      { numRuns: RUNS_PER_KIND, seed: SEED },
    );
  },
  30_000,
);

it('a refused state file is named in stateProblems with why, never with its content', async () => {
  const repo = join(root, 'named');
  mkdirSync(dirname(pausePath(repo)), { recursive: true });
  placeEntry({ kind: 'link', to: 'secret' }, pausePath(repo), join(root, 'named-outside'), '');
  expect(readPause(repo)).toBeNull();
  const problem = stateProblems().find((p) => p.file === '.team/state/paused.json');
  expect(problem?.message).toMatch(/symbolic link to outside the repository.*not read/);
  placeEntry({ kind: 'deep', depth: 5_000, closed: true, pattern: [1] }, pidFilePath(repo), root, '');
  expect(runningLeadPid(repo)).toBeNull();
});

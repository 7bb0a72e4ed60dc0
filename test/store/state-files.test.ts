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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readMergeQueueFile, mergeQueuePath } from '../../src/git/merge-queue-file.js';
import { pausePath, readPause } from '../../src/lead/pause-file.js';
import { pidFilePath, runningLeadPid } from '../../src/lead/pid-lock.js';
import { processGroupsFile, ProcessGroups } from '../../src/lead/process-groups.js';
import { readDaemonLog } from '../../src/observe/daemon-log.js';
import { readEvents } from '../../src/observe/event-log.js';
import { stallsPath, reportStalled } from '../../src/notify/stall.js';
import { STATE_LIMITS, stateProblems } from '../../src/store/state-file.js';
import { listRequests, loadRequest, requestsDir } from '../../src/teammate/requests.js';
import { agentsStateDir, readAgentStatuses } from '../../src/teammate/status-file.js';
import { hostileEntry, placeEntry, SECRET, type HostileEntry } from './hostile-entries.js';

const SEED = Number(process.env.TEAMD_SEED ?? 16);
export const RUNS_PER_KIND = Number(process.env.TEAMD_STATE_RUNS ?? 12);

const root = mkdtempSync(join(tmpdir(), 'teamd-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One kind of state file: where it lives, and its reader's answer when the file says nothing usable. */
export interface StateKind {
  name: string;
  path: (repo: string) => string;
  read: (repo: string) => Promise<unknown>;
  empty: unknown;
}

const noMailbox = { mailbox: { send: async () => ({ ok: true as const, value: {} as never }) } };
export const STATE_KINDS: StateKind[] = [
  {
    name: 'request',
    path: (r) => join(requestsDir(r), 'perm-1.json'),
    read: async (r) => [loadRequest(r, 'perm-1'), listRequests(r)],
    empty: [null, []],
  },
  {
    name: 'status',
    path: (r) => join(agentsStateDir(r), 'ann.json'),
    read: async (r) => readAgentStatuses(r),
    empty: [],
  },
  {
    name: 'merge queue',
    path: mergeQueuePath,
    read: (r) => readMergeQueueFile(mergeQueuePath(r), 'teamd/integration'),
    empty: expect.objectContaining({ ok: false }),
  },
  {
    name: 'process groups',
    path: processGroupsFile,
    read: (r) => new ProcessGroups(r).endLeftovers(),
    empty: 0,
  },
  { name: 'pause', path: pausePath, read: async (r) => readPause(r), empty: null },
  { name: 'lead.pid', path: pidFilePath, read: async (r) => runningLeadPid(r), empty: null },
  {
    name: 'stalls',
    path: stallsPath,
    read: async (r) => (await reportStalled(r, { stallAfterMs: 60_000 }, noMailbox)).reported,
    empty: [],
  },
  {
    name: 'event log',
    path: (r) => join(r, '.team', 'events.jsonl'),
    read: async (r) => readEvents(r),
    empty: [],
  },
  {
    name: 'daemon log',
    path: (r) => join(r, '.team', 'daemon.log'),
    read: async (r) => readDaemonLog(r),
    empty: [],
  },
];

let round = 0;
/** Places `entry` at the kind's path in a fresh repository and reads it with the kind's real reader. */
export async function hostileStateHolds(kind: StateKind, entry: HostileEntry, base = root): Promise<void> {
  const repo = join(base, `r${round++}`);
  const outside = join(base, `outside-${round}`);
  const file = kind.path(repo);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(join(repo, 'README.md'), 'a file inside the repository\n');
  placeEntry(entry, file, outside, join(repo, 'README.md'));
  const answer = await kind.read(repo);
  // Bytes may happen to be valid; everything else is refused and read as nothing there.
  if (entry.kind !== 'bytes' && !(entry.kind === 'link' && entry.to === 'repo-file'))
    expect(answer, kind.name).toEqual(kind.empty);
  expect(JSON.stringify(answer ?? null)).not.toContain(SECRET);
  expect(JSON.stringify(stateProblems())).not.toContain(SECRET);
  rmSync(repo, { recursive: true, force: true });
}

/** The entries that hang, fill or leak an unguarded reader: always tried, beside the generated ones. */
export const WORST: HostileEntry[] = [
  { kind: 'fifo' },
  { kind: 'link', to: 'zero' },
  { kind: 'link', to: 'secret' },
  { kind: 'deep', depth: 5_000, closed: true, pattern: [0, 1] },
];

it.each(STATE_KINDS.map((k) => [k.name, k] as const))(
  '%s: a FIFO, a link to /dev/zero or to a secret, JSON 5,000 deep are refused unread',
  async (_name, kind) => {
    for (const entry of WORST) await hostileStateHolds(kind, entry);
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
      fc.asyncProperty(entries, (e) => hostileStateHolds(kind, e)),
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

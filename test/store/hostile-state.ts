/**
 * The kinds of `.team/state/` files and their real readers, for the hostile
 * state tests (test/store/state-files.test.ts, test/faults/hostile-state.test.ts):
 * each placed hostile entry must read as "nothing there", never throw, block
 * or show the secret.
 */
import { expect } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readMergeQueueFile, mergeQueuePath } from '../../src/git/merge-queue-file.js';
import { pausePath, readPause } from '../../src/lead/pause-file.js';
import { pidFilePath, runningLeadPid } from '../../src/lead/pid-lock.js';
import { processGroupsFile, ProcessGroups } from '../../src/lead/process-groups.js';
import { daemonLogPath, readDaemonLog } from '../../src/observe/daemon-log.js';
import { eventLogPath, readEvents } from '../../src/observe/event-log.js';
import { stallsPath, reportStalled } from '../../src/notify/stall.js';
import { stateProblems } from '../../src/store/state-file.js';
import { listRequests, loadRequest, requestsDir } from '../../src/teammate/requests.js';
import { agentsStateDir, readAgentStatuses } from '../../src/teammate/status-file.js';
import { placeEntry, SECRET, type HostileEntry } from './hostile-entries.js';

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
    path: eventLogPath,
    read: async (r) => readEvents(r),
    empty: [],
  },
  {
    name: 'daemon log',
    path: daemonLogPath,
    read: async (r) => readDaemonLog(r),
    empty: [],
  },
];

let round = 0;
/** Places `entry` at the kind's path in a fresh repository and reads it with the kind's real reader. */
export async function hostileStateHolds(kind: StateKind, entry: HostileEntry, base: string): Promise<void> {
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

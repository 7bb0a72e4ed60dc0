/**
 * Locks whose owner file has an mtime in the future (issue 16, item 7): a
 * clock stepped back or a copied file would keep such a lock "fresh" until
 * the clock catches up. Its holder's recorded identity decides: gone → taken
 * over at once; alive → kept, and reported as a stuck lock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeDefaultConfig } from '../../src/config/load.js';
import { writeFileAtomic } from '../../src/store/atomic.js';
import { stuckLocks } from '../../src/store/lock-holder.js';
import { LockLostError, lockPathFor, withLock } from '../../src/store/lock.js';
import { processStart } from '../../src/store/process-identity.js';
import { teamd } from '../cli/run-teamd.js';
import { tempRepo } from './temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
const children: ChildProcess[] = [];
beforeEach(async () => (repo = await tempRepo('teamd-lock-holder-')));
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await repo.cleanup();
});

/** A lock entry as another process leaves it: linked to its owner file, whose mtime is `aheadMs` in the future. */
function leaveLock(file: string, holder: { pid: number; start: string | null; host: string } | null, aheadMs: number): void {
  const entry = lockPathFor(file);
  const owner = join(dirname(entry), `.owner-${holder?.pid ?? 0}-0-test`);
  mkdirSync(dirname(entry), { recursive: true });
  writeFileSync(owner, holder ? `${JSON.stringify(holder)}\n` : '');
  linkSync(owner, entry);
  const at = new Date(Date.now() + aheadMs);
  utimesSync(entry, at, at);
}

const exitedPid = (): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn('true');
    child.on('exit', () => resolve(child.pid!));
  });

async function liveSleep(): Promise<number> {
  const child = spawn('sleep', ['60']);
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child.pid!;
}

const HOUR = 3_600_000;

it('a lock refreshed an hour ahead by a process that has exited is taken over at once', async () => {
  const file = join(repo.root, '.tasks', 't1.json');
  leaveLock(file, { pid: await exitedPid(), start: '1', host: hostname() }, HOUR);
  expect(await withLock(file, async () => 'taken', { retries: 0 })).toBe('taken');
  expect(stuckLocks(repo.root)).toEqual([]);
});

it('a future lock whose pid now names another process (another start time) is taken over at once', async () => {
  const file = join(repo.root, '.tasks', 't1.json');
  const pid = await liveSleep();
  leaveLock(file, { pid, start: `${processStart(pid)}0`, host: hostname() }, HOUR);
  expect(await withLock(file, async () => 'taken', { retries: 0 })).toBe('taken');
});

it('a future lock of a live holder is kept, and validate and status report it as stuck', async () => {
  const file = join(repo.root, '.tasks', 't1.json');
  const pid = await liveSleep();
  leaveLock(file, { pid, start: processStart(pid), host: hostname() }, HOUR);
  await expect(withLock(file, async () => 'taken', { retries: 0 })).rejects.toThrow(/busy .*in the future/);
  const stuck = stuckLocks(repo.root);
  expect(stuck).toHaveLength(1);
  expect(stuck[0]).toMatchObject({ file: join('.tasks', '.locks', 't1.json'), holder: { pid } });
  expect(stuck[0]!.message).toMatch(/in the future/);

  const validate = await teamd(repo.root, 'validate', '--dir', repo.root);
  expect(validate.code).toBe(1);
  expect(validate.stdout).toContain('.tasks/.locks/t1.json');
  expect(validate.stdout).toMatch(/in the future/);
  await writeDefaultConfig(repo.root);
  const status = await teamd(repo.root, 'status', '--dir', repo.root);
  expect(status.stdout).toMatch(/stuck lock: \.tasks\/\.locks\/t1\.json/);
}, 30_000);

it('a future lock that names no holder (an empty owner file) is reported, not taken over', async () => {
  const file = join(repo.root, '.mailboxes', 'ann.json');
  leaveLock(file, null, HOUR);
  await expect(withLock(file, async () => 1, { retries: 0 })).rejects.toThrow(/busy/);
  expect(stuckLocks(repo.root).map((s) => s.file)).toEqual([join('.mailboxes', '.locks', 'ann.json')]);
});

it('a fenced write refuses to replace a file changed under the lock by a writer that took no lock', async () => {
  const file = join(repo.root, 'x.json');
  writeFileSync(file, 'first');
  await expect(
    withLock(file, async (fence) => {
      writeFileSync(file, 'a person edited it');
      await writeFileAtomic(file, 'ours', { fence });
    }),
  ).rejects.toBeInstanceOf(LockLostError);
  expect((await import('node:fs')).readFileSync(file, 'utf8')).toBe('a person edited it');
  // Two writes in one hold: the second is checked against the first, not against the file as it was.
  await withLock(file, async (fence) => {
    await writeFileAtomic(file, 'one', { fence });
    await writeFileAtomic(file, 'two', { fence });
  });
  expect((await import('node:fs')).readFileSync(file, 'utf8')).toBe('two');
});

/**
 * `lead.pid` (issue 16, item 11): it records the lead's pid with its start
 * time, so a pid that now names an unrelated live process is not taken for a
 * running lead (which refused `start` forever and made `status` say running).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { acquirePidLock, pidFilePath, runningLeadPid } from '../../src/lead/pid-lock.js';
import { processStart } from '../../src/store/process-identity.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
let sleeper: ChildProcess | undefined;
beforeEach(async () => (repo = await tempRepo('teamd-pid-lock-')));
afterEach(async () => {
  sleeper?.kill('SIGKILL');
  await repo.cleanup();
});

async function liveSleep(): Promise<number> {
  sleeper = spawn('sleep', ['60']);
  await new Promise((resolve) => sleeper!.once('spawn', resolve));
  return sleeper.pid!;
}

const writePidFile = (text: string): void => {
  mkdirSync(dirname(pidFilePath(repo.root)), { recursive: true });
  writeFileSync(pidFilePath(repo.root), text);
};

it('records the pid, its start time and a marker, and removes the file on release', () => {
  const lock = acquirePidLock(repo.root);
  expect(lock.ok).toBe(true);
  const record = JSON.parse(readFileSync(pidFilePath(repo.root), 'utf8'));
  expect(record).toEqual({ teamd: 'lead', pid: process.pid, start: processStart(process.pid), host: hostname() });
  if (lock.ok) lock.release();
  expect(existsSync(pidFilePath(repo.root))).toBe(false);
});

it('a pid that now names a live unrelated process (another start time) is stale: start takes over, status says not running', async () => {
  const pid = await liveSleep();
  writePidFile(`${JSON.stringify({ teamd: 'lead', pid, start: `${processStart(pid)}9`, host: hostname() })}\n`);
  expect(runningLeadPid(repo.root)).toBeNull();
  const lock = acquirePidLock(repo.root);
  expect(lock.ok).toBe(true);
  expect(JSON.parse(readFileSync(pidFilePath(repo.root), 'utf8')).pid).toBe(process.pid);
  if (lock.ok) lock.release();
});

it('a recorded lead that is still that process refuses a second start', async () => {
  const pid = await liveSleep(); // stands in for a running lead: same pid, same start time
  writePidFile(`${JSON.stringify({ teamd: 'lead', pid, start: processStart(pid), host: hostname() })}\n`);
  expect(runningLeadPid(repo.root)).toBe(pid);
  expect(acquirePidLock(repo.root)).toMatchObject({ ok: false, pid, error: expect.stringContaining('already running') });
});

it('a file left by a dead lead, in the old bare-pid form or unreadable, is replaced', async () => {
  const exited = await new Promise<number>((resolve) => {
    const child = spawn('true');
    child.on('exit', () => resolve(child.pid!));
  });
  for (const text of [`${exited}\n`, 'not a pid file', '{"teamd":"lead"}']) {
    writePidFile(text);
    expect(runningLeadPid(repo.root)).toBeNull();
    const lock = acquirePidLock(repo.root);
    expect(lock.ok).toBe(true);
    if (lock.ok) lock.release();
  }
});

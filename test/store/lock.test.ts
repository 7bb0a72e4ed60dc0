import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockBusyError, lockPathFor, tryWithLock, withLock, type LockIncident } from '../../src/store/lock.js';
import { tempRepo, waitFor } from './temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => (repo = await tempRepo()));
afterEach(async () => repo.cleanup());

describe('withLock', () => {
  it('locks a file that does not exist yet, in a folder that does not exist yet, and cleans up', async () => {
    const file = join(repo.root, 'new', 'folder', 'x.json');
    const seen = await withLock(file, async () => existsSync(lockPathFor(file)));
    expect(seen).toBe(true);
    expect(existsSync(lockPathFor(file))).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('runs calls in one process one at a time, in order', async () => {
    const file = join(repo.root, 'x.json');
    const events: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        withLock(file, async () => {
          events.push(`start ${n}`);
          await new Promise((resolve) => setImmediate(resolve));
          events.push(`end ${n}`);
        }),
      ),
    );
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('releases the lock when the function throws', async () => {
    const file = join(repo.root, 'x.json');
    await expect(withLock(file, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withLock(file, async () => 'again')).toBe('again');
  });

  it('gives up with LockBusyError when the lock stays held (retries: 0), and tryWithLock returns it as data', async () => {
    const file = join(repo.root, 'x.json');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(lockPathFor(file), { recursive: true }); // held by "another process"
    await expect(withLock(file, async () => 1, { retries: 0 })).rejects.toBeInstanceOf(LockBusyError);
    const tried = await tryWithLock(file, async () => 1, { retries: 2 });
    expect(tried).toEqual({ ok: false, error: { reason: 'busy', message: expect.stringContaining('busy') } });
  });

  it('records a lost lock through onCompromised instead of throwing', async () => {
    const file = join(repo.root, 'x.json');
    const incidents: LockIncident[] = [];
    const result = await withLock(
      file,
      async () => {
        await rm(lockPathFor(file), { recursive: true }); // someone broke our lock
        await waitFor(() => incidents.length > 0, 'the compromised lock to be noticed', 5_000);
        return 'finished';
      },
      { staleMs: 2_000, onCompromised: (i) => incidents.push(i) },
    );
    expect(result).toBe('finished');
    expect(incidents[0]).toMatchObject({ file });
  });

  it('takes over a lock whose holder stopped refreshing it (staleMs ago)', async () => {
    const file = join(repo.root, 'x.json');
    const { mkdir, utimes } = await import('node:fs/promises');
    await mkdir(lockPathFor(file), { recursive: true }); // left by a process that died
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPathFor(file), old, old);
    expect(await withLock(file, async () => 'taken over', { retries: 0 })).toBe('taken over');
    expect(existsSync(lockPathFor(file))).toBe(false);
    expect(existsSync(`${lockPathFor(file)}.takeover`)).toBe(false);
  });

  it('never removes a lock another holder took over while this one held it', async () => {
    const file = join(repo.root, 'x.json');
    const incidents: LockIncident[] = [];
    const { mkdir, rm } = await import('node:fs/promises');
    await withLock(
      file,
      async () => {
        await rm(lockPathFor(file)); // taken over, and now held by another holder
        await mkdir(lockPathFor(file));
      },
      { onCompromised: (i) => incidents.push(i) },
    );
    expect(existsSync(lockPathFor(file))).toBe(true); // the other holder's lock is still there
    expect(incidents).toHaveLength(1);
    expect(incidents[0]?.message).toContain('taken over');
  });
});


describe('a lock whose owner file was swept while idle', () => {
  it('is taken with a new owner file, and a write under it commits and the release removes it', async () => {
    const file = join(repo.root, 'x.json');
    const { readdirSync, unlinkSync } = await import('node:fs');
    const { writeFileAtomic } = await import('../../src/store/atomic.js');
    await withLock(file, async () => undefined);
    const locks = join(repo.root, '.locks');
    // Another process swept our idle owner file (it links no lock).
    for (const name of readdirSync(locks)) unlinkSync(join(locks, name));
    const incidents: LockIncident[] = [];
    await withLock(file, async (fence) => writeFileAtomic(file, 'written', { fence }), {
      staleMs: 60_000,
      onCompromised: (i) => incidents.push(i),
    });
    expect(incidents).toEqual([]);
    expect(existsSync(lockPathFor(file))).toBe(false);
  });
});

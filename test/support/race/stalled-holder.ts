/**
 * A test's other side of `stall-holder.ts`: a real process that takes a lock,
 * stops itself (SIGSTOP) inside its critical section on command, and reports
 * its write's outcome once continued. `useStalledHolder` starts one per test
 * in a fresh temp repository and ends it after.
 */
import { afterEach, beforeEach } from 'vitest';
import { tempRepo } from '../../store/temp-repo.js';
import { raceScript, spawnTs, type TsChild } from './spawn-ts.js';
import { untilStopped } from './stopped.js';

export interface StalledHolder {
  readonly root: string;
  /** Sends `command` to the holder and waits until it stopped itself inside the lock. */
  stallInside: (command: string) => Promise<void>;
  /** Continues the holder and returns the outcome of its command. */
  resume: () => Promise<{ ok: boolean; error?: string }>;
}

export function useStalledHolder(prefix: string, staleMs: number): StalledHolder {
  let repo: Awaited<ReturnType<typeof tempRepo>>;
  let holder: TsChild;
  beforeEach(async () => {
    repo = await tempRepo(prefix);
    holder = spawnTs(raceScript('stall-holder.ts'), [repo.root, String(staleMs)]);
    await holder.waitForLine((l) => l === 'ready');
  });
  afterEach(async () => {
    holder.child.kill('SIGKILL');
    await holder.exited;
    await repo.cleanup();
  });
  return {
    get root() {
      return repo.root;
    },
    stallInside: async (command) => {
      holder.child.stdin!.write(`${command}\n`);
      await holder.waitForLine((l) => l.startsWith('inside '));
      await untilStopped(holder.child.pid!);
    },
    resume: async () => {
      holder.child.kill('SIGCONT');
      const line = await holder.waitForLine((l) => l.startsWith('result '));
      return JSON.parse(line.slice('result '.length)) as { ok: boolean; error?: string };
    },
  };
}

/**
 * The first bash call's spawn, rehearsed once per process while the first
 * model request waits for its answer: Node's `child_process` and its pipes
 * run their JavaScript for the first time in the first `spawn` (a few
 * milliseconds of it on the turn's path). The rehearsal starts the shell the
 * bash tool starts (`-c :`, its own process group, the same stdio with the
 * descriptor-3 pipe) and reaps it; it is unref'd and never fails: a shell
 * that cannot start is what the first real call reports. Only where a
 * one-shot command asked for rehearsals (src/model/turn-rehearsal.ts).
 */
import { spawn } from 'node:child_process';
import { whileAnswerAwaited } from '../model/request-sent.js';
import { turnRehearsalWanted } from '../model/turn-rehearsal.js';
import { defaultShell } from './bash-process.js';

let armed = false;

/** Spawns the rehearsal shell now; resolves when it is reaped (or could not start). Never rejects. */
export function spawnRehearsalShell(shell: string = defaultShell()): Promise<void> {
  return new Promise((resolve) => {
    try {
      const child = spawn(shell, ['-c', ':'], { cwd: process.cwd(), env: process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
      child.unref();
      for (const pipe of child.stdio) (pipe as { unref?: () => void } | null)?.unref?.();
      const end = (): void => (child.stdio.forEach((pipe) => pipe?.destroy()), resolve());
      child.once('error', end).once('exit', end);
    } catch {
      resolve();
    }
  });
}

/** Arms the rehearsal for while the process's first model answer is awaited (once per process). */
export function rehearseSpawn(): void {
  if (armed || !turnRehearsalWanted() || process.env.TEAMD_NO_SPAWN_REHEARSAL === '1') return;
  armed = true;
  whileAnswerAwaited(() => void spawnRehearsalShell());
}

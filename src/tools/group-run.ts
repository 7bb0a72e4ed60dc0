/**
 * Runs one process as the leader of its own process group, with a timeout and
 * an abort signal that kill the whole group (see process-group.ts). Shared by
 * the bash tool and the hook runner. Never rejects: a failure to start is a
 * result with `spawnError`.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { Readable, type Writable } from 'node:stream';
import { groupEnded, groupStarted } from './live-groups.js';
import { groupAlive, killProcessGroup } from './process-group.js';

export interface GroupRun {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Written to stdin, which is then closed. Without it stdin is /dev/null, not
   * an empty pipe: bash takes a socket on stdin for a remote shell and sources
   * the bashrc files (when SHLVL < 2), and a pipe costs one more socketpair.
   */
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  onStdout: (chunk: string) => void;
  onStderr: (chunk: string) => void;
  /** When set, the process also gets a pipe on file descriptor 3, read into this (a side channel). */
  onFd3?: (chunk: string) => void;
  /** When the leader exits, kill what is left of its group (`cmd &` jobs) instead of leaving it running. */
  killLeftovers: boolean;
  /** How long output pipes may stay open after the leader exits (a child still holds them). */
  drainMs: number;
  /** Grace between SIGTERM and SIGKILL on timeout or abort. */
  killGraceMs: number;
}

export interface GroupExit {
  /** Null when the leader was killed by a signal or never started. */
  exitCode: number | null;
  killedBy: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  spawnError?: string;
}

export function runProcessGroup(run: GroupRun): Promise<GroupExit> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(run.file, run.args, {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: [run.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(run.onFd3 === undefined ? [] : ['pipe' as const])],
    }) as GroupChild;
    if (child.pid !== undefined) groupStarted(child.pid);
    const limits = watchLimits(child.pid, run);
    pipeOutput(child, run);
    let done = false;
    const finish = (exit: Pick<GroupExit, 'exitCode' | 'killedBy' | 'spawnError'>): void => {
      if (done) return;
      done = true;
      resolve({ ...exit, ...limits.stop(), durationMs: Date.now() - started });
    };
    child.on('error', (error) => finish({ exitCode: null, killedBy: null, spawnError: error.message }));
    child.on(
      'exit',
      (exitCode, killedBy) =>
        void afterExit(child, run).then(() => {
          // Leftovers allowed to run (`killLeftovers: false`) stay tracked while the group lives.
          if (child.pid !== undefined && (run.killLeftovers || !groupAlive(child.pid))) groupEnded(child.pid);
          finish({ exitCode, killedBy });
        }),
    );
  });
}

/** Arms the timeout and the abort signal; `stop` disarms them and says which fired. */
function watchLimits(
  pgid: number | undefined,
  run: GroupRun,
): { stop(): { timedOut: boolean; aborted: boolean } } {
  const fired = { timedOut: false, aborted: false };
  const kill = (): void => void (pgid !== undefined && killProcessGroup(pgid, run.killGraceMs));
  const timer = setTimeout(() => ((fired.timedOut = true), kill()), run.timeoutMs);
  const onAbort = (): void => ((fired.aborted = true), kill());
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted) onAbort();
  return {
    stop: () => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      return fired;
    },
  };
}

type GroupChild = ChildProcessByStdio<Writable | null, Readable, Readable>;

function pipeOutput(child: GroupChild, run: GroupRun): void {
  child.stdout.setEncoding('utf8').on('data', run.onStdout);
  child.stderr.setEncoding('utf8').on('data', run.onStderr);
  child.stdin?.on('error', () => {}); // a process that does not read stdin closes it early: EPIPE is expected
  if (run.stdin !== undefined) child.stdin?.end(run.stdin);
  const fd3 = child.stdio[3];
  if (run.onFd3 !== undefined && fd3 instanceof Readable) fd3.setEncoding('utf8').on('data', run.onFd3);
}

/** Waits for the output to drain (bounded), then ends leftovers if asked. */
async function afterExit(child: GroupChild, run: GroupRun): Promise<void> {
  const closed = new Promise((r) => child.once('close', r));
  let drain: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise((r) => (drain = setTimeout(r, run.drainMs)))]);
  // Cleared, or a headless run would wait out the drain time before it can exit.
  clearTimeout(drain);
  if (run.killLeftovers && child.pid !== undefined) await killProcessGroup(child.pid, 200);
  child.stdout.destroy();
  child.stderr.destroy();
  child.stdio[3]?.destroy();
}

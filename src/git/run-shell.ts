import { spawn } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Outcome, ShellResult } from './types.js';

/** How much output a setup or verify command keeps: enough to show a failing test. */
const TAIL_LINES = 60;
const TAIL_CHARS = 8_000;

export interface ShellOptions {
  cwd: string;
  timeoutMs: number;
  /** Told the process group id; the command waits until this settles. */
  onSpawn?: (pid: number) => void | Promise<void>;
  /** Aborting kills the command (the daemon is shutting down). */
  signal?: AbortSignal;
}

/**
 * Runs `sh -c command` in its own process group, so a timeout kills the whole
 * tree (an `npm test` and its workers), not only the shell: a surviving child
 * would hold the output pipes open and the wait would never end.
 *
 * With `onSpawn`, the command starts only once `onSpawn` has settled: a
 * caller that records the process group (for crash recovery) has it on disk
 * before the command can do anything.
 */
export function runShell(command: string, options: ShellOptions): Promise<ShellResult> {
  return new Promise((resolve) => {
    const gated = options.onSpawn !== undefined;
    const script = gated ? 'read -r _ || true; exec sh -c "$1"' : command;
    const child = spawn('sh', gated ? ['-c', script, 'sh', command] : ['-c', script], {
      cwd: options.cwd,
      detached: true,
      stdio: [gated ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const tail = new OutputTail();
    child.stdout?.on('data', (chunk: Buffer) => tail.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const abort = (): void => killGroup(child.pid);
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted) abort();
    if (gated) void openGate(child.stdin, child.pid, options.onSpawn);
    const finish = (exitCode: number | null, error?: Error): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      if (error) tail.push(Buffer.from(`\n${error.message}\n`));
      resolve({ exitCode: timedOut ? null : exitCode, timedOut, outputTail: tail.text() });
    };
    child.on('error', (err) => finish(null, err));
    child.on('close', (code) => finish(code));
  });
}

async function openGate(
  stdin: Writable | null,
  pid: number | undefined,
  onSpawn: ShellOptions['onSpawn'],
): Promise<void> {
  try {
    if (pid !== undefined) await onSpawn?.(pid);
  } catch {
    // Not recorded: a crash now would leave the command running, but it must still run.
  }
  stdin?.on('error', () => undefined);
  stdin?.end('\n');
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Kills a command group left running by a process that died (a daemon killed
 * during verify), but only when its leader still runs in (or under) `expectedCwd`: a pid
 * recorded before a reboot may now belong to someone else. Linux only (it
 * reads /proc); elsewhere the orphan is left to finish on its own.
 */
export async function killOrphanGroup(pid: number, expectedCwd: string): Promise<boolean> {
  let cwd: string;
  try {
    cwd = await readlink(`/proc/${pid}/cwd`);
  } catch {
    return false;
  }
  if (cwd !== expectedCwd && !cwd.startsWith(expectedCwd + '/')) return false;
  killGroup(pid);
  return true;
}

/** Keeps the last lines of a stream without holding all of it. */
class OutputTail {
  private chunks: string[] = [];
  private size = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk.toString('utf8'));
    this.size += chunk.length;
    while (this.size > TAIL_CHARS * 2 && this.chunks.length > 1) {
      this.size -= this.chunks.shift()?.length ?? 0;
    }
  }

  text(): string {
    const lines = this.chunks.join('').split('\n');
    const kept = lines.slice(-TAIL_LINES - 1).join('\n');
    return kept.length > TAIL_CHARS ? kept.slice(-TAIL_CHARS) : kept;
  }
}

const DEFAULT_SETUP_TIMEOUT_MS = 600_000;

/** Runs a worktree's setup command (none is fine); a failure carries the output tail. */
export async function runSetupCommand(
  command: string | undefined,
  cwd: string,
  timeoutMs: number = DEFAULT_SETUP_TIMEOUT_MS,
): Promise<Outcome<void>> {
  if (!command) return { ok: true, value: undefined };
  const result = await runShell(command, { cwd, timeoutMs });
  if (result.exitCode === 0) return { ok: true, value: undefined };
  const why = result.timedOut
    ? `timed out after ${timeoutMs} ms`
    : `exited with ${result.exitCode ?? 'a signal'}`;
  return { ok: false, error: `setup command '${command}' ${why} in ${cwd}:\n${result.outputTail}` };
}

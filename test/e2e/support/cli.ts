import { spawn, type ChildProcess } from 'node:child_process';
import { teamdArgs } from '../../support/teamd-cli.js';

export interface CliRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The real CLI in its own process (test/support/teamd-cli.ts). */
export function spawnCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliRun {
  const child = spawn(process.execPath, teamdArgs(...args), {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Resolves when the process has printed text matching `re` (or rejects when it exits first / times out). */
export function waitForOutput(run: CliRun, re: RegExp, timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!re.test(run.output())) return false;
      cleanup();
      resolve();
      return true;
    };
    const onExit = () => {
      if (check()) return;
      cleanup();
      reject(new Error(`process exited before printing ${re}:\n${run.output()}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${re}:\n${run.output()}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      run.child.stdout!.off('data', check);
      run.child.stderr!.off('data', check);
      run.child.off('exit', onExit);
    };
    if (check()) return;
    run.child.stdout!.on('data', check);
    run.child.stderr!.on('data', check);
    run.child.once('exit', onExit);
  });
}

/** Polls `check` every 100 ms (a condition of processes and files: no event to wait on). */
export async function pollUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

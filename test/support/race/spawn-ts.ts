import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** tsx as an absolute URL, so a child can run TypeScript whatever its working directory. */
export const TSX_LOADER = import.meta.resolve('tsx');

/** A script in this folder, as an absolute path. */
export const raceScript = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

export interface TsChild {
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves when a stdout line satisfies `match`; rejects if the process exits first. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or signal) and the whole stderr. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Runs `node --import tsx <script> ...args` as a real, separate process. */
export function spawnTs(script: string, args: readonly string[], cwd?: string, env?: NodeJS.ProcessEnv): TsChild {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, script, ...args], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: env ? { ...process.env, ...env } : undefined,
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const waitForLine = (match: (line: string) => boolean, timeoutMs = 90_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const hit = lines.find(match);
        if (hit === undefined) return;
        finish();
        resolve(hit);
      };
      const timer = setTimeout(() => (finish(), reject(new Error(`no matching line within ${timeoutMs} ms`))), timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      void exited.then(({ code, signal }) => {
        check();
        finish();
        reject(new Error(`exited (${code ?? signal}) before a matching line: ${stderr}`));
      });
      waiters.add(check);
      check();
    });
  return { child, lines, waitForLine, exited };
}

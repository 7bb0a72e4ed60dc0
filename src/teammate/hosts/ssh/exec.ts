/**
 * One short ssh session that runs a script on the remote: the git steps of
 * carrying code, ending a teammate's processes. Its stdin can come from a
 * file (a bundle going out) and its stdout can go to one (a bundle coming
 * back). A failure is data naming the step and what ssh or the script said.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Outcome } from '../../../store/types.js';
import { sshArgv } from './argv.js';
import type { SshHostConfig } from './types.js';

export interface SshRunOptions {
  /** A file sent as the script's stdin. */
  input?: string;
  /** A file the script's stdout is written to (else it is returned as text). */
  output?: string;
  timeoutMs?: number;
}

/** Resolves when a file stream has written everything (or failed: the exit status tells then). */
const flushed = (stream: NodeJS.WritableStream): Promise<void> =>
  new Promise((resolve) => {
    stream.once('finish', resolve);
    stream.once('error', () => resolve());
  });

const DEFAULT_TIMEOUT_MS = 120_000;
const tail = (text: string): string => text.trim().split('\n').slice(-3).join(' | ');

/** Runs `script` on the remote; the stdout (when not written to a file) on success. */
export function runSsh(config: SshHostConfig, step: string, script: string, options: SshRunOptions = {}): Promise<Outcome<string>> {
  return new Promise((resolve) => {
    const child = spawn('ssh', sshArgv(config, script), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const written = options.output ? flushed(child.stdout.pipe(createWriteStream(options.output))) : Promise.resolve();
    if (!options.output) child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    if (options.input) createReadStream(options.input).on('error', () => child.stdin.destroy()).pipe(child.stdin);
    else child.stdin.end();
    child.stdin.on('error', () => {}); // the remote may exit before reading all of it: its status says why
    child.once('error', (error) => finish(`could not run ssh: ${error.message}`));
    child.once('close', (code, signal) =>
      void written.then(() => finish(code === 0 ? null : `exit ${code ?? signal}: ${tail(stderr) || '(no output)'}`)),
    );
    let done = false;
    function finish(problem: string | null) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(problem === null ? { ok: true, value: stdout } : { ok: false, error: `ssh ${config.target} (${step}): ${problem}` });
    }
  });
}

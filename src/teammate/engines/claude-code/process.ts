/**
 * One `claude` process: spawned in its own process group (its commands die
 * with it), stdout read line by line, the tail of stderr kept to say why it
 * died. The group is reported as live (src/tools/live-groups.ts) while it
 * runs, so the lead kills it when the teammate's worker dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { groupEnded, groupStarted } from '../../../tools/live-groups.js';
import { LineSplitter } from './stream.js';

const STDERR_TAIL = 4000;
const KILL_AFTER_MS = 3000;
const CLOSE_GRACE_MS = 1000;

export interface ProcessHandlers {
  onLine: (line: string) => void;
  onTooLong: (bytes: number) => void;
  onExit: (how: string) => void;
}

export class ClaudeProcess {
  private readonly child: ChildProcess;
  private stderr = '';
  private exited = false;
  /** Why the program could not be started (ENOENT, EACCES), when it could not. */
  spawnError: string | null = null;
  readonly exit: Promise<void>;

  constructor(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, h: ProcessHandlers) {
    this.child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const pid = this.child.pid;
    if (pid) groupStarted(pid);
    const lines = new LineSplitter(h.onLine, h.onTooLong);
    this.child.stdout!.on('data', (d: Buffer) => lines.push(d));
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-STDERR_TAIL)));
    this.child.stdin!.on('error', () => undefined); // a write after it died: its exit says why
    this.exit = new Promise((resolve) => {
      let ended = false;
      const end = (code: number | null, signal: NodeJS.Signals | null) => {
        if (ended) return;
        ended = true;
        lines.flush();
        this.exited = true;
        if (pid) groupEnded(pid);
        h.onExit(this.spawnError ?? `${signal ? `signal ${signal}` : `exit ${code}`}${this.stderrTail()}`);
        resolve();
      };
      this.child.on('error', (err) => (this.spawnError = err.message));
      this.child.on('exit', (code, signal) => {
        this.killGroup('SIGKILL'); // what it started goes with it
        // A command it started in a session of its own may still hold its stdout open: `close`
        // would wait for that command; after a moment the end is taken as it is.
        setTimeout(() => {
          this.child.stdout?.destroy();
          this.child.stderr?.destroy();
          end(code, signal);
        }, CLOSE_GRACE_MS).unref();
      });
      this.child.on('close', (code, signal) => end(code, signal));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  write(line: string): void {
    if (!this.exited && this.child.stdin?.writable) this.child.stdin.write(line);
  }

  /** No more input: the CLI finishes what it has and exits. */
  endInput(): void {
    this.child.stdin?.end();
  }

  /** SIGTERM to the group, SIGKILL if it is still there after a moment. */
  kill(): void {
    if (this.exited) return;
    this.killGroup('SIGTERM');
    setTimeout(() => this.killGroup('SIGKILL'), KILL_AFTER_MS).unref();
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  private stderrTail(): string {
    const tail = this.stderr.trim().split('\n').slice(-5).join(' | ');
    return tail ? `; stderr: ${tail}` : '';
  }
}

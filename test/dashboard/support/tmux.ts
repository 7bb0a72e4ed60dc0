/**
 * A real pseudo-terminal through tmux: a private server (its own socket), one
 * 80×24 session per program, keys sent with `send-keys`, the screen read with
 * `capture-pane`. tmux must be installed (`apt-get install -y tmux`).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './fake-terminal.js';

export class Tmux {
  private readonly socket = `teamd-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly env: NodeJS.ProcessEnv;

  constructor() {
    // ink draws only the last frame when it thinks it runs in CI; colours depend on NO_COLOR.
    const { CI: _ci, CONTINUOUS_INTEGRATION: _ci2, NO_COLOR: _nc, ...rest } = process.env;
    this.env = { ...rest, TERM: 'xterm-256color' };
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], {
      env: this.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Starts `command` (a shell line) in a new detached session of the given size. */
  start(
    session: string,
    command: string,
    options: { columns?: number; rows?: number; env?: Record<string, string> } = {},
  ): void {
    const env = Object.entries(options.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    this.tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      String(options.columns ?? 80),
      '-y',
      String(options.rows ?? 24),
      ...env,
      command,
    );
  }

  /** The visible screen; with `escapes`, colours and attributes as SGR sequences. */
  screen(session: string, escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', session);
  }

  /** Sends keys by tmux name (`Tab`, `Enter`, `Escape`, `Down`) or literal characters. */
  keys(session: string, ...keys: string[]): void {
    this.tmux('send-keys', '-t', session, ...keys);
  }

  async waitForScreen(session: string, text: string, timeoutMs = 30_000): Promise<string> {
    let last = '';
    await waitFor(
      () => (last = this.screen(session)).includes(text),
      `"${text}" on the screen`,
      timeoutMs,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the screen was:\n${last}`);
    });
    return last;
  }

  close(): void {
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // already gone (the last session ended)
    }
    const dir = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`);
    rmSync(join(dir, this.socket), { force: true });
  }
}

export function tmuxInstalled(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

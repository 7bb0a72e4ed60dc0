/**
 * A terminal for ink without a pseudo-terminal: a stdout of fixed columns and
 * rows that keeps what is written, and a stdin that types keys. With ink's
 * `debug: true` every write is one whole frame, so the last write is the screen.
 */
import { EventEmitter } from 'node:events';

export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly frames: string[] = [];

  constructor(
    readonly columns = 80,
    readonly rows = 24,
  ) {
    super();
  }

  write(data: string): boolean {
    this.frames.push(data);
    return true;
  }

  /** The last frame, without trailing spaces. */
  get screen(): string {
    return (this.frames.at(-1) ?? '').replace(/[ \t]+$/gm, '').replace(/\n+$/, '');
  }
}

export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private pending: string[] = [];

  /** Types `data` as if from the keyboard (`\t` tab, `\r` enter, `\x1b` escape). */
  type(data: string): void {
    this.pending.push(data);
    this.emit('readable');
  }

  read(): string | null {
    return this.pending.shift() ?? null;
  }

  setRawMode(): this {
    return this;
  }
  setEncoding(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
}

/** Polls `condition` every 10 ms until it holds; throws with `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The floor under every file-driven latency: a file renamed into a folder
 * until a bare `fs.watch` on that folder reports it. Nothing built on file
 * watching can react faster on this machine, so daemon latencies are shown
 * as a ratio to it, sampled in the same run, interleaved with the real ones.
 */
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class WatchFloor {
  private waiting = new Map<string, (at: number) => void>();

  private constructor(
    readonly root: string,
    private readonly watched: string,
    private readonly watcher: FSWatcher,
  ) {
    watcher.on('change', (_event, name) => {
      const done = this.waiting.get(String(name));
      if (!done) return;
      this.waiting.delete(String(name));
      done(performance.now());
    });
  }

  /** A temp root with `<folder>/` watched (`.mailboxes` to watch a MailboxStore rooted at `root`) and `stage/`. */
  static async open(folder = 'watched'): Promise<WatchFloor> {
    const root = await mkdtemp(join(tmpdir(), 'teamd-bench-floor-'));
    await mkdir(join(root, folder));
    await mkdir(join(root, 'stage'));
    return new WatchFloor(root, folder, watch(join(root, folder)));
  }

  /** One rename → event time, in ms. `content` should look like what the daemon gets (a task file). */
  async sample(name: string, content: string): Promise<number> {
    const staged = join(this.root, 'stage', name);
    await writeFile(staged, content);
    const seen = new Promise<number>((resolve) => this.waiting.set(name, resolve));
    const began = performance.now();
    await rename(staged, join(this.root, this.watched, name));
    return (await withTimeout(seen, 10_000, `fs.watch event for ${name}`)) - began;
  }

  /** A callback-style start: the caller does the change itself (a mailbox send) and awaits the event. */
  expect(name: string): Promise<number> {
    return withTimeout(
      new Promise<number>((resolve) => this.waiting.set(name, resolve)),
      10_000,
      `fs.watch event for ${name}`,
    );
  }

  async close(): Promise<void> {
    this.watcher.close();
    await rm(this.root, { recursive: true, force: true });
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)),
  );
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

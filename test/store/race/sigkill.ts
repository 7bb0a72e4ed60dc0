import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CronStore } from '../../../src/store/cron/index.js';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { CronJobSchema, InboxSchema, MessageSchema, TaskSchema } from '../../../src/store/types.js';
import { raceScript, spawnTs } from '../../support/race/spawn-ts.js';
import { tempRepo } from '../temp-repo.js';

const WAVES = 2;
const WRITERS_PER_WAVE = 5;

/** A SIGKILL can tear at most the one append its writer was making (archive.ts: the next append starts a fresh line). */
const MAX_TORN = WAVES * WRITERS_PER_WAVE;

/**
 * An archive is append-only JSON lines. What follows its last newline is an
 * append still being copied in (a concurrent reader can see part of one), so
 * it is not judged; every complete line parses with the schema, except the
 * torn fragments killed writers left (not JSON at all), at most one per kill.
 */
function archiveCheck(text: string): void {
  const lines = text.split('\n');
  lines.pop();
  let torn = 0;
  for (const line of lines.filter(Boolean)) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      if (++torn > MAX_TORN) throw err;
      continue;
    }
    MessageSchema.parse(value);
  }
}

/** Reads every visible file of the three folders; each must parse, whole, with its schema. */
async function scanAllFiles(root: string): Promise<number> {
  const checks: [string, (text: string) => void][] = [
    ['.tasks', (t) => TaskSchema.parse(JSON.parse(t))],
    // An inbox is an array; a spool file (`<agent>@<id>.json`) one message.
    ['.mailboxes', (t) => ((v: unknown) => (Array.isArray(v) ? InboxSchema.parse(v) : MessageSchema.parse(v)))(JSON.parse(t))],
    ['.cron', (t) => CronJobSchema.parse(JSON.parse(t))],
    ['.mailboxes/archive', archiveCheck],
  ];
  let files = 0;
  for (const [folder, check] of checks) {
    const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.filter((e) => e.isFile() && !e.name.startsWith('.'))) {
      const text = await readFile(join(root, folder, entry.name), 'utf8').catch(() => null);
      if (text === null) continue; // renamed away between listing and reading
      try {
        check(text);
      } catch (err) {
        throw new Error(`${folder}/${entry.name} does not parse: ${(err as Error).message}`);
      }
      files++;
    }
  }
  return files;
}

/** Starts the writers together and SIGKILLs each after a random number of rounds, scanning files all the while. */
async function wave(root: string, wave: number): Promise<void> {
  const writers = Array.from({ length: WRITERS_PER_WAVE }, (_, i) =>
    spawnTs(raceScript('kill-writer.ts'), [root, `${wave}x${i}`]),
  );
  try {
    await Promise.all(writers.map((w) => w.waitForLine((l) => l === 'ready')));
    for (const w of writers) w.child.stdin!.write('go\n');
    let running = true;
    const kills = writers.map(async (w) => {
      const at = 2 + Math.floor(Math.random() * 10);
      await w.waitForLine((l) => l === `tick ${at}`, 60_000);
      w.child.kill('SIGKILL');
      expect((await w.exited).signal).toBe('SIGKILL');
    });
    const scanner = (async () => {
      let scans = 0;
      while (running) scans += (await scanAllFiles(root)) > 0 ? 1 : 0;
      return scans;
    })();
    await Promise.all(kills).finally(() => (running = false));
    expect(await scanner).toBeGreaterThan(0);
  } finally {
    for (const w of writers) w.child.kill('SIGKILL');
    await Promise.all(writers.map((w) => w.exited));
  }
}

/** Registers this race's tests; `process-races.test.ts` runs all races one after another. */
export function sigkillSuite(): void {
  describe('a writer killed with SIGKILL mid-write', () => {
    it(
      `${WAVES} waves × ${WRITERS_PER_WAVE} writers killed at random points: every file always parses`,
      { timeout: 180_000 },
      async () => {
        const repo = await tempRepo('teamd-sigkill-');
        try {
          for (let w = 0; w < WAVES; w++) {
            await wave(repo.root, w);
            expect(await scanAllFiles(repo.root)).toBeGreaterThan(0);
            const tasks = await TaskStore.open(repo.root, { normalise: false });
            expect(tasks.problems()).toEqual([]);
            expect(tasks.list().length).toBeGreaterThanOrEqual(WRITERS_PER_WAVE * 3 * (w + 1));
            expect(await new MailboxStore(repo.root).problems()).toEqual([]);
            expect((await new CronStore(repo.root).list()).problems).toEqual([]);
          }
        } finally {
          await repo.cleanup();
        }
      },
    );
  });
}

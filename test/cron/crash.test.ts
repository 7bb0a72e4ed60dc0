import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from './support/harness.js';
import { harness, inbox, readJob, tempRepo, writeJob } from './support/harness.js';

const T0 = '2026-05-01T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const CHILD = fileURLToPath(new URL('./support/crash-child.ts', import.meta.url));

/** Runs a daemon on `root` that SIGKILLs itself at `mode`; resolves with how it ended. */
function crashAt(
  root: string,
  mode: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, root, mode, T0], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the daemon killed in the middle of a fire', () => {
  it.each([
    ['before-deliver', at(5), 0],
    ['after-deliver', at(5), 1],
    ['after-mark-delivered', null, 1],
  ] as const)(
    'killed %s: a new daemon on the same files delivers slot 5 exactly once',
    async (mode, pending, inboxBefore) => {
      const root = await tempRepo();
      await writeJob(root, { id: 'job', cron: '*/5 * * * * *', to: 'alice', timezone: 'UTC', createdAt: T0 });
      const ended = await crashAt(root, mode);
      expect(ended, ended.stderr).toMatchObject({ signal: 'SIGKILL' });
      expect(await readJob(root, 'job')).toMatchObject({ lastFired: at(5), pendingDelivery: pending });
      expect(await inbox(root, 'alice')).toHaveLength(inboxBefore);

      h = await harness(at(6), {}, root);
      await h.scheduler.start();
      expect(h.of('cron_fired')).toEqual([]);
      expect(h.of('cron_delivered')).toEqual(
        pending ? [expect.objectContaining({ slot: at(5), recovered: true })] : [],
      );
      expect((await readJob(root, 'job')).pendingDelivery).toBeNull();
      await h.advance(4000);
      await h.restart();
      await h.advance(5000);
      expect((await inbox(root, 'alice')).map((m) => m.slot)).toEqual([at(5), at(10), at(15)]);
    },
  );
});

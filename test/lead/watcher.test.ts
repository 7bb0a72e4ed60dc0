/**
 * The lead's watcher: one fs.watch per folder, hits per `<id>.json`, hidden
 * files (temp files, locks) ignored, a burst on one file coalesced into runs
 * that never overlap and end after the last write, and a folder replaced
 * under it watched again.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { idOfFileName, watchTeamFolders, type TeamWatcher, type WatchHit } from '../../src/lead/watcher.js';

let dir = '';
let watcher: TeamWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves when `pred` holds after a hit (each hit re-checks). */
function recorder() {
  const hits: WatchHit[] = [];
  const waiters: { pred: () => boolean; resolve: () => void }[] = [];
  const record = (h: WatchHit) => {
    hits.push(h);
    for (const w of [...waiters]) {
      if (!w.pred()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const when = (pred: () => boolean) =>
    new Promise<void>((resolve) => (pred() ? resolve() : waiters.push({ pred, resolve })));
  return { hits, record, when };
}

it('names ids only for visible .json files', () => {
  expect(idOfFileName('t1.json')).toBe('t1');
  expect(idOfFileName('.t1.json.123.abc.tmp')).toBeNull();
  expect(idOfFileName('.t1.json.lock')).toBeNull();
  expect(idOfFileName('notes.txt')).toBeNull();
  // A message in the spool names its recipient.
  expect(idOfFileName('ann@m-0mx1a2b3c-1f2e3d4c.json')).toBe('ann');
  expect(idOfFileName('.ann@m-0mx1a2b3c-1f2e3d4c.json.1.0.0.tmp')).toBeNull();
});

it('reports task, mail and cron files by id and ignores hidden ones', async () => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-watch-'));
  const r = recorder();
  watcher = await watchTeamFolders(dir, r.record, () => undefined);
  writeFileSync(join(dir, '.tasks', '.t1.json.tmp'), '{}');
  renameSync(join(dir, '.tasks', '.t1.json.tmp'), join(dir, '.tasks', 't1.json'));
  writeFileSync(join(dir, '.mailboxes', 'ann.json'), '[]');
  writeFileSync(join(dir, '.cron', 'nightly.json'), '{}');
  writeFileSync(join(dir, '.mailboxes', 'bob@m-0mx1a2b3c-1f2e3d4c.json'), '{}');
  await r.when(() => ['task/t1', 'mail/ann', 'mail/bob', 'cron/nightly'].every((k) => r.hits.some((h) => `${h.kind}/${h.id}` === k)));
  expect(r.hits.every((h) => !h.id.startsWith('.'))).toBe(true);
});

it('runs the handler for one file one at a time, and once more after a burst that came during a run', async () => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-watch-'));
  let running = 0;
  let overlapped = false;
  let release!: () => void;
  const firstRunHeld = new Promise<void>((resolve) => (release = resolve));
  const r = recorder();
  watcher = await watchTeamFolders(
    dir,
    async (h) => {
      running++;
      if (running > 1) overlapped = true;
      if (r.hits.length === 0) await firstRunHeld; // the first run is slow; writes pile up meanwhile
      running--;
      r.record(h);
    },
    () => undefined,
  );
  const file = join(dir, '.tasks', 'x.json');
  writeFileSync(file, '{"v":1}');
  for (let v = 2; v <= 20; v++) writeFileSync(file, `{"v":${v}}`);
  release();
  await r.when(() => r.hits.length >= 2);
  expect(overlapped).toBe(false);
});

it('keeps watching a folder that was removed and made again', async () => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-watch-'));
  const r = recorder();
  const errors: Error[] = [];
  watcher = await watchTeamFolders(dir, r.record, (e) => errors.push(e));
  rmSync(join(dir, '.tasks'), { recursive: true });
  mkdirSync(join(dir, '.tasks'));
  writeFileSync(join(dir, '.tasks', 'after.json'), '{}');
  await r.when(() => r.hits.some((h) => h.id === 'after'));
}, 20_000);

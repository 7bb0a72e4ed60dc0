/**
 * `teamd status` reads the board through BoardReadCache (issue 24): files
 * unchanged since the last run come from `.team/state/board-cache.json`.
 * Whatever happens to the files in between, the cached open must see what a
 * plain open sees.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sealedText, type Entry } from '../../../src/store/tasks/board-cache-file.js';
import { BoardReadCache, boardCacheOf } from '../../../src/store/tasks/board-cache.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo();
  mkdirSync(join(repo.root, '.team', 'state'), { recursive: true });
});
afterEach(async () => repo.cleanup());

const file = (id: string): string => join(repo.root, '.tasks', `${id}.json`);
/** Files written a minute ago (the cache keeps only settled files: see SETTLED_MS); `n` makes each time distinct. */
let n = 0;
const settle = (id: string): void => utimesSync(file(id), new Date(), new Date(Date.now() - 60_000 - ++n * 1_000));

async function cachedOpen(): Promise<TaskStore> {
  const readCache = BoardReadCache.forRepo(repo.root);
  const store = await TaskStore.open(repo.root, { normalise: false, readCache });
  await readCache.save();
  return store;
}

/** The cache file's entries (past its seal line). */
const cacheEntries = (): Record<string, Entry> =>
  JSON.parse(readFileSync(boardCacheOf(repo.root), 'utf8').split('\n')[1]!) as Record<string, Entry>;

/** What status shows of a board: every task and every problem. */
const view = (s: TaskStore) => ({ tasks: s.list(), problems: s.problems() });
const plainView = async () => view(await TaskStore.open(repo.root, { normalise: false }));

it('takes an unchanged file from the cache without reading it', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'first words' });
  settle('a');
  await cachedOpen(); // fills the cache
  // The cache's copy says otherwise than the unchanged file: only a cache hit shows it.
  const cache = cacheEntries();
  cache.a!.task.subject = 'from the cache';
  writeFileSync(boardCacheOf(repo.root), sealedText(Object.entries(cache)));
  expect((await cachedOpen()).get('a')?.subject).toBe('from the cache');
  utimesSync(file('a'), new Date(), new Date(Date.now() + 5_000)); // touched: read again
  expect((await cachedOpen()).get('a')?.subject).toBe('first words');
});

it('reads a changed file again, drops a removed one, and ignores a broken cache file', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'one' });
  await store.create({ id: 'b', subject: 'two' });
  settle('a');
  settle('b');
  await cachedOpen();
  await store.update('a', (t) => ({ ...t, subject: 'one, changed' }));
  settle('a');
  rmSync(file('b'));
  expect(view(await cachedOpen())).toEqual(await plainView());
  expect(Object.keys(cacheEntries())).toEqual(['a']);
  writeFileSync(boardCacheOf(repo.root), '{"a": {"stamp": 1}, "b": [');
  expect(view(await cachedOpen())).toEqual(await plainView());
});

type Step = { kind: 'write'; id: string; subject: string } | { kind: 'bad'; id: string } | { kind: 'remove'; id: string } | { kind: 'status' };
const ids = fc.constantFrom('t1', 't2', 't3', 't4');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), id: ids, subject: fc.string({ minLength: 1, maxLength: 12 }) }),
  fc.record({ kind: fc.constant('bad' as const), id: ids }),
  fc.record({ kind: fc.constant('remove' as const), id: ids }),
  fc.constant({ kind: 'status' as const }),
);

it('always sees what a plain read sees, whatever is written, broken or removed between runs', async () => {
  const store = await TaskStore.open(repo.root);
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 10 }), async (steps) => {
      const memory = new BoardReadCache(join(repo.root, '.tasks'), null); // top's: in the process, no file
      rmSync(join(repo.root, '.tasks'), { recursive: true, force: true });
      rmSync(boardCacheOf(repo.root), { force: true });
      mkdirSync(join(repo.root, '.tasks'));
      for (const s of steps) {
        if (s.kind === 'write') {
          const t = (await store.create({ id: `${s.id}x`, subject: s.subject })) as { ok: boolean };
          if (t.ok) writeFileSync(file(s.id), readFileSync(file(`${s.id}x`), 'utf8').replace(`"${s.id}x"`, `"${s.id}"`));
          rmSync(file(`${s.id}x`), { force: true });
          if (t.ok) settle(s.id);
        } else if (s.kind === 'bad') writeFileSync(file(s.id), '{"subject": ');
        else if (s.kind === 'remove') rmSync(file(s.id), { force: true });
        const plain = await plainView();
        expect(view(await cachedOpen())).toEqual(plain);
        expect(view(await TaskStore.open(repo.root, { normalise: false, readCache: memory }))).toEqual(plain);
        memory.endRun();
      }
    }),
    { numRuns: 15 },
  );
});

it('does not keep a file changed within the last second (a same-size write in place could keep its stamp)', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'fresh' });
  await cachedOpen();
  expect(existsSync(boardCacheOf(repo.root))).toBe(false); // nothing to keep: no file written
  settle('a');
  await cachedOpen();
  expect(Object.keys(cacheEntries())).toEqual(['a']);
});

it('takes cached tasks without checking them again only from a file whose seal matches (an edit is ignored whole)', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'on disk' });
  settle('a');
  await cachedOpen();
  const sealed = readFileSync(boardCacheOf(repo.root), 'utf8');
  const [seal, body] = sealed.split('\n') as [string, string];
  // Edited past its seal: a task the schema refuses (a number for a subject) must not reach status.
  writeFileSync(boardCacheOf(repo.root), `${seal}\n${body.replace('"on disk"', '42')}`);
  expect((await cachedOpen()).get('a')?.subject).toBe('on disk');
  // Unsealed (the old format: plain JSON) or truncated: ignored, the file read again.
  writeFileSync(boardCacheOf(repo.root), body.replace('"on disk"', '"old format"'));
  expect((await cachedOpen()).get('a')?.subject).toBe('on disk');
  writeFileSync(boardCacheOf(repo.root), sealed.slice(0, -3));
  expect(view(await cachedOpen())).toEqual(await plainView());
});

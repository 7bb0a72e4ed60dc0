/**
 * The memory folder's writes are fenced (issue 16): a writer stopped inside
 * the folder's lock past its staleness — a real process that SIGSTOPs itself
 * just before its write commits — loses the lock to another process, and when
 * continued its write fails as a lost race instead of overwriting the memory
 * (and the index) the other process wrote meanwhile.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { listMemories, writeMemory } from '../../../src/agent/memory/store.js';
import { useStalledHolder } from '../../support/race/stalled-holder.js';

const STALE_MS = 300;

const holder = useStalledHolder('teamd-memory-fence-', STALE_MS);

const memory = (name: string, body: string) => ({ name, description: `a fact`, type: 'project', body });

it('a memory writer stopped past the staleness does not overwrite the memory another process wrote meanwhile', async () => {
  const dir = join(holder.root, '.memory');
  expect((await writeMemory(dir, memory('before', 'written first'))).ok).toBe(true);
  await holder.stallInside('memory shared stalled-body');
  // takes the folder's lock over after STALE_MS
  expect((await writeMemory(dir, memory('shared', 'fresh body'), { staleMs: STALE_MS })).ok).toBe(true);
  expect((await writeMemory(dir, memory('other', 'also meanwhile'), { staleMs: STALE_MS })).ok).toBe(true);
  const stalled = await holder.resume();
  expect(stalled.ok).toBe(false);
  expect(stalled.error).toMatch(/lost race/);
  expect(readFileSync(join(dir, 'shared.md'), 'utf8')).toContain('fresh body');
  const { entries, problems } = await listMemories(dir);
  expect(entries.map((e) => e.name).sort()).toEqual(['before', 'other', 'shared']);
  expect(problems).toEqual([]);
  const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  for (const name of ['before', 'other', 'shared']) expect(index).toContain(name);
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import type { Task } from '../../../src/store/types.js';
import { raceScript, spawnTs } from '../../support/race/spawn-ts.js';
import { tempRepo } from '../temp-repo.js';

const WORKERS = 8;
const TASKS = 500;
const ROUNDS = 2;
const BLOCKED = 20;

const fullTask = (id: string, fields: Partial<Task> = {}): Task => ({
  id,
  subject: `task ${id}`,
  description: '',
  status: 'pending',
  owner: null,
  blockedBy: [],
  priority: 0,
  attempts: 0,
  lease: null,
  result: null,
  notes: [],
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

/** 500 claimable tasks, plus a gate only `nobody` may claim and 20 tasks waiting on it (never claimable here). */
async function seed(root: string): Promise<void> {
  const dir = join(root, '.tasks');
  await mkdir(dir, { recursive: true });
  const tasks = [
    ...Array.from({ length: TASKS }, (_, i) =>
      fullTask(`race-${String(i).padStart(3, '0')}`, { priority: i % 5 }),
    ),
    fullTask('gate', { owner: 'nobody' }),
    ...Array.from({ length: BLOCKED }, (_, i) => fullTask(`after-gate-${i}`, { blockedBy: ['gate'] })),
  ];
  await Promise.all(tasks.map((t) => writeFile(join(dir, `${t.id}.json`), JSON.stringify(t))));
}

type Worker = ReturnType<typeof spawnTs>;

/** One round: every worker opens the store on `root`, then all start claiming at once. */
async function race(workers: Worker[], root: string): Promise<Map<string, string[]>> {
  const seen = workers.map((w) => w.lines.length);
  const after = (i: number, prefix: string) => (line: string) =>
    line.startsWith(prefix) && workers[i]!.lines.indexOf(line, seen[i]) >= 0;
  for (const w of workers) w.child.stdin!.write(`open ${root}\n`);
  await Promise.all(workers.map((w, i) => w.waitForLine(after(i, 'ready'))));
  for (const w of workers) w.child.stdin!.write('go\n');
  const claims = new Map<string, string[]>();
  await Promise.all(
    workers.map(async (w, i) => {
      const line = await w.waitForLine(after(i, 'claimed '), 150_000);
      claims.set(`w${i}`, JSON.parse(line.slice('claimed '.length)) as string[]);
    }),
  );
  return claims;
}

async function checkRound(root: string, claims: Map<string, string[]>): Promise<void> {
  const all = [...claims.values()].flat();
  expect(all.length).toBe(TASKS);
  expect(new Set(all).size).toBe(TASKS);
  expect(all.every((id) => id.startsWith('race-'))).toBe(true);
  expect([...claims.values()].filter((ids) => ids.length > 0).length).toBeGreaterThan(1);
  const after = await TaskStore.open(root);
  for (const [owner, ids] of claims) {
    for (const id of ids)
      expect(after.get(id)).toMatchObject({ status: 'in_progress', owner, lease: { owner } });
  }
  expect(
    after
      .list({ status: 'pending' })
      .map((t) => t.id)
      .sort(),
  ).toEqual(['gate', ...Array.from({ length: BLOCKED }, (_, i) => `after-gate-${i}`)].sort());
  expect(after.problems()).toEqual([]);
}

/** Registers this race's tests; `process-races.test.ts` runs all races one after another. */
export function claimRaceSuite(): void {
  describe('claim race between processes', () => {
    it(
      `${WORKERS} processes × ${TASKS} tasks, ${ROUNDS} rounds: every ready task claimed exactly once`,
      { timeout: 180_000 },
      async () => {
        const workers = Array.from({ length: WORKERS }, (_, i) =>
          spawnTs(raceScript('claim-worker.ts'), [`w${i}`, i % 2 ? 'direct' : 'next']),
        );
        try {
          for (let round = 0; round < ROUNDS; round++) {
            const repo = await tempRepo('teamd-claim-race-');
            try {
              await seed(repo.root);
              await checkRound(repo.root, await race(workers, repo.root));
            } finally {
              await repo.cleanup();
            }
          }
        } finally {
          for (const w of workers) w.child.stdin!.end();
          await Promise.all(workers.map((w) => w.exited));
        }
      },
    );
  });
}

/**
 * The hot board's count bound (issue 24): finished tasks beyond the newest
 * `history.keepFinishedTasks` leave `.tasks/` whatever their age, so a burst
 * of work cannot grow the board; a task whose merge is still open stays.
 * The pure choice is checked on generated boards, the moves on a real store,
 * and a real lead keeps its board bounded while it works.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { archiveOldTasks } from '../../src/history/gc.js';
import { Oversight } from '../../src/lead/oversight.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { finishedToArchive, overflowAt } from '../../src/store/tasks/hot-board.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import type { Task, TaskStatus } from '../../src/store/types.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from '../e2e/support/harness.js';
import { tempRepo } from '../store/temp-repo.js';

const STATUSES: TaskStatus[] = ['pending', 'in_progress', 'completed', 'cancelled', 'failed'];
const FINISHED = new Set<TaskStatus>(['completed', 'cancelled']);
const at = (minute: number): string => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

const boardArb = fc
  .array(fc.record({ status: fc.constantFrom(...STATUSES), minute: fc.nat({ max: 600 }), held: fc.boolean() }), {
    maxLength: 40,
  })
  .map((rows) => rows.map((r, i) => ({ ...r, id: `t${i}` })));

describe('which finished tasks leave the board', () => {
  it('keeps at most `keep` unheld finished tasks, the newest; never moves live work or an open merge; moves every old one', () => {
    fc.assert(
      fc.property(boardArb, fc.nat({ max: 12 }), fc.nat({ max: 600 }), (rows, keep, cutoff) => {
        const tasks = rows.map((r) => ({ id: r.id, status: r.status, updatedAt: at(r.minute) }) as Task);
        const held = new Set(rows.filter((r) => r.held).map((r) => r.id));
        const picked = finishedToArchive(tasks, { before: Date.parse(at(cutoff)), keep, held });
        const byId = new Map(tasks.map((t) => [t.id, t]));
        for (const [id, stamp] of picked) {
          expect(FINISHED.has(byId.get(id)!.status) && !held.has(id)).toBe(true);
          expect(stamp).toBe(byId.get(id)!.updatedAt);
        }
        const left = tasks.filter((t) => FINISHED.has(t.status) && !held.has(t.id) && !picked.has(t.id));
        expect(left.length).toBeLessThanOrEqual(keep);
        for (const t of left) expect(Date.parse(t.updatedAt)).toBeGreaterThanOrEqual(Date.parse(at(cutoff)));
        const byCount = [...picked.keys()].map((id) => byId.get(id)!).filter((t) => Date.parse(t.updatedAt) >= Date.parse(at(cutoff)));
        for (const gone of byCount) for (const kept of left) expect(kept.updatedAt >= gone.updatedAt).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a lead archives in batches: the margin over `keep` is at least 10 and a twentieth', () => {
    expect([overflowAt(0), overflowAt(10), overflowAt(1_000), overflowAt(10_000)]).toEqual([10, 20, 1_050, 10_500]);
  });
});

describe('the count bound on a real store', () => {
  let repo: { root: string; cleanup: () => Promise<void> };
  beforeEach(async () => (repo = await tempRepo('teamd-hot-')));
  afterEach(() => repo.cleanup());

  /** `n` completed tasks, t0 the oldest, a minute apart; then `late` waiting on t0. */
  async function board(n: number): Promise<TaskStore> {
    let minute = 0;
    const store = await TaskStore.open(repo.root, { now: () => new Date(at(minute)) });
    for (let i = 0; i < n; i++, minute++) {
      expect((await store.create({ id: `t${i}`, subject: `task ${i}` })).ok).toBe(true);
      await store.claim(`t${i}`, 'w', 60_000);
      await store.complete(`t${i}`, 'w', 'done');
    }
    expect((await store.create({ id: 'late', subject: 'after t0', blockedBy: ['t0'] })).ok).toBe(true);
    return store;
  }

  it('moves the oldest beyond `keep` (not a held one), and what waited on them is still ready', async () => {
    const store = await board(30);
    const moved = await store.archiveFinished(new Date(0), { keep: 10, held: new Set(['t3']) });
    const expected = Array.from({ length: 20 }, (_, i) => `t${i}`).filter((id) => id !== 't3');
    expect(moved.sort()).toEqual([...expected].sort());
    const reopened = await TaskStore.open(repo.root);
    const live = reopened.list({ status: 'completed' }).map((t) => t.id);
    expect(live.sort()).toEqual(['t3', ...Array.from({ length: 10 }, (_, i) => `t${20 + i}`)].sort());
    expect(reopened.isReady('late')).toBe(true);
    expect((await reopened.archive.ids()).length).toBe(19);
  });

  it('gc holds back tasks whose merge is open, and goes by age alone when the merge queue cannot be read', async () => {
    const store = await board(6);
    const config = TeamConfigSchema.parse({ history: { keepFinishedTasks: 2, archiveTasksAfterMs: 365 * 86_400_000 } });
    const queue = join(repo.root, '.team', 'state', 'merge-queue.json');
    mkdirSync(join(repo.root, '.team', 'state'), { recursive: true });
    writeFileSync(queue, 'not json');
    expect(await archiveOldTasks(repo.root, config, store, { now: Date.parse(at(10)) })).toEqual([]);
    const entry = (taskId: string, state: string) => ({ taskId, branch: `teamd/${taskId}`, agent: 'w', subject: taskId, state, enqueuedAt: at(0), updatedAt: at(0) });
    writeFileSync(queue, JSON.stringify({ version: 1, integrationBranch: 'main', entries: [entry('t0', 'refused'), entry('t1', 'merged')] }));
    const moved = await archiveOldTasks(repo.root, config, store, { now: Date.parse(at(10)) });
    expect(moved.sort()).toEqual(['t1', 't2', 't3']);
  });
});

describe('a running lead', () => {
  const team = teamPerTest();
  it('keeps its board near `keepFinishedTasks` while a burst of tasks completes, and finishes every task', async () => {
    const repo = team.repo(
      makeTeamRepo({
        script: genericTaskScript(),
        config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'off' }, history: { keepFinishedTasks: 2 } },
      }),
    );
    const TOTAL = 30;
    for (let i = 0; i < TOTAL; i++) repo.writeTask(`t${i}`, { subject: `make t${i}` });
    repo.writeTask('last', { subject: 'make last', blockedBy: ['t0', 't1', 't2'] });
    const started = await startLead(repo);
    const lead = team.lead(started.lead);
    const finished = (): number => lead.tasks.list({ status: 'completed' }).length;
    let most = 0;
    const off = lead.onEvent(() => (most = Math.max(most, finished())));
    const completed = () => started.events.filter((e) => e.type === 'task_completed').length;
    await until(lead, () => completed() === TOTAL + 1, 120_000, 'every task completed').catch(async (e) => {
      const st = await TaskStore.open(repo.dir);
      const board = st.list().map((t) => `${t.id}:${t.status}:${t.owner ?? '-'}`).join(' ');
      const live = `lead sees last ready ${lead.tasks.isReady('last')}, blockers ${lead.tasks.blockers('last').join(',')}; fresh store: ready ${st.isReady('last')}, blockers ${st.blockers('last').join(',')}`;
      console.error(`${completed()} completed; board ${board}; ${(await st.archive.ids()).length} archived; ${live}`);
      throw e;
    });
    off();
    await lead.stop('every task done'); // waits for a pass of moves still running
    // The mark, plus what two teammates finish while one pass of moves runs: far below the 31 tasks.
    expect(most).toBeLessThanOrEqual(overflowAt(2) + 8);
    const store = await TaskStore.open(repo.dir);
    const archived = await store.archive.ids();
    expect(archived.length).toBeGreaterThanOrEqual(TOTAL + 1 - overflowAt(2) - 8);
    expect([...archived, ...store.list().map((t) => t.id)].sort()).toEqual([...Array.from({ length: TOTAL }, (_, i) => `t${i}`), 'last'].sort());
  }, 150_000);
});

describe('the lead between gc runs', () => {
  let repo: { root: string; cleanup: () => Promise<void> };
  beforeEach(async () => (repo = await tempRepo('teamd-hot-held-')));
  afterEach(() => repo.cleanup());

  it('a pass that can move nothing (every finished task held by an open merge) is not run again and again', async () => {
    const store = await TaskStore.open(repo.root);
    const entries = [];
    for (let i = 0; i < overflowAt(0) + 2; i++) {
      await store.create({ id: `h${i}`, subject: `held ${i}` });
      await store.claim(`h${i}`, 'w', 60_000);
      await store.complete(`h${i}`, 'w', 'done');
      entries.push({ taskId: `h${i}`, branch: `teamd/h${i}`, agent: 'w', subject: 'x', state: 'refused', enqueuedAt: at(0), updatedAt: at(0) });
    }
    mkdirSync(join(repo.root, '.team', 'state'), { recursive: true });
    writeFileSync(join(repo.root, '.team', 'state', 'merge-queue.json'), JSON.stringify({ version: 1, integrationBranch: 'main', entries }));
    const config = TeamConfigSchema.parse({ history: { keepFinishedTasks: 0 } });
    let passes = 0;
    const oversight = new Oversight({
      repoRoot: repo.root, config, mailbox: new MailboxStore(repo.root), log: () => undefined,
      retireTeammate: () => undefined, stopTeam: () => undefined,
      rereadConfig: async () => ({ ok: true, config }), tasks: store,
    });
    const archive = store.archiveFinished.bind(store);
    store.archiveFinished = (...a) => (passes++, archive(...a));
    await oversight.archiveOverflow();
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r)); // room for a re-run to start
    await oversight.close();
    expect(passes).toBe(1);
    expect(store.list({ status: 'completed' }).length).toBe(overflowAt(0) + 2);
  });
});

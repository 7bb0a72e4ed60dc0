/**
 * The lead's stall check from its in-memory progress: a model call or an
 * event of the teammate counts, and the check reads neither the event log nor
 * the transcripts (here the log is a FIFO, which any read would block on or
 * refuse, and the transcripts are gone). And `top`'s board re-reads only the
 * task files its watcher named.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveBoard } from '../../src/dashboard/live-board.js';
import { ProgressTimes } from '../../src/lead/progress.js';
import { reportStalled } from '../../src/notify/stall.js';
import { eventLogPath } from '../../src/observe/event-log.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { buildTeam, type TeamFixture } from '../dashboard/support/team-fixture.js';

let team: TeamFixture;
afterEach(() => team.close());

describe('the stall check from the lead’s memory', () => {
  it('a model call just now is progress; silence since an old event is a stall', async () => {
    team = buildTeam('stalled');
    rmSync(eventLogPath(team.root));
    execFileSync('mkfifo', [eventLogPath(team.root)]);
    rmSync(join(team.root, '.team', 'state', 'transcripts'), { recursive: true, force: true });
    const progress = new ProgressTimes();
    progress.onEvent({
      ts: new Date(team.now - 600_000).toISOString(),
      type: 'notice',
      agent: 'worker-1',
      message: 'x',
    });
    const quiet = await reportStalled(team.root, team.config, {
      now: team.now,
      progress: progress.snapshot(),
    });
    expect(quiet.stalled.map((s) => [s.agent, s.reason])).toEqual([
      ['worker-1', 'no_progress'],
      ['worker-2', 'no_heartbeat'],
    ]);
    progress.note('worker-1', team.now - 1000);
    const busy = await reportStalled(team.root, team.config, {
      now: team.now,
      progress: progress.snapshot(),
    });
    expect(busy.stalled.map((s) => s.agent)).toEqual(['worker-2']);
  });
});

describe('top’s live board', () => {
  it('reads the board once, then only the files the watcher named', async () => {
    team = buildTeam('working');
    const board = new LiveBoard(team.root);
    const first = await board.current(true);
    const reads = first.readCount;
    expect(reads).toBeGreaterThan(2);
    const writer = await TaskStore.open(team.root);
    await writer.create({ id: 'fresh', subject: 'a new task' });
    board.changed(join(team.root, '.tasks'), 'fresh.json');
    const again = await board.current(true);
    expect(again).toBe(first);
    expect(again.readCount - reads).toBe(1);
    expect(again.get('fresh')?.subject).toBe('a new task');
    expect(await board.current(false)).not.toBe(first); // no watcher: read whole
  });
});

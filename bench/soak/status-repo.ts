/**
 * A repository to time `teamd status` on (issue 24): the soak's history
 * (history.ts: 1 M events, 100 k archived tasks, 100 k archived messages)
 * plus a large live board — `board` completed tasks updated an hour ago, too
 * fresh for the archive, and a few open ones (pending, in progress, failed,
 * a pending task blocked by the failed one) so every kind of status line shows.
 *
 *   node --import tsx bench/soak/status-repo.ts <dir> [--small]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeBenchRepo, oneTurnScript, teammates } from '../support/team.js';
import { writeHistory } from './history.js';

const small = process.argv.includes('--small');
const BOARD = small ? 200 : 10_000;

function liveTask(id: string, status: string, extra: Record<string, unknown> = {}): string {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  return `${JSON.stringify({
    id, subject: `live task ${id}`, description: 'a task on the board', status,
    owner: status === 'pending' ? null : 'w1', blockedBy: [], priority: 0, attempts: 1, lease: null,
    result: status === 'completed' ? { summary: `done ${id}` } : status === 'failed' ? { summary: 'gave up', error: `broke ${id}` } : null,
    notes: [], metadata: {}, createdAt: at, updatedAt: at, ...extra,
  }, null, 2)}\n`;
}

function writeBoard(dir: string): void {
  const tasks = join(dir, '.tasks');
  for (let i = 0; i < BOARD; i++) writeFileSync(join(tasks, `t${i}.json`), liveTask(`t${i}`, 'completed'));
  for (let i = 0; i < 10; i++) writeFileSync(join(tasks, `p${i}.json`), liveTask(`p${i}`, 'pending', { blockedBy: [`t${i}`] }));
  for (let i = 0; i < 5; i++) writeFileSync(join(tasks, `w${i}.json`), liveTask(`w${i}`, 'in_progress'));
  writeFileSync(join(tasks, 'f0.json'), liveTask('f0', 'failed'));
  writeFileSync(join(tasks, 'b0.json'), liveTask('b0', 'pending', { blockedBy: ['f0', 'h5', 'p1'] }));
  writeFileSync(join(tasks, 'c0.json'), liveTask('c0', 'cancelled'));
}

const repo = await makeBenchRepo(oneTurnScript(), { teammates: teammates(4) });
await writeHistory(repo.dir, small
  ? { events: 2_000, cronFires: 20, tasks: 200, gcTasks: 0, messages: 200 }
  : { events: 1_000_000, cronFires: 10_000, tasks: 100_000, gcTasks: 0, messages: 100_000 });
writeBoard(repo.dir);
const target = process.argv[2];
if (target) {
  const { renameSync } = await import('node:fs');
  renameSync(repo.dir, target);
}
process.stdout.write(`${target ?? repo.dir}\n`);

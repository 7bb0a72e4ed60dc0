/**
 * The repository `teamd top`'s memory is measured on (issue 24): the soak's
 * weeks of history (bench/soak/history.ts: 1,000,000 events, 100,000 archived
 * tasks and messages) with 10,000 completed tasks still on the board, plus
 * 20,000 finished transcript sessions (5,000 in each of 4 agents, one mail
 * batch each, as the teammates write them), all dated a day back.
 *
 *   node --import tsx bench/soak/top-repo.ts [--small]   (prints the folder; the caller removes it)
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeBenchRepo, oneTurnScript, teammates } from '../support/team.js';
import { writeHistory, type HistorySize } from './history.js';
import { sessionLines } from './top-sessions.js';

const small = process.argv.includes('--small');
const SIZE: HistorySize = small
  ? { events: 10_000, cronFires: 100, tasks: 1_000, gcTasks: 100, messages: 1_000 }
  : { events: 1_000_000, cronFires: 10_000, tasks: 100_000, gcTasks: 10_000, messages: 100_000 };
const SESSIONS_PER_AGENT = small ? 50 : 5_000;
const AGENTS = ['w1', 'w2', 'w3', 'w4'];
const repo = await makeBenchRepo(oneTurnScript(), {
  teammates: teammates(4),
  history: { rotateBytes: 2 ** 40, rotateAfterMs: 2 ** 40 },
});
await writeHistory(repo.dir, SIZE);
const day = new Date(Date.now() - 86_400_000);
for (const agent of AGENTS) {
  const dir = join(repo.dir, '.team', 'state', 'transcripts', agent);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < SESSIONS_PER_AGENT; i++) {
    const file = join(dir, `${agent}-s${i}.jsonl`);
    const at = new Date(day.getTime() + i * 1_000);
    writeFileSync(file, sessionLines(agent, i, at.toISOString()));
    utimesSync(file, at, at);
  }
}
console.log(repo.dir);

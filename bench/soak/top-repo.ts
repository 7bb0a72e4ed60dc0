/**
 * The repository `teamd top`'s memory is measured on (issue 24): the soak's
 * weeks of history (bench/soak/history.ts: 1,000,000 events, 100,000 archived
 * tasks and messages) with 10,000 completed tasks still on the board, plus
 * 20,000 finished transcript sessions (5,000 in each of 4 agents, one mail
 * batch each, as the teammates write them), all dated a day back.
 *
 *   node --import tsx bench/soak/top-repo.ts [--small] [--sessions N]   (prints the folder; the caller removes it)
 *
 * `--sessions N`: N sessions per agent (25,000: the ~100,000 the full soak's 100,000 messages leave).
 */
import { makeBenchRepo, oneTurnScript, teammates } from '../support/team.js';
import { writeHistory, type HistorySize } from './history.js';
import { writeSessions } from './sessions.js';

const small = process.argv.includes('--small');
const SIZE: HistorySize = small
  ? { events: 10_000, cronFires: 100, tasks: 1_000, gcTasks: 100, messages: 1_000 }
  : { events: 1_000_000, cronFires: 10_000, tasks: 100_000, gcTasks: 10_000, messages: 100_000 };
const sessionsAt = process.argv.indexOf('--sessions');
const SESSIONS_PER_AGENT = sessionsAt >= 0 ? Number(process.argv[sessionsAt + 1]) : small ? 50 : 5_000;
const AGENTS = ['w1', 'w2', 'w3', 'w4'];
const repo = await makeBenchRepo(oneTurnScript(), {
  teammates: teammates(4),
  history: { rotateBytes: 2 ** 40, rotateAfterMs: 2 ** 40 },
});
await writeHistory(repo.dir, SIZE);
writeSessions(repo.dir, AGENTS, SESSIONS_PER_AGENT, new Date(Date.now() - 86_400_000));
console.log(repo.dir);

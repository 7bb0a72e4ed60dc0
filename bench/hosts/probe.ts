/**
 * One measurement of bench/hosts in a fresh process (so RSS is this host's
 * alone): a team of `count` teammates on `host`, from dist/.
 *   node --import tsx probe.ts '<host config JSON>' <count> <tasks>
 * Prints one JSON line: start → all idle, RSS of the lead and its
 * descendants when idle, claim → first model request per task (wall-clock ms), and the gap
 * between consecutive model requests of one multi-turn task (a tool turn:
 * the teammate's work plus two messages over its channel).
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { loadDaemon } from '../support/dist.js';
import { allIdle, firstUserText, makeBenchRepo, observeModel, startTeam, teammates, untilEvent } from '../support/team.js';

const [hostJson = '{"kind":"thread"}', countArg = '2', tasksArg = '8'] = process.argv.slice(2);
const host = JSON.parse(hostJson) as { kind: string };
const count = Number(countArg);
const taskCount = Number(tasksArg);
const TURNS = 10;

const turns = Array.from({ length: TURNS }, (_, turn) => ({
  conversation: 'Task (\\S+):',
  turn,
  times: 'always' as const,
  content: [{ type: 'tool_use' as const, name: 'read', input: { file_path: '.gitignore' } }],
}));
const script: ScriptInput = {
  rules: [
    ...turns.map((r) => ({ ...r, conversation: 'Task (long\\S*):' })),
    { conversation: 'Task (long\\S*):', turn: TURNS, times: 'always' as const, content: [{ type: 'text', text: 'done $1' }] },
    { conversation: 'Task (\\S+):', turn: 0, times: 'always' as const, content: [{ type: 'text', text: 'done $1' }] },
    { conversation: 'You have new messages', times: 'always' as const, content: [{ type: 'text', text: 'Noted.' }] },
  ],
};

/** RSS in MB of `pid` and every process below it (teammate processes, sandboxes). */
function treeRssMB(pid: number): number {
  const parentOf = new Map<number, number>();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const ppid = /PPid:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
      if (ppid) parentOf.set(Number(p), Number(ppid));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (p: number): boolean => p === pid || (parentOf.has(p) && p > 1 && inTree(parentOf.get(p)!));
  let kb = 0;
  for (const p of parentOf.keys()) {
    if (!inTree(p)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

const daemon = await loadDaemon();
// Every host works in per-teammate worktrees: the sandbox needs one (it makes the repository read-only), and the
// same mode for all keeps the rows comparable.
const repo = await makeBenchRepo(script, { teammates: teammates(count), host, worktrees: { mode: 'per-teammate' } });
const began = performance.now();
const team = await startTeam(daemon, repo, 1_000);
await allIdle(team);
const startMs = performance.now() - began;
global.gc?.();
const rssMB = treeRssMB(process.pid);

if (count === 0) {
  await team.stop();
  await repo.close();
  console.log(JSON.stringify({ startMs, rssMB, claimToFirst: [], turnGaps: [] }));
  process.exit(0);
}
const claimedAt = new Map<string, number>();
const firstRequest = new Map<string, number>();
const longRequests: number[] = [];
// The claim's own time (the teammate stamps its event; out of process it reaches the lead later), in wall-clock ms.
team.on((e) => {
  if (e.type === 'task_claimed') claimedAt.set(e.task, Date.parse(e.ts));
});
observeModel(team, repo.model, (request, at) => {
  const id = /Task (\S+):/.exec(firstUserText(request))?.[1];
  if (!id) return;
  if (!firstRequest.has(id)) firstRequest.set(id, Date.now());
  if (id === 'long') longRequests.push(at);
});
const claimToFirst: number[] = [];
for (let i = 0; i < taskCount; i++) {
  const id = `t${i}`;
  await team.lead.tasks.create({ id, subject: `task ${i}` });
  await untilEvent(team, () => team.lead.tasks.get(id)?.status === 'completed', 60_000, `${id} done`);
  claimToFirst.push(firstRequest.get(id)! - claimedAt.get(id)!);
}
await team.lead.tasks.create({ id: 'long', subject: 'many turns' });
await untilEvent(team, () => team.lead.tasks.get('long')?.status === 'completed', 120_000, 'the long task');
const turnGaps = longRequests.slice(1).map((at, i) => at - longRequests[i]!);
await team.stop();
await repo.close();
console.log(JSON.stringify({ startMs, rssMB, claimToFirst, turnGaps }));

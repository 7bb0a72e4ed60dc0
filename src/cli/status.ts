import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { readTeamStatus, type TeamStatus } from '../observe/status.js';
import { fail } from './cli-error.js';
import { oneLine, printJson, printLine, printTable } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { failedLines, failureReasons, waitingText } from './status-tasks.js';

export function registerStatusCommand(program: Command): void {
  addDirOption(
    program
      .command('status')
      .description('teammates, tasks, inboxes, cron, merges and approvals at a glance'),
  )
    .option('--json', 'print JSON')
    .action(status);
}

async function status(options: DirOption & { json?: boolean }): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) fail(loaded.error);
  const s = await readTeamStatus(repoRoot, loaded.config);
  if (options.json) return printJson(s);
  printStatus(s, await failureReasons(repoRoot, s.tasks.list.filter((t) => t.status === 'failed').map((t) => t.id)));
}

const age = (ms: number | null): string =>
  ms === null ? '-' : ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;

/** The status files count from the daemon's start; `top` and `cost` read the transcripts (all time). */
const SINCE_START =
  '(turns, tokens and cost since the daemon started; tokens in = the whole prompt, cache included; all time: teamd cost)';

export function printStatus(s: TeamStatus, failureReasonsById: ReadonlyMap<string, string> = new Map()): void {
  printLine(s.lead.running ? `lead: running (pid ${s.lead.pid})` : 'lead: not running');
  printLine('');
  printTable(
    ['TEAMMATE', 'STATE', 'TASK', 'HEARTBEAT', 'TURNS', 'TOKENS IN/OUT', 'COST'],
    s.teammates.map((t) => [
      t.name,
      t.state,
      t.task ?? '-',
      age(t.heartbeatAgeMs),
      String(t.turns),
      `${t.tokens.input + t.tokens.cacheRead + t.tokens.cacheWrite}/${t.tokens.output}`,
      `$${t.costUsd.toFixed(4)}`,
    ]),
  );
  if (s.teammates.length) printLine(SINCE_START);
  const c = s.tasks.counts;
  printLine(
    `\ntasks: ${c.pending} pending, ${c.in_progress} in progress, ${c.completed} completed, ${c.failed} failed, ${c.cancelled} cancelled`,
  );
  const byId = new Map(s.tasks.list.map((t) => [t.id, t]));
  for (const t of s.tasks.list.filter((x) => x.status === 'pending' || x.status === 'in_progress')) {
    const why =
      t.status === 'pending' ? waitingText(t, byId) : `${t.owner ?? '?'}${t.merge ? `, merge ${t.merge}` : ''}`;
    printLine(`  ${t.id} [${t.status}] ${oneLine(t.subject, 50)} — ${why}`);
  }
  for (const line of failedLines(s.tasks.list, failureReasonsById)) printLine(`  ${line}`);
  for (const p of s.tasks.problems)
    printLine(`  problem: ${p.file}${p.field ? ` ${p.field}` : ''}: ${p.message}`);
  const inboxes = Object.entries(s.inboxes).filter(([, n]) => n > 0);
  printLine(`\ninboxes: ${inboxes.length ? inboxes.map(([a, n]) => `${a} ${n}`).join(', ') : 'all empty'}`);
  if (s.cron.length)
    printLine(
      `cron: ${s.cron.map((j) => `${j.id} → ${j.to} next ${j.next ?? (j.done ? 'done' : '-')}`).join('; ')}`,
    );
  const queued = s.merges.filter(
    (m) => m.state === 'queued' || m.state === 'merging' || m.state === 'refused',
  );
  if (queued.length) printLine(`merges: ${queued.map((m) => `${m.taskId} ${m.state}`).join(', ')}`);
  if (s.approvals.length) {
    printLine('\nwaiting for you (teamd approve <id> / teamd reject <id>):');
    for (const a of s.approvals) printLine(`  ${a.id} ${a.agent} ${a.kind}: ${oneLine(a.summary, 60)}`);
  }
}

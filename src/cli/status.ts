import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { TeamConfigSchema } from '../config/schema.js';
import { pauseLine } from '../lead/pause-file.js';
import { readTeamStatus, type TeamStatus } from '../observe/status.js';
import { stuckLocks, type StuckLock } from '../store/lock-holder.js';
import { formatProblem } from '../store/problems.js';
import { oneLine, printJson, printLine, printRecordLine, printTable } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { configProblem } from './config-problem.js';
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
  // A broken config is one more problem to show, not a reason to show nothing: the files say the rest.
  const loaded = await loadConfig(repoRoot);
  const s = await readTeamStatus(repoRoot, loaded.ok ? loaded.config : TeamConfigSchema.parse({}));
  if (!loaded.ok) s.problems.unshift(configProblem(repoRoot, loaded.error));
  const locks = stuckLocks(repoRoot);
  if (options.json) return printJson({ ...s, stuckLocks: locks });
  printStatus(
    s,
    await failureReasons(
      repoRoot,
      s.tasks.list.filter((t) => t.status === 'failed').map((t) => t.id),
    ),
  );
  printStuckLocks(locks);
}

/** Locks no writer takes over by itself (see `stuckLocks`): claims and sends on those files fail as busy. */
function printStuckLocks(locks: readonly StuckLock[]): void {
  for (const l of locks) printRecordLine(`stuck lock: ${l.file}: ${l.message}`);
}

/** How many problems a status line shows before "and N more" (ids: see status-tasks.ts). */
const SHOWN_PROBLEMS = 20;

function printProblems(problems: readonly { file: string; field?: string; message: string }[]): void {
  for (const p of problems.slice(0, SHOWN_PROBLEMS))
    printRecordLine(`  problem: ${oneLine(formatProblem(p), 300)}`);
  if (problems.length > SHOWN_PROBLEMS)
    printLine(`  … and ${problems.length - SHOWN_PROBLEMS} more problem(s) (teamd validate lists them all)`);
}

const age = (ms: number | null): string =>
  ms === null ? '-' : ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;

/** The status files count from the daemon's start; `top` and `cost` read the transcripts (all time). */
const SINCE_START =
  '(turns, tokens and cost since the daemon started; tokens in = the whole prompt, cache included; all time: teamd cost)';

export function printStatus(
  s: TeamStatus,
  failureReasonsById: ReadonlyMap<string, string> = new Map(),
): void {
  if (s.problems.length) {
    printLine('problems outside .tasks/:');
    printProblems(s.problems);
    printLine('');
  }
  printLine(s.lead.running ? `lead: running (pid ${s.lead.pid})` : 'lead: not running');
  if (s.lead.paused) printRecordLine(`team ${pauseLine(s.lead.paused)}`);
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
      t.status === 'pending'
        ? waitingText(t, byId)
        : `${t.owner ?? '?'}${t.merge ? `, merge ${t.merge}` : ''}`;
    printRecordLine(`  ${t.id} [${t.status}] ${oneLine(t.subject, 50)} — ${why}`);
  }
  for (const line of failedLines(s.tasks.list, failureReasonsById)) printRecordLine(`  ${line}`);
  printProblems(s.tasks.problems);
  const inboxes = Object.entries(s.inboxes).filter(([, n]) => n > 0);
  printLine('');
  printRecordLine(`inboxes: ${inboxes.length ? inboxes.map(([a, n]) => `${a} ${n}`).join(', ') : 'all empty'}`);
  if (s.cron.length)
    printRecordLine(
      `cron: ${s.cron.map((j) => `${j.id} → ${j.to} next ${j.next ?? (j.done ? 'done' : '-')}`).join('; ')}`,
    );
  const queued = s.merges.filter(
    (m) => m.state === 'queued' || m.state === 'merging' || m.state === 'refused',
  );
  if (queued.length) printRecordLine(`merges: ${queued.map((m) => `${m.taskId} ${m.state}`).join(', ')}`);
  if (s.approvals.length) {
    printLine('\nwaiting for you (teamd approve <id> / teamd reject <id>):');
    for (const a of s.approvals) printRecordLine(`  ${a.id} ${a.agent} ${a.kind}: ${oneLine(a.summary, 60)}`);
  }
}

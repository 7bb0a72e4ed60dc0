import { execFileSync } from 'node:child_process';
import { readJson } from '../store/json-file.js';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { cleanWorktrees } from '../git/hygiene.js';
import { mergeQueuePath, readMergeQueueFile } from '../git/merge-queue-file.js';
import type { CleanReport, MergeEntry, MergeEntryState, WorktreeRecord } from '../git/types.js';
import { Worktrees } from '../git/worktrees.js';
import { DroppedTaskSchema, ID_PATTERN, TaskSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { oneLine, printJson, printLine, printRecordLine, printTable } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

interface JsonOption extends DirOption {
  json?: boolean;
}
interface CleanOptions extends JsonOption {
  force?: boolean;
  deleteMergedBranches?: boolean;
}

/** A worktree as `teamd worktrees` shows it: the git facts plus its task's and merge's state. */
export interface WorktreeRow extends WorktreeRecord {
  /** The task file's status, `missing` (no file), or `invalid` (a file that does not parse). */
  taskStatus: string | null;
  mergeState: MergeEntryState | null;
}

export function registerWorktreeCommands(program: Command): void {
  const worktrees = addDirOption(
    program
      .command('worktrees')
      .description('list the worktrees under .worktrees/: task, branch, state, size'),
  )
    .option('--json', 'print JSON')
    .action(listWorktrees);
  // `--dir` and `--json` are the parent's: commander gives them to it wherever they appear.
  worktrees
    .command('clean')
    .description('remove the worktrees of completed or cancelled tasks (accepts --dir and --json)')
    .option('--force', 'also remove those with uncommitted changes (the changes are lost)')
    .option('--delete-merged-branches', 'also delete their branches once merged into the integration branch')
    .action((_options: CleanOptions, command: Command) => cleanFinished(command.optsWithGlobals()));
  addDirOption(program.command('merge-queue').description('show what is queued, merging, merged and refused'))
    .option('--json', 'print JSON')
    .action(showMergeQueue);
}

async function listWorktrees(options: JsonOption): Promise<void> {
  const rows = await worktreeRows(mainCheckout(options));
  if (options.json) return printJson(rows);
  if (rows.length === 0) return printLine('no worktrees under .worktrees/');
  printTable(
    ['WORKTREE', 'BRANCH', 'TASK', 'MERGE', 'CHANGES', 'SIZE'],
    rows.map((r) => [
      worktreeName(r),
      r.branch ?? '(detached)',
      r.taskStatus ?? '-',
      r.mergeState ?? '-',
      r.dirty ? 'uncommitted' : 'clean',
      formatBytes(r.sizeBytes),
    ]),
  );
}

async function cleanFinished(options: CleanOptions): Promise<void> {
  const report = await cleanFinishedWorktrees(mainCheckout(options), options);
  if (options.json) return printJson(report);
  for (const id of report.removed) printLine(`removed .worktrees/${id}`);
  for (const kept of report.kept) printRecordLine(`kept .worktrees/${kept.taskId}: ${kept.reason}`);
  for (const branch of report.deletedBranches) printLine(`deleted branch ${branch}`);
  for (const e of report.errors) printRecordLine(`failed .worktrees/${e.taskId}: ${e.error}`);
  printLine(cleanSummary(report));
  if (report.errors.length > 0) process.exitCode = 1;
}

/** The last line of `worktrees clean`: what it did, also when that was nothing. */
export function cleanSummary(report: CleanReport): string {
  const { removed, kept, deletedBranches, errors } = report;
  if (!removed.length && !kept.length && !deletedBranches.length && !errors.length)
    return 'nothing to clean: no worktree of a completed or cancelled task under .worktrees/';
  const n = (count: number, what: string): string => `${count} ${what}${count === 1 ? '' : 's'}`;
  const parts = [`removed ${n(removed.length, 'worktree')}`, `kept ${kept.length}`];
  if (deletedBranches.length) parts.push(`deleted ${n(deletedBranches.length, 'branch')}`.replace('branchs', 'branches'));
  if (errors.length) parts.push(`${errors.length} failed`);
  return `${parts.join(', ')}`;
}

async function showMergeQueue(options: JsonOption): Promise<void> {
  const entries = await mergeQueueEntries(mainCheckout(options));
  if (options.json) return printJson(entries);
  for (const line of formatMergeQueue(entries)) printRecordLine(line);
}

/** Every worktree with its task's status (from `.tasks/<id>.json`) and its merge queue state. */
export async function worktreeRows(repoRoot: string): Promise<WorktreeRow[]> {
  const worktrees = new Worktrees({ repoRoot, integrationBranch: await integrationBranchOf(repoRoot) });
  const listed = await worktrees.list();
  if (!listed.ok) fail(listed.error);
  const merges = new Map((await mergeQueueEntries(repoRoot)).map((e) => [e.taskId, e.state]));
  return Promise.all(
    listed.value.map(async (w) => ({
      ...w,
      taskStatus: w.taskId ? await readTaskStatus(repoRoot, w.taskId) : null,
      mergeState: w.taskId ? (merges.get(w.taskId) ?? null) : null,
    })),
  );
}

/** Removes the worktrees whose task file says `completed` or `cancelled`. */
export async function cleanFinishedWorktrees(
  repoRoot: string,
  options: { force?: boolean; deleteMergedBranches?: boolean } = {},
): Promise<CleanReport> {
  const worktrees = new Worktrees({ repoRoot, integrationBranch: await integrationBranchOf(repoRoot) });
  const isFinished = async (taskId: string): Promise<boolean> =>
    ['completed', 'cancelled'].includes(await readTaskStatus(repoRoot, taskId));
  const cleaned = await cleanWorktrees(worktrees, { isFinished, ...options });
  return cleaned.ok ? cleaned.value : fail(cleaned.error);
}

/** The merge queue as `.team/state/merge-queue.json` holds it (empty when there is none). */
export async function mergeQueueEntries(repoRoot: string): Promise<MergeEntry[]> {
  const read = await readMergeQueueFile(mergeQueuePath(repoRoot), await integrationBranchOf(repoRoot));
  return read.ok ? read.value.entries : fail(read.error);
}

/** People-readable merge queue, grouped by state; refusals carry their reason and the output tail. */
export function formatMergeQueue(entries: readonly MergeEntry[]): string[] {
  const lines: string[] = [];
  for (const state of ['queued', 'merging', 'merged', 'refused'] as const) {
    const group = entries.filter((e) => e.state === state);
    lines.push(`${state} (${group.length})`);
    for (const entry of group) lines.push(...formatEntry(entry));
  }
  const cancelled = entries.filter((e) => e.state === 'cancelled');
  if (cancelled.length) lines.push(`cancelled (${cancelled.length})`, ...cancelled.flatMap(formatEntry));
  return lines;
}

function formatEntry(entry: MergeEntry): string[] {
  const head = `  ${entry.taskId}  ${entry.branch}  by ${entry.agent}  ${oneLine(entry.subject, 60)}`;
  if (entry.state === 'merged') return [`${head}  → ${entry.mergeCommit?.slice(0, 12) ?? '?'}`];
  if (entry.state !== 'refused' || !entry.refusal) return [head];
  const { reason, conflictFiles, outputTail, message } = entry.refusal;
  const detail =
    reason === 'conflict' ? `conflict in ${conflictFiles.join(', ')}` : `${reason}: ${oneLine(message, 100)}`;
  const tail = reason === 'verify_failed' ? outputTail.trimEnd().split('\n').slice(-10) : [];
  return [head, `    ${detail}`, ...tail.map((l) => `    | ${l}`)];
}

/**
 * Reads only the status of `.tasks/<id>.json`: a full task (TaskSchema) or a
 * file a person dropped with just a subject (pending until the lead fills it in).
 */
export async function readTaskStatus(repoRoot: string, taskId: string): Promise<string> {
  if (!ID_PATTERN.test(taskId)) return 'invalid';
  // Through the safe reader: a FIFO or a link to /dev/zero in `.tasks/` must not hang or fill this command.
  const json = await readJson(join(repoRoot, '.tasks', `${taskId}.json`), join('.tasks', `${taskId}.json`));
  if (json.kind !== 'ok') return json.kind;
  const raw = json.value;
  const full = TaskSchema.safeParse(raw);
  if (full.success) return full.data.status;
  const dropped = DroppedTaskSchema.safeParse(raw);
  return dropped.success ? (dropped.data.status ?? 'pending') : 'invalid';
}

async function integrationBranchOf(repoRoot: string): Promise<string> {
  const loaded = await loadConfig(repoRoot);
  return loaded.ok ? loaded.config.worktrees.integrationBranch : fail(loaded.error);
}

/** The main checkout, even when run from inside one of the worktrees. */
function mainCheckout(options: DirOption): string {
  const dir = resolveRepoDir(options);
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return basename(common) === '.git' ? dirname(common) : dir;
  } catch {
    return fail(`${dir} is not inside a git repository`);
  }
}

function worktreeName(row: WorktreeRecord): string {
  return `.worktrees/${basename(row.path)}`;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

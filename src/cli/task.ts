import type { Command } from 'commander';
import { formatProblem } from '../store/problems.js';
import { TaskStore } from '../store/tasks/store.js';
import type { Task, TaskStatus } from '../store/types.js';
import { TaskStatusSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { indent, oneLine, printJson, printLine, printRecordLine, printTable, printWarning } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { checkId, parsePriority, registerTaskChangeCommands } from './task-change.js';
import { idList, readDescription } from './task-text.js';

interface AddOptions extends DirOption {
  id?: string;
  description?: string;
  descriptionFile?: string;
  blockedBy?: string;
  owner?: string;
  priority?: string;
}
interface ListOptions extends DirOption {
  status?: string;
  all?: boolean;
  json?: boolean;
}
interface ShowOptions extends DirOption {
  json?: boolean;
}

export function registerTaskCommands(program: Command): void {
  const task = program.command('task').description('add, list, show, edit, retry and cancel tasks in .tasks/');
  addDirOption(task.command('add <subject>').description('add a task; prints its id'))
    .option('--id <id>', 'the task id (default: a generated, time-sortable one)')
    .option('--description <text>', 'what to do, in detail (- reads it from stdin)')
    .option('--description-file <file>', 'read the description from a file (- for stdin)')
    .option('--blocked-by <ids>', 'comma-separated ids of tasks that must complete first')
    .option('--owner <name>', 'assign to one teammate (only it may claim the task)')
    .option('--priority <n>', 'lower runs first (default 0; may be negative)')
    .action(addTask);
  addDirOption(task.command('ls').description('list tasks: which are ready and what blocks the rest'))
    .option('--status <status>', `only this status: ${[...TaskStatusSchema.options, 'ready'].join(', ')}`)
    .option('--all', 'archived tasks too (.tasks/archive/: finished tasks moved off the live board)')
    .option('--json', 'print JSON')
    .action(listTasks);
  addDirOption(task.command('show <id>').description('show one task'))
    .option('--json', 'print JSON')
    .action(showTask);
  addDirOption(task.command('cancel <id>').description('cancel a task that is not finished')).action(
    cancelTask,
  );
  registerTaskChangeCommands(task);
}

async function addTask(subject: string, options: AddOptions): Promise<void> {
  const description = await readDescription(options);
  const store = await TaskStore.open(resolveRepoDir(options));
  const created = await store.create({
    subject,
    id: options.id,
    description,
    blockedBy: idList(options.blockedBy),
    owner: options.owner,
    priority: options.priority === undefined ? undefined : parsePriority(options.priority),
  });
  if (!created.ok) fail(created.error);
  printLine(created.value.id);
}

async function listTasks(options: ListOptions): Promise<void> {
  const status = options.status === undefined ? undefined : parseStatus(options.status);
  const store = await TaskStore.open(resolveRepoDir(options));
  const live = status === 'ready' ? store.ready() : store.list(status ? { status } : {});
  const tasks = options.all && status !== 'ready' ? [...(await archivedTasks(store, status)), ...live] : live;
  for (const problem of store.problems()) printWarning(formatProblem(problem));
  if (options.json)
    return printJson(
      tasks.map((t) => ({ ...t, ready: store.isReady(t.id), waitingOn: store.blockers(t.id) })),
    );
  if (!tasks.length) return printLine('no tasks');
  printTable(
    ['ID', 'STATE', 'OWNER', 'WAITING ON', 'SUBJECT'],
    tasks.map((t) => [t.id, stateOf(store, t), t.owner ?? '-', waitingOn(store, t), oneLine(t.subject, 60)]),
  );
}

/** The archived tasks (of `status`, when given), oldest first; their bad files are warned about. */
async function archivedTasks(store: TaskStore, status: TaskStatus | undefined): Promise<Task[]> {
  const { tasks, problems } = await store.archive.all();
  for (const problem of problems) printWarning(formatProblem(problem));
  return tasks
    .filter((t) => status === undefined || t.status === status)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

function parseStatus(text: string): TaskStatus | 'ready' {
  if (text === 'ready') return text;
  const parsed = TaskStatusSchema.safeParse(text);
  return parsed.success
    ? parsed.data
    : fail(`--status: must be one of ${[...TaskStatusSchema.options, 'ready'].join(', ')}`);
}

/** `ready` and `blocked` split pending into what can start now and what waits. */
function stateOf(store: TaskStore, task: Task): string {
  if (task.status !== 'pending') return task.status;
  return store.isReady(task.id) ? 'ready' : 'blocked';
}

function waitingOn(store: TaskStore, task: Task): string {
  return task.status === 'pending' ? store.blockers(task.id).map((id) => blockerLabel(store, id)).join(', ') || '-' : '-';
}

/** A blocker that failed or was cancelled will never complete by itself: say so, and how to retry it. */
function blockerLabel(store: TaskStore, id: string): string {
  const status = store.get(id)?.status;
  return status === 'failed' || status === 'cancelled' ? `${status} ${id} (teamd task retry ${id})` : id;
}

async function showTask(id: string, options: ShowOptions): Promise<void> {
  const store = await TaskStore.open(resolveRepoDir(options));
  const found = store.find(checkId(id)) ?? fail(missingTaskMessage(store, id));
  const task = found.task;
  const extra = { ready: store.isReady(id), waitingOn: store.blockers(id), dependents: store.dependents(id) };
  if (options.json) return printJson({ ...task, ...extra, ...(found.archived ? { archived: true } : {}) });
  for (const [key, value] of describeTask(task, extra)) printRecordLine(`${`${key}:`.padEnd(13)}${value}`);
  if (found.archived) printLine(`${'archived:'.padEnd(13)}.tasks/archive/${id}.json`);
  if (task.description) printLine(`description:\n${indent(task.description)}`);
  if (task.notes.length)
    printLine(`notes:\n${indent(task.notes.map((n) => `${n.ts} ${n.by}: ${n.text}`).join('\n'))}`);
}

function describeTask(
  task: Task,
  extra: { ready: boolean; waitingOn: string[]; dependents: string[] },
): [string, string][] {
  const rows: [string, string][] = [
    ['id', task.id],
    ['subject', task.subject],
    [
      'status',
      task.status === 'pending'
        ? `pending (${extra.ready ? 'ready' : `waiting on ${extra.waitingOn.join(', ')}`})`
        : task.status,
    ],
    ['owner', task.owner ?? '-'],
    ['priority', String(task.priority)],
    ['attempts', String(task.attempts)],
    ['blockedBy', task.blockedBy.join(', ') || '-'],
    ['dependents', extra.dependents.join(', ') || '-'],
    ['created', task.createdAt],
    ['updated', task.updatedAt],
  ];
  if (task.lease) rows.push(['lease', `${task.lease.owner} until ${task.lease.expiresAt}`]);
  if (task.status === 'failed' || task.status === 'cancelled') rows.push(['next', `teamd task retry ${task.id}`]);
  if (task.result)
    rows.push([
      'result',
      task.result.error ? `${task.result.summary} (error: ${task.result.error})` : task.result.summary,
    ]);
  return rows;
}

async function cancelTask(id: string, options: DirOption): Promise<void> {
  const store = await TaskStore.open(resolveRepoDir(options));
  const cancelled = await store.cancel(checkId(id), 'user');
  if (!cancelled.ok) fail(cancelled.error);
  printLine(`cancelled ${id}`);
}

/** A task that is not in the index is missing, or its file is invalid: say which. */
function missingTaskMessage(store: TaskStore, id: string): string {
  const label = `${id}.json`;
  const problems = store.problems().filter((p) => p.file.endsWith(`/${label}`) || p.file === label);
  return problems.length ? problems.map(formatProblem).join('; ') : `no task "${id}"`;
}


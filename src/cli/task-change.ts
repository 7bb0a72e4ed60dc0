/** `teamd task retry` and `teamd task edit`: a person's changes to an existing task, under its lock. */
import type { Command } from 'commander';
import { TaskStore } from '../store/tasks/store.js';
import type { TaskEdit } from '../store/tasks/lifecycle.js';
import { IdSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { idList, readDescription, type DescriptionOptions } from './task-text.js';

interface EditOptions extends DirOption, DescriptionOptions {
  subject?: string;
  blockedBy?: string;
  owner?: string;
  unassign?: boolean;
  priority?: string;
}

export function registerTaskChangeCommands(task: Command): void {
  addDirOption(
    task
      .command('retry <id>')
      .description('put a failed or cancelled task back to pending (its notes keep the history)'),
  ).action(retryTask);
  addDirOption(task.command('edit <id>').description("change a task's subject, description, blocked-by, owner or priority"))
    .option('--subject <text>', 'the new subject')
    .option('--description <text>', 'the new description (- reads it from stdin)')
    .option('--description-file <file>', 'read the new description from a file (- for stdin)')
    .option('--blocked-by <ids>', "comma-separated ids that must complete first ('' for none)")
    .option('--owner <name>', 'assign it to one teammate')
    .option('--unassign', 'let any teammate claim it')
    .option('--priority <n>', 'lower runs first')
    .action(editTask);
}

async function retryTask(id: string, options: DirOption): Promise<void> {
  const store = await TaskStore.open(resolveRepoDir(options));
  const retried = await store.retry(checkId(id), 'user');
  if (!retried.ok) fail(retried.error);
  const waiting = store.blockers(id);
  printLine(`${id} is pending again${waiting.length ? ` (waiting on ${waiting.join(', ')})` : ''}`);
}

async function editTask(id: string, options: EditOptions): Promise<void> {
  const edit = await editOf(options);
  const store = await TaskStore.open(resolveRepoDir(options));
  const edited = await store.edit(checkId(id), edit, 'user');
  if (!edited.ok) fail(edited.error);
  printLine(`edited ${id}`);
}

async function editOf(options: EditOptions): Promise<TaskEdit> {
  if (options.owner !== undefined && options.unassign) fail('give --owner or --unassign, not both');
  const edit: TaskEdit = {
    subject: options.subject,
    description: await readDescription(options),
    blockedBy: idList(options.blockedBy),
    owner: options.unassign ? null : options.owner,
    priority: options.priority === undefined ? undefined : parsePriority(options.priority),
  };
  if (Object.values(edit).every((v) => v === undefined))
    fail('nothing to change: give --subject, --description, --description-file, --blocked-by, --owner, --unassign or --priority');
  return edit;
}

export function parsePriority(text: string): number {
  const n = Number(text);
  return Number.isInteger(n) && text.trim() !== '' ? n : fail(`--priority: must be an integer, got "${text}"`);
}

export function checkId(id: string): string {
  const parsed = IdSchema.safeParse(id);
  return parsed.success ? id : fail(`invalid task id ${JSON.stringify(id)}: ${parsed.error.issues[0]?.message}`);
}

/**
 * The cold board: `.tasks/archive/<id>.json`, completed and cancelled tasks
 * moved out of the watched `.tasks/` after `history.archiveTasksAfterMs`. A
 * cold start, a claim and the watcher see only live work; `task show`,
 * `task ls --all`, `validate` and dependencies still find an archived task
 * here (a `blockedBy` naming an archived completed task stays satisfied).
 *
 * A move is: under the task's lock, re-read the live file, write the archive
 * copy atomically, then unlink the live file. A crash between the two leaves
 * both; the live one wins for every reader, and the next move finishes it.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.js';
import { listStems } from '../folder.js';
import { parseJson, readTextSync } from '../json-file.js';
import { tryWithLock, type LockOptions } from '../lock.js';
import { fileFor } from '../paths.js';
import type { FileProblem, Outcome, Task, TaskStatus } from '../types.js';
import { taskFromFile } from './parse.js';

export const ARCHIVE_FOLDER = 'archive';
/** Only these leave the live board: nothing waits on them to change again by itself. */
export const ARCHIVABLE: ReadonlySet<TaskStatus> = new Set(['completed', 'cancelled']);

type ArchivedRead =
  { kind: 'ok'; task: Task } | { kind: 'missing' } | { kind: 'invalid'; problems: FileProblem[] };

/** The archived tasks of one `.tasks/` folder, read on demand; completed ids once seen are remembered. */
export class TaskArchive {
  readonly folder: string;
  private readonly completed = new Set<string>();
  /**
   * Ids looked for and not found: asked again only after `forget` (a live
   * task of that id went away: it may have moved here). A board of 100,000
   * missing blockers costs one failed open each, once.
   */
  private readonly absent = new Set<string>();

  constructor(
    tasksFolder: string,
    private readonly label: (file: string) => string,
  ) {
    this.folder = join(tasksFolder, ARCHIVE_FOLDER);
  }

  read(id: string): ArchivedRead {
    const file = fileFor(this.folder, id);
    if (!file.ok) return { kind: 'missing' };
    const label = this.label(file.value);
    const text = readTextSync(file.value, label);
    if (text.kind !== 'text')
      return text.kind === 'missing' ? text : { kind: 'invalid', problems: [text.problem] };
    const json = parseJson(text.text, label);
    if (json.kind !== 'ok')
      return json.kind === 'missing' ? json : { kind: 'invalid', problems: [json.problem] };
    const parsed = taskFromFile(json.value, id, label, new Date());
    return parsed.ok ? { kind: 'ok', task: parsed.task } : { kind: 'invalid', problems: parsed.problems };
  }

  get(id: string): Task | undefined {
    const read = this.read(id);
    return read.kind === 'ok' ? read.task : undefined;
  }

  /** The archived task's status (completed ones remembered: an archived task never changes). */
  statusOf(id: string): TaskStatus | undefined {
    if (this.completed.has(id)) return 'completed';
    if (this.absent.has(id)) return undefined;
    const status = this.get(id)?.status;
    if (status === 'completed') this.completed.add(id);
    if (status === undefined) this.absent.add(id);
    return status;
  }

  /** `id` may be archived now (its live file went): look again next time. */
  forget(id: string): void {
    this.absent.delete(id);
  }

  async ids(): Promise<string[]> {
    return listStems(this.folder, '.json');
  }

  /** Every archived task, and the problems of files that do not read as one (for `validate`, `ls --all`). */
  async all(): Promise<{ tasks: Task[]; problems: FileProblem[] }> {
    const tasks: Task[] = [];
    const problems: FileProblem[] = [];
    for (const id of await this.ids()) {
      const read = this.read(id);
      if (read.kind === 'ok') tasks.push(read.task);
      else if (read.kind === 'invalid') problems.push(...read.problems);
    }
    return { tasks, problems };
  }
}

/** Why a task was not moved, or that it was. */
export type ArchiveMove = Outcome<Task, string>;

/**
 * Moves one live task into the archive when, re-read under its lock, it is
 * still finished and `old` says so. `pause` runs between the steps (tests
 * kill a process there).
 */
export async function moveToArchive(
  tasksFolder: string,
  archive: TaskArchive,
  id: string,
  old: (t: Task) => boolean,
  how: { pause?: (step: string) => Promise<void>; lock?: LockOptions } = {},
): Promise<ArchiveMove> {
  const live = fileFor(tasksFolder, id);
  const cold = fileFor(archive.folder, id);
  if (!live.ok || !cold.ok)
    return { ok: false, error: live.ok ? (cold as { error: string }).error : live.error };
  const done = await tryWithLock(
    live.value,
    async (fence): Promise<ArchiveMove> => {
      const text = readTextSync(live.value, id);
      if (text.kind !== 'text') return { ok: false, error: 'gone' };
      const json = parseJson(text.text, id);
      const parsed = json.kind === 'ok' ? taskFromFile(json.value, id, id, new Date()) : null;
      if (!parsed?.ok || !ARCHIVABLE.has(parsed.task.status) || !old(parsed.task))
        return { ok: false, error: 'not finished long enough' };
      await writeFileAtomic(cold.value, text.text, { fence });
      await how.pause?.('archived');
      await unlink(live.value);
      return { ok: true, value: parsed.task };
    },
    how.lock,
  );
  return done.ok ? done.value : { ok: false, error: done.error.message };
}

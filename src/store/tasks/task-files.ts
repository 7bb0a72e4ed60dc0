import { stat } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import { listStems } from '../folder.js';
import { readJson, writeJson } from '../json-file.js';
import { fileFor, invalidIdReason } from '../paths.js';
import type { FileProblem, Outcome, Task } from '../types.js';
import { taskFromFile } from './parse.js';

/** What reading one task file found. */
export type TaskRead =
  | { kind: 'missing' }
  | { kind: 'invalid'; problems: FileProblem[] }
  | { kind: 'ok'; task: Task; complete: boolean };

const invalid = (...problems: FileProblem[]): TaskRead => ({ kind: 'invalid', problems });

/**
 * The files of `.tasks/`. Every read goes through here and is counted, so a
 * test can prove that listing from the index touches no file.
 */
export class TaskFiles {
  reads = 0;

  constructor(
    readonly folder: string,
    private readonly repoRoot: string,
    private readonly now: () => Date,
  ) {}

  /** The repo-relative name problems report, e.g. `.tasks/foo.json`. */
  label(stem: string): string {
    return relative(this.repoRoot, resolve(this.folder, `${stem}.json`));
  }

  fileOf(id: string): Outcome<string> {
    return fileFor(this.folder, id);
  }

  /** Reads `<id>.json`; the id is validated before it becomes a path. */
  async read(id: string): Promise<TaskRead> {
    const label = this.label(id);
    const file = this.fileOf(id);
    if (!file.ok)
      return invalid({ file: label, message: `file name is not a valid task id: ${invalidIdReason(id)}` });
    this.reads++;
    const json = await readJson(file.value, label);
    if (json.kind === 'missing') return json;
    if (json.kind === 'invalid') return invalid(json.problem);
    const parsed = taskFromFile(json.value, id, label, this.now());
    return parsed.ok
      ? { kind: 'ok', task: parsed.task, complete: parsed.complete }
      : { kind: 'invalid', problems: parsed.problems };
  }

  async write(task: Task): Promise<void> {
    const file = this.fileOf(task.id);
    if (!file.ok) throw new Error(`refusing to write task with invalid id: ${file.error}`);
    await writeJson(file.value, task);
  }

  async exists(id: string): Promise<boolean> {
    const file = this.fileOf(id);
    if (!file.ok) return false;
    return stat(file.value).then(
      () => true,
      () => false,
    );
  }

  /** The stems of every `*.json` in the folder; hidden entries (temp files, locks) are skipped. */
  async stems(): Promise<string[]> {
    return listStems(this.folder, '.json');
  }

  /**
   * The stem a watcher path or an id stands for. A path outside the folder, a
   * hidden file or a non-JSON file is not a task file.
   */
  stemOf(idOrFile: string): Outcome<string> {
    const looksLikePath = idOrFile.includes('/') || idOrFile.includes('\\') || idOrFile.endsWith('.json');
    if (!looksLikePath) return { ok: true, value: idOrFile };
    const name = basename(idOrFile);
    const inFolder =
      !/[/\\]/.test(idOrFile) || resolve(this.repoRoot, dirname(idOrFile)) === resolve(this.folder);
    if (!inFolder || name.startsWith('.') || !name.endsWith('.json')) {
      return { ok: false, error: `not a task file: ${idOrFile}` };
    }
    return { ok: true, value: name.slice(0, -'.json'.length) };
  }
}

import { stat } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { listStems } from '../folder.js';
import { writeFileAtomic } from '../atomic.js';
import type { Fence } from '../fence.js';
import { tryWithLock, type LockFailure, type LockOptions } from '../lock.js';
import { jsonText, parseJson, readJsonSync, readTextSync, type JsonRead } from '../json-file.js';
import { fileFor, invalidIdReason } from '../paths.js';
import type { FileProblem, Outcome, Task } from '../types.js';
import { taskFromFile } from './parse.js';

/** What reading one task file found. */
export type TaskRead =
  | { kind: 'missing' }
  | { kind: 'invalid'; problems: FileProblem[] }
  | { kind: 'ok'; task: Task; complete: boolean };

export interface TaskWriteOptions {
  unchanged?: FileStamp;
  /**
   * Default true. False for a change whose loss in a power cut loses nothing
   * (a claim or a lease renewal: the task is simply not taken yet, and is
   * claimed again); outcomes, notes and new tasks are always forced to disk.
   */
  durable?: boolean;
  /** The hold of the task's lock: the write commits only while it is still ours (see `writeFileAtomic`). */
  fence?: Fence;
}

/** Enough of a file's stat to tell that it was replaced or rewritten. */
export interface FileStamp {
  ino: number;
  mtimeMs: number;
  size: number;
}

async function stampOf(file: string): Promise<FileStamp | null> {
  return stat(file).then(
    (s) => ({ ino: s.ino, mtimeMs: s.mtimeMs, size: s.size }),
    () => null,
  );
}

const sameStamp = (a: FileStamp, b: FileStamp | null): boolean =>
  b !== null && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.size === b.size;

/**
 * Where a task store keeps its tasks: `.tasks/` (`TaskFiles`), or a map in
 * memory (`MemoryTaskFiles`, for tests and embedding). The store's logic —
 * the index, claims, leases, transitions — is the same over both.
 */
export interface TaskBackend {
  readonly folder: string;
  readonly reads: number;
  label(stem: string): string;
  /** A path under the folder (the archive's files), as problems name it. */
  labelOf(file: string): string;
  fileOf(id: string): Outcome<string>;
  read(id: string): Promise<TaskRead>;
  readSync(id: string): TaskRead;
  peekHolder(id: string): { status: string; owner: string | null } | null;
  write(task: Task, how?: TaskWriteOptions): Promise<boolean>;
  stamp(id: string): Promise<FileStamp | null>;
  exists(id: string): Promise<boolean>;
  stems(): Promise<string[]>;
  stemOf(idOrFile: string): Outcome<string>;
  /** Runs `fn` holding the task's lock (across processes for files, within this one in memory). */
  lock<T>(id: string, fn: (fence: Fence | undefined) => Promise<T>, opts?: LockOptions): Promise<Outcome<T, LockFailure>>;
}

/** How many task texts a TaskFiles remembers (the most recent). */
const KNOWN_TEXTS = 256;

const invalid = (...problems: FileProblem[]): TaskRead => ({ kind: 'invalid', problems });

/**
 * The files of `.tasks/`. Every read goes through here and is counted, so a
 * test can prove that listing from the index touches no file.
 */
export class TaskFiles implements TaskBackend {
  reads = 0;
  /**
   * The last text of a task file this thread read or wrote whole, with the
   * task it parsed to: reading the same text again skips the validation (a
   * teammate completing a task reads back the file it wrote at the claim).
   */
  private readonly known = new Map<string, { text: string; task: Task }>();

  constructor(
    readonly folder: string,
    private readonly repoRoot: string,
    private readonly now: () => Date,
  ) {}

  /** The repo-relative name problems report, e.g. `.tasks/foo.json`. */
  label(stem: string): string {
    // The folder part once: at a cold start this runs for every file.
    this.folderLabel ??= relative(this.repoRoot, resolve(this.folder));
    return stem.includes('/') || stem.includes('\\')
      ? relative(this.repoRoot, resolve(this.folder, `${stem}.json`))
      : `${this.folderLabel}${sep}${stem}.json`;
  }

  private folderLabel: string | undefined;

  /** The repo-relative name of any file (e.g. one in `.tasks/archive/`). */
  labelOf(file: string): string {
    return relative(this.repoRoot, resolve(file));
  }

  fileOf(id: string): Outcome<string> {
    return fileFor(this.folder, id);
  }

  /**
   * Reads `<id>.json`; the id is validated before it becomes a path. A task
   * file is small and local: read on this thread (see `readJsonSync`), which
   * costs a fraction of the thread pool's four round trips per read.
   */
  async read(id: string): Promise<TaskRead> {
    return Promise.resolve(this.readSync(id));
  }

  readSync(id: string): TaskRead {
    const at = this.locate(id);
    if ('refused' in at) return at.refused;
    const read = readTextSync(at.file, at.label);
    if (read.kind !== 'text') return this.parsed(read, id, at.label);
    const known = this.known.get(id);
    if (known?.text === read.text) return { kind: 'ok', task: known.task, complete: true };
    const parsed = this.parsed(parseJson(read.text, at.label), id, at.label);
    if (parsed.kind === 'ok' && parsed.complete) this.remember(id, read.text, parsed.task);
    return parsed;
  }

  private remember(id: string, text: string, task: Task): void {
    this.known.delete(id);
    this.known.set(id, { text, task });
    if (this.known.size > KNOWN_TEXTS) this.known.delete(this.known.keys().next().value!);
  }

  /**
   * Who holds `id` now by a glance at its file, without validating it: for a
   * claimer to lose a race cheaply. Null when the file does not say (missing,
   * unreadable, not a task): the locked, validated read decides then.
   */
  peekHolder(id: string): { status: string; owner: string | null } | null {
    const at = this.locate(id);
    if ('refused' in at) return null;
    const json = readJsonSync(at.file, at.label);
    if (json.kind !== 'ok' || typeof json.value !== 'object' || json.value === null) return null;
    const { status, owner } = json.value as { status?: unknown; owner?: unknown };
    if (typeof status !== 'string' || (owner !== null && typeof owner !== 'string')) return null;
    return { status, owner };
  }

  /** The file of `id` (counted as a read), or the refusal of an id that must not become a path. */
  private locate(id: string): { file: string; label: string } | { refused: TaskRead } {
    const label = this.label(id);
    const file = this.fileOf(id);
    if (!file.ok)
      return { refused: invalid({ file: label, message: `file name is not a valid task id: ${invalidIdReason(id)}` }) };
    this.reads++;
    return { file: file.value, label };
  }

  private parsed(json: JsonRead, id: string, label: string): TaskRead {
    if (json.kind === 'missing') return json;
    if (json.kind === 'invalid') return invalid(json.problem);
    const parsed = taskFromFile(json.value, id, label, this.now());
    return parsed.ok
      ? { kind: 'ok', task: parsed.task, complete: parsed.complete }
      : { kind: 'invalid', problems: parsed.problems };
  }

  /**
   * Writes the task atomically. With `unchanged`, only over the file as it was
   * when that stamp was taken (checked just before the rename): returns false,
   * writing nothing, when someone changed it meanwhile. `durable: false`
   * skips the fsyncs (see `TaskWriteOptions`).
   */
  async write(task: Task, how: TaskWriteOptions = {}): Promise<boolean> {
    const file = this.fileOf(task.id);
    if (!file.ok) throw new Error(`refusing to write task with invalid id: ${file.error}`);
    const { unchanged } = how;
    const onlyIf = unchanged && (async () => sameStamp(unchanged, await stampOf(file.value)));
    const text = jsonText(task);
    const written = await writeFileAtomic(file.value, text, { onlyIf, durable: how.durable, fence: how.fence });
    if (written) this.remember(task.id, text, task);
    return written;
  }

  async lock<T>(id: string, fn: (fence: Fence | undefined) => Promise<T>, opts?: LockOptions): Promise<Outcome<T, LockFailure>> {
    const file = this.fileOf(id);
    if (!file.ok) return { ok: false, error: { reason: 'io', message: file.error } };
    return tryWithLock(file.value, fn, opts);
  }

  /** Identity and size of the file now (null when it does not exist), to notice a change by anyone. */
  async stamp(id: string): Promise<FileStamp | null> {
    const file = this.fileOf(id);
    return file.ok ? stampOf(file.value) : null;
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

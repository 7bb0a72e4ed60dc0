/**
 * The tasks of an in-memory `TaskStore` (`TaskStore.inMemory()`): one JSON
 * text per id in a map, read and validated like a file, so every check of
 * the file store holds here too. Not crash-safe: nothing is written anywhere.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { jsonText, parseJson } from '../json-file.js';
import { queued, type LockFailure } from '../lock.js';
import { fileFor } from '../paths.js';
import type { Outcome, Task } from '../types.js';
import { taskFromFile } from './parse.js';
import type { FileStamp, TaskBackend, TaskRead, TaskWriteOptions } from './task-files.js';

export class MemoryTaskFiles implements TaskBackend {
  reads = 0;
  /** A folder name no file system has: ids still become "paths" for the same checks, never files. */
  readonly folder = `/teamd-memory/${randomUUID()}/.tasks`;
  private readonly texts = new Map<string, { text: string; version: number }>();
  private version = 0;

  constructor(private readonly now: () => Date) {}

  labelOf(file: string): string {
    return file;
  }

  label(stem: string): string {
    return `.tasks/${stem}.json`;
  }

  fileOf(id: string): Outcome<string> {
    return fileFor(this.folder, id);
  }

  async read(id: string): Promise<TaskRead> {
    return Promise.resolve(this.readSync(id));
  }

  readSync(id: string): TaskRead {
    const label = this.label(id);
    if (!this.fileOf(id).ok) return { kind: 'invalid', problems: [{ file: label, message: 'not a valid task id' }] };
    this.reads++;
    const held = this.texts.get(id);
    if (!held) return { kind: 'missing' };
    const json = parseJson(held.text, label);
    if (json.kind !== 'ok') return json.kind === 'missing' ? json : { kind: 'invalid', problems: [json.problem] };
    const parsed = taskFromFile(json.value, id, label, this.now());
    return parsed.ok ? { kind: 'ok', task: parsed.task, complete: parsed.complete } : { kind: 'invalid', problems: parsed.problems };
  }

  peekHolder(id: string): { status: string; owner: string | null } | null {
    const read = this.texts.has(id) ? this.readSync(id) : null;
    return read?.kind === 'ok' ? { status: read.task.status, owner: read.task.owner } : null;
  }

  async write(task: Task, how: TaskWriteOptions = {}): Promise<boolean> {
    if (!this.fileOf(task.id).ok) throw new Error(`refusing to write task with invalid id: ${task.id}`);
    const now = await this.stamp(task.id);
    if (how.unchanged && (now === null || now.ino !== how.unchanged.ino)) return false;
    this.texts.set(task.id, { text: jsonText(task), version: ++this.version });
    return true;
  }

  async stamp(id: string): Promise<FileStamp | null> {
    const held = this.texts.get(id);
    return Promise.resolve(held ? { ino: held.version, mtimeMs: held.version, size: held.text.length } : null);
  }

  async exists(id: string): Promise<boolean> {
    return Promise.resolve(this.texts.has(id));
  }

  async stems(): Promise<string[]> {
    return Promise.resolve([...this.texts.keys()].sort());
  }

  stemOf(idOrFile: string): Outcome<string> {
    const name = basename(idOrFile);
    return { ok: true, value: name.endsWith('.json') ? name.slice(0, -'.json'.length) : name };
  }

  /** A lock within this process (nothing else can see these tasks): changes of one task run one at a time. */
  async lock<T>(id: string, fn: (fence: undefined) => Promise<T>): Promise<Outcome<T, LockFailure>> {
    const file = this.fileOf(id);
    if (!file.ok) return { ok: false, error: { reason: 'io', message: file.error } };
    return { ok: true, value: await queued(file.value, () => fn(undefined)) };
  }
}

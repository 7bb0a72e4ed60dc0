/**
 * Memory: what agents keep across sessions, as plain files in `.memory/` at
 * the repository's main working tree (shared by every teammate and worktree):
 *
 * - `.memory/<name>.md` — one memory: front matter `name`, `description`
 *   (one line, shown in the index), `type` (`user`, `project`, `feedback`,
 *   `reference`, or another lowercase word), `updated` (ISO time), then the
 *   memory itself as Markdown.
 * - `.memory/MEMORY.md` — the index, one line per memory
 *   (`- [name](name.md) (type): description`), rebuilt on every change and
 *   injected into the session context, so an agent knows what it may look up.
 * - `.memory/.snapshots/` — a file's previous version, saved before it is
 *   overwritten (`<name>.<time>.md`) or merged by consolidation (a folder
 *   `consolidate-<time>/` holding every file the merge touched), so every
 *   change can be undone with `restoreMemorySnapshot`.
 *
 * Every change holds the cross-process lock of `.memory/MEMORY.md`
 * (src/store/lock.ts) and writes with `writeFileAtomic`, so teammates writing
 * at once never corrupt a file or lose an index line.
 *
 * Names are sanitised to ids (`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`, no `..`);
 * `MEMORY` is reserved for the index.
 */
import { z } from 'zod';
import type { ModelClient } from '../../model/types.js';
import { IdSchema, type Outcome } from '../../store/types.js';

export const MemoryTypeSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a lowercase word such as user, project, feedback, reference');

export const MemoryFrontMatterSchema = z.strictObject({
  name: IdSchema,
  description: z.string().min(1, 'must not be empty').max(300),
  type: MemoryTypeSchema,
  updated: z.string().optional(),
});

export interface MemoryEntry {
  name: string;
  description: string;
  type: string;
  /** The memory itself (Markdown). */
  body: string;
  /** Absolute path of `<name>.md`. */
  file: string;
  updated?: string;
}

/** What `writeMemory` takes: the name is sanitised, the rest validated. */
export interface MemoryInput {
  name: string;
  description: string;
  type: string;
  body: string;
}

/** `AgentRuntimeOptions.memory`: present (even `{}`) to turn memory on. */
export interface MemoryOptions {
  /** Default `<main working tree>/.memory`. */
  dir?: string;
  /** Add memory_write and memory_search to the agent's tools. Default true. */
  tools?: boolean;
  /** A (cheap) model memory_search asks to pick relevant entries from the index; keyword search when absent or when it fails. */
  searchModel?: ModelClient;
  /** What memory_write calls (default `writeMemory` on `dir`); an out-of-process teammate's asks the lead. */
  write?: MemoryWriter;
}

/** Writes one memory in `dir`: `writeMemory`'s shape. */
export type MemoryWriter = (dir: string, input: MemoryInput) => Promise<Outcome<{ entry: MemoryEntry; snapshot: string | null }>>;

export const MEMORY_INDEX = 'MEMORY.md';
export const SNAPSHOT_DIR = '.snapshots';

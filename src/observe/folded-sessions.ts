/**
 * Settled sessions of one agent kept as numbers in one array, not as objects
 * (issue 24): an idle team writes a transcript per mail batch, and `teamd top`
 * on weeks of history (100,000 delivered messages) kept ~100,000 session
 * objects of ~750 bytes each. A folded session is a row of
 * `ROW` doubles (its file's size and mtime, its run count, and up to `PARTS`
 * models' dollars and tokens) plus its task in a list beside; its spends are
 * built again when asked (to take them out of the totals, for `teamd web`'s
 * chart). Only the common shape folds: at most one run, at most `PARTS`
 * models, a model name the store has room for; any other session stays an
 * object (spend-reader.ts). Rows of sessions taken out are reused.
 */
import { basename } from 'node:path';
import type { Spend } from './cost.js';
import { RowTable } from './row-table.js';
import { newSessionSpend, shared, type SessionSpend } from './session-spend.js';
import { isSessionFile } from './transcript-files.js';

/** Models a folded run holds. */
export const PARTS = 2;
/** One model's part: model index, dollars, input, output, cache read, cache write. */
const PART = 6;
/** A row: size, mtime, runs, then the parts (a part whose model index is -1 is none). */
export const ROW = 3 + PARTS * PART;
/** The column after a row's numbers: whether it is pending (see `rows`). */
const PENDING = ROW;
/** Distinct model names a store indexes (a hostile transcript's 10,000 names stay in objects). */
const MAX_MODELS = 256;

/** What the summary keeps of a store (spend-summary.ts): names, rows and tasks in step; models by index. */
export interface FoldedData {
  names: string[];
  rows: number[];
  tasks: (string | null)[];
  models: string[];
}

export class FoldedSessions {
  /**
   * Session file name (within the agent's folder) → its `ROW` numbers, and
   * one more (`PENDING`): 1 while the row is as the summary said and its file
   * not yet seen at that stamp (`confirm`), so not yet in any totals; rows
   * never confirmed are of files gone since (`dropPending`).
   */
  private readonly rows = new RowTable(ROW + 1);
  private tasks: (string | null)[] = [];
  private readonly models: string[] = [];
  private readonly modelIndex = new Map<string, number>();
  private pendingCount = 0;

  constructor(
    /** The agent's folder (a file's path is this folder and its name). */
    private readonly dir: string,
    readonly agent: string,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** Whether `file` is folded here at this size and mtime (undefined: not folded). */
  matches(file: string, size: number, mtime: number): boolean | undefined {
    const row = this.rows.rowOfName(basename(file));
    if (row === undefined) return undefined;
    const at = row * this.rows.width;
    return this.rows.nums[at] === size && this.rows.nums[at + 1] === mtime;
  }

  private pending(row: number): boolean {
    return this.rows.nums[row * this.rows.width + PENDING] === 1;
  }

  private setPending(row: number, pending: boolean): void {
    this.pendingCount += Number(pending) - Number(this.pending(row));
    this.rows.nums[row * this.rows.width + PENDING] = Number(pending);
  }

  /** Folds a settled session; false when its shape does not fold (it stays an object). */
  fold(s: SessionSpend): boolean {
    if (s.runs > 1 || s.finished.length > PARTS) return false;
    const models = s.finished.map((spend) => this.indexOf(spend.model));
    if (models.some((m) => m < 0)) return false;
    const task = s.finished[0]?.task ?? null;
    if (s.finished.some((spend) => spend.task !== task)) return false;
    const parts = s.finished.map((spend, i) => {
      const u = spend.usage;
      return [models[i]!, spend.costUsd, u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens];
    });
    // A value JSON cannot hold (a hostile transcript's 1e999) stays an object: the summary's rows hold numbers only.
    if (!parts.every((p) => p.every(Number.isFinite))) return false;
    this.put(basename(s.file), [s.size, s.mtime, s.runs], parts, task, false);
    return true;
  }

  /**
   * Takes `file` out, as a session object to read on from (no mark: it is
   * read whole); undefined when not folded, or when its row was still
   * pending (its spends were never counted: nothing to take out of totals).
   */
  take(file: string): SessionSpend | undefined {
    const name = basename(file);
    const row = this.rows.rowOfName(name);
    if (row === undefined) return undefined;
    const s = this.pending(row) ? undefined : this.sessionAt(row, file);
    this.free(name, row);
    return s;
  }

  /** Whether `file`'s row is still as the summary said, not yet seen (see `rows`). */
  isPending(file: string): boolean {
    const row = this.rows.rowOfName(basename(file));
    return row !== undefined && this.pending(row);
  }

  /** Its file seen at the row's stamp: the row counts from now on; true when it was pending. */
  confirm(file: string): boolean {
    const row = this.rows.rowOfName(basename(file));
    if (row === undefined || !this.pending(row)) return false;
    this.setPending(row, false);
    return true;
  }

  /** Drops the rows never confirmed (their files are gone); how many. */
  dropPending(): number {
    if (!this.pendingCount) return 0;
    let dropped = 0;
    for (const [name, row] of [...this.rows.entries()])
      if (this.pending(row)) {
        this.free(name, row);
        dropped += 1;
      }
    return dropped;
  }

  private free(name: string, row: number): void {
    this.setPending(row, false);
    this.tasks[row] = null;
    this.rows.remove(name);
  }

  /** The session at `file` without taking it out (its spends: to take them out of the totals). */
  peek(file: string): SessionSpend | undefined {
    const row = this.rows.rowOfName(basename(file));
    return row === undefined ? undefined : this.sessionAt(row, file);
  }

  /** Every folded session's file and mtime. */
  *stamps(): Generator<{ file: string; mtime: number }> {
    for (const [name, row] of this.rows.entries()) yield { file: this.pathOf(name), mtime: this.rows.nums[row * this.rows.width + 1]! };
  }

  /** Every folded session, built as an object (the chart, the summary's complex path). */
  *sessions(): Generator<SessionSpend> {
    for (const [name, row] of this.rows.entries()) yield this.sessionAt(row, this.pathOf(name));
  }

  /** The rows as the summary writes them. */
  data(): FoldedData {
    const names: string[] = [];
    const rows: number[] = [];
    const tasks: (string | null)[] = [];
    for (const [name, row] of this.rows.entries()) {
      if (this.pending(row)) continue;
      names.push(name);
      for (let i = 0; i < ROW; i++) rows.push(this.rows.nums[row * this.rows.width + i]!);
      tasks.push(this.tasks[row] ?? null);
    }
    return { names, rows, tasks, models: [...this.models] };
  }

  private pathOf(name: string): string {
    return `${this.dir}/${name}`;
  }

  private indexOf(model: string): number {
    const known = this.modelIndex.get(model);
    if (known !== undefined) return known;
    if (this.models.length >= MAX_MODELS) return -1;
    this.models.push(shared(model));
    this.modelIndex.set(model, this.models.length - 1);
    return this.models.length - 1;
  }

  private put(name: string, head: number[], parts: number[][], task: string | null, pending: boolean): void {
    const row = this.rows.add(name);
    const at = row * this.rows.width;
    this.rows.nums.fill(-1, at, at + ROW);
    this.rows.nums.set(head, at);
    parts.forEach((p, i) => this.rows.nums.set(p, at + 3 + i * PART));
    this.tasks[row] = task;
    this.setPending(row, pending);
  }

  private sessionAt(row: number, file: string): SessionSpend {
    const at = row * this.rows.width;
    const n = this.rows.nums;
    const s = newSessionSpend(file);
    s.size = n[at]!;
    s.mtime = n[at + 1]!;
    s.runs = n[at + 2]!;
    const run = `${file}#0`;
    const task = this.tasks[row] ?? null;
    const finished: Spend[] = [];
    for (let p = at + 3; p < at + ROW; p += PART) {
      if (n[p]! < 0) continue;
      const usage = { input_tokens: n[p + 2]!, output_tokens: n[p + 3]!, cache_read_input_tokens: n[p + 4]!, cache_creation_input_tokens: n[p + 5]! };
      finished.push({ run, agent: s.agent, task, model: this.models[n[p]!]!, usage, costUsd: n[p + 1]!, finished: true });
    }
    if (finished.length) s.finished = finished;
    return s;
  }

  /** Loads rows the summary kept, pending (`confirm`): a row not well formed (a hostile or torn summary) is left out, so read from its file. */
  load(data: FoldedData): void {
    if (data.rows.length !== data.names.length * ROW || data.tasks.length !== data.names.length) return;
    const models = data.models.map((m) => this.indexOf(m));
    for (let i = 0; i < data.names.length; i++) {
      const row = data.rows.slice(i * ROW, (i + 1) * ROW);
      const parts = partsOf(row, models);
      if (parts && plainName(data.names[i]!) && headOk(row)) this.put(data.names[i]!, row.slice(0, 3), parts, data.tasks[i] ?? null, true);
    }
  }
}

const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** A file name in the agent's folder, nothing that climbs or names another folder. */
const plainName = (name: string): boolean => isSessionFile(name) && !/[/\\\0]/.test(name) && !name.startsWith('.');

const headOk = (row: number[]): boolean => isCount(row[0]!) && Number.isFinite(row[1]) && (row[2] === 0 || row[2] === 1);

/** A row's parts with the store's model indexes; null when one is not well formed. */
function partsOf(row: number[], models: number[]): number[][] | null {
  const parts: number[][] = [];
  for (let at = 3; at < ROW; at += PART) {
    const [model, cost, ...tokens] = row.slice(at, at + PART) as [number, number, ...number[]];
    if (model === -1) continue;
    const index = Number.isInteger(model) ? models[model] : undefined;
    if (index === undefined || index < 0 || !Number.isFinite(cost) || !tokens.every(isCount)) return null;
    parts.push([index, cost, ...tokens]);
  }
  return parts;
}

/**
 * Files' sizes and mtimes by name, two numbers a row of one array
 * (row-table.ts; issue 24): a listing of ~25,000 session files per agent held
 * an object, a path and a boxed mtime per file (~226 bytes); here a file costs
 * its name, a map entry and two doubles.
 */
import { RowTable } from './row-table.js';

export class FileStamps {
  private readonly rows = new RowTable(2);

  get size(): number {
    return this.rows.size;
  }

  has(name: string): boolean {
    return this.rows.rowOfName(name) !== undefined;
  }

  /** Whether `name` is known at this size and mtime. */
  matches(name: string, size: number, mtime: number): boolean {
    const row = this.rows.rowOfName(name);
    return row !== undefined && this.rows.nums[row * 2] === size && this.rows.nums[row * 2 + 1] === mtime;
  }

  /** The name's mtime (undefined: not known). */
  mtimeOf(name: string): number | undefined {
    const row = this.rows.rowOfName(name);
    return row === undefined ? undefined : this.rows.nums[row * 2 + 1];
  }

  sizeOf(name: string): number | undefined {
    const row = this.rows.rowOfName(name);
    return row === undefined ? undefined : this.rows.nums[row * 2];
  }

  set(name: string, size: number, mtime: number): void {
    const row = this.rows.add(name);
    this.rows.nums[row * 2] = size;
    this.rows.nums[row * 2 + 1] = mtime;
  }

  delete(name: string): boolean {
    return this.rows.remove(name) !== undefined;
  }

  clear(): void {
    this.rows.clear();
  }

  names(): IterableIterator<string> {
    return this.rows.names();
  }
}

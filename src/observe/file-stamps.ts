/**
 * Files' sizes and mtimes by name, kept as numbers in one array (issue 24):
 * a listing of ~25,000 session files per agent held an object, a path and a
 * boxed mtime per file (~226 bytes); here a file costs its name, a map entry
 * and two doubles. Rows of names deleted are reused.
 */
export class FileStamps {
  private readonly rowOf = new Map<string, number>();
  private nums = new Float64Array(32);
  private readonly spare: number[] = [];
  private used = 0;

  get size(): number {
    return this.rowOf.size;
  }

  has(name: string): boolean {
    return this.rowOf.has(name);
  }

  /** Whether `name` is known at this size and mtime. */
  matches(name: string, size: number, mtime: number): boolean {
    const row = this.rowOf.get(name);
    return row !== undefined && this.nums[row * 2] === size && this.nums[row * 2 + 1] === mtime;
  }

  /** The name's mtime (undefined: not known). */
  mtimeOf(name: string): number | undefined {
    const row = this.rowOf.get(name);
    return row === undefined ? undefined : this.nums[row * 2 + 1];
  }

  sizeOf(name: string): number | undefined {
    const row = this.rowOf.get(name);
    return row === undefined ? undefined : this.nums[row * 2];
  }

  set(name: string, size: number, mtime: number): void {
    let row = this.rowOf.get(name);
    if (row === undefined) {
      row = this.spare.pop() ?? this.used++;
      if (row * 2 + 2 > this.nums.length) this.grow();
      this.rowOf.set(name, row);
    }
    this.nums[row * 2] = size;
    this.nums[row * 2 + 1] = mtime;
  }

  delete(name: string): boolean {
    const row = this.rowOf.get(name);
    if (row === undefined) return false;
    this.rowOf.delete(name);
    this.spare.push(row);
    return true;
  }

  clear(): void {
    this.rowOf.clear();
    this.spare.length = 0;
    this.used = 0;
  }

  names(): IterableIterator<string> {
    return this.rowOf.keys();
  }

  private grow(): void {
    const grown = new Float64Array(this.nums.length * 2);
    grown.set(this.nums);
    this.nums = grown;
  }
}

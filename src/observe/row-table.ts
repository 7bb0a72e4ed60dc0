/**
 * Rows of numbers by name, in one growable `Float64Array` (issue 24: a
 * transcript listing and a fold of settled sessions each keep ~25,000 of
 * them per agent; an object per row cost several times its numbers). A row
 * of a name removed is reused by the next name added.
 */
export class RowTable {
  private readonly rowOf = new Map<string, number>();
  /** The rows, `width` numbers each, at `row * width` (read and written in place by the owner). */
  nums: Float64Array;
  private readonly spare: number[] = [];
  private used = 0;

  constructor(readonly width: number) {
    this.nums = new Float64Array(16 * width);
  }

  get size(): number {
    return this.rowOf.size;
  }

  /** The name's row (undefined: none). */
  rowOfName(name: string): number | undefined {
    return this.rowOf.get(name);
  }

  /** The name's row, a fresh (or reused) one when it had none: its numbers are the owner's to set. */
  add(name: string): number {
    const known = this.rowOf.get(name);
    if (known !== undefined) return known;
    const row = this.spare.pop() ?? this.used++;
    if ((row + 1) * this.width > this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    this.rowOf.set(name, row);
    return row;
  }

  /** Removes the name; its row, or undefined when it had none. */
  remove(name: string): number | undefined {
    const row = this.rowOf.get(name);
    if (row === undefined) return undefined;
    this.rowOf.delete(name);
    this.spare.push(row);
    return row;
  }

  clear(): void {
    this.rowOf.clear();
    this.spare.length = 0;
    this.used = 0;
  }

  names(): IterableIterator<string> {
    return this.rowOf.keys();
  }

  entries(): IterableIterator<[string, number]> {
    return this.rowOf.entries();
  }
}

/**
 * A queue several producers push into (the model stream, each running tool)
 * and one consumer drains with `for await`: how events of concurrent work
 * reach a single async generator in the order they happened.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private wake: (() => void) | null = null;
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    this.buffer.push(item);
    this.signal();
  }

  /** Items already pushed are still delivered; later pushes are dropped. */
  close(): void {
    this.closed = true;
    this.signal();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const next = this.buffer.shift();
      if (next !== undefined) yield next;
      else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * Caps long command output while it streams: keeps the first and the last
 * part and says what fell out of the middle. The tail is where errors are; the
 * head is where the command said what it was doing.
 */
export interface CappedOutput {
  append(chunk: string): void;
  /** The kept text, with a note in the middle when something was cut. */
  text(): string;
  readonly totalChars: number;
  readonly truncated: boolean;
}

export function createCappedOutput(maxChars: number): CappedOutput {
  const headMax = Math.floor(maxChars / 2);
  const tailMax = maxChars - headMax;
  let head = '';
  let tail = '';
  let total = 0;
  let totalLines = 0;
  const append = (chunk: string): void => {
    total += chunk.length;
    totalLines += countLines(chunk);
    const roomInHead = headMax - head.length;
    if (roomInHead > 0) {
      head += chunk.slice(0, roomInHead);
      chunk = chunk.slice(roomInHead);
    }
    tail += chunk;
    // Trim in batches, not per chunk, so streaming stays linear.
    if (tail.length > tailMax * 2) tail = tail.slice(tail.length - tailMax);
  };
  const keptTail = (): string => tail.slice(Math.max(0, tail.length - tailMax));
  const cutChars = (): number => total - head.length - keptTail().length;
  return {
    append,
    text: () => {
      const cut = cutChars();
      if (cut <= 0) return head + tail;
      const kept = keptTail();
      const lines = totalLines - countLines(head) - countLines(kept);
      return `${head}\n\n[… output truncated: ${cut} characters (about ${lines} lines) cut from the middle of ${total} …]\n\n${kept}`;
    },
    get totalChars() {
      return total;
    },
    get truncated() {
      return cutChars() > 0;
    },
  };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

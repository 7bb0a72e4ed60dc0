/**
 * Finding memories: keywords scored over name (×3), description (×2) and
 * body (×1); or a cheap model call that picks entries from the index, with
 * keyword search as the fallback when it fails or picks nothing known.
 */
import type { ModelClient } from '../../model/types.js';
import { indexLine } from './files.js';
import type { MemoryEntry } from './types.js';

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2);

function occurrences(haystack: string, word: string): number {
  let count = 0;
  for (let at = haystack.indexOf(word); at !== -1 && count < 5; at = haystack.indexOf(word, at + word.length))
    count++;
  return count;
}

function score(entry: MemoryEntry, words: string[]): number {
  const name = entry.name.toLowerCase();
  const description = entry.description.toLowerCase();
  const body = entry.body.toLowerCase();
  return words.reduce(
    (sum, w) => sum + 3 * occurrences(name, w) + 2 * occurrences(description, w) + occurrences(body, w),
    0,
  );
}

export function keywordSearch(entries: readonly MemoryEntry[], query: string, limit: number): MemoryEntry[] {
  const words = wordsOf(query);
  if (words.length === 0) return [];
  return entries
    .map((entry) => ({ entry, score: score(entry, words) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name))
    .slice(0, limit)
    .map((s) => s.entry);
}

const PICK_SYSTEM =
  'You pick the memories relevant to a query. Answer with the names of the relevant memories, one per line, most relevant first, and nothing else. Answer "none" when none is relevant.';

/** The entries the model picks (in its order), or null when the call failed or named nothing known. */
export async function modelSearch(
  entries: readonly MemoryEntry[],
  query: string,
  limit: number,
  call: { model: ModelClient; signal: AbortSignal; agent?: string },
): Promise<MemoryEntry[] | null> {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const index = entries.map(indexLine).join('\n');
  try {
    for await (const event of call.model.stream({
      system: PICK_SYSTEM,
      messages: [
        {
          role: 'user',
          content: `<memory_query>${query}</memory_query>\n<memory_index>\n${index}\n</memory_index>`,
        },
      ],
      tools: [],
      maxTokens: 512,
      signal: call.signal,
      ...(call.agent === undefined ? {} : { agent: call.agent }),
    })) {
      if (event.type !== 'done' || event.stopReason === 'error' || event.stopReason === 'aborted') continue;
      const text = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      const picked = text.split('\n').map((l) => l.replace(/^[\s*-]+|[\s`]+$/g, '').trim());
      const found = [...new Set(picked)].flatMap((n) => (byName.has(n) ? [byName.get(n)!] : []));
      return found.length > 0 ? found.slice(0, limit) : null;
    }
  } catch {
    // a failing model only costs the better ranking: keyword search answers instead
  }
  return null;
}

/**
 * The most any prompt cache could read on a run: the same requests, in the
 * order the server got them, replayed into a fresh simulated cache with a
 * mark on every block, so each request reads the longest prefix that any
 * earlier request sent. What is left is input no earlier request sent — a
 * task's text, a file read for the first time, a tool's fresh output — which
 * no placement of breakpoints can read from a cache. The run's cache share
 * against this bound tells a placement's loss from the workload's fresh input.
 */
import { PromptCache } from '../../src/model/fake-server/prompt-cache.js';
import type { MessagesRequestBody } from '../../src/model/fake-server/types.js';

const MARK = { type: 'ephemeral' } as const;
type Block = Record<string, unknown>;
const marked = <T extends Block>(block: T): T => ({ ...block, cache_control: MARK });

function everyBlockMarked(body: MessagesRequestBody): MessagesRequestBody {
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  return {
    ...body,
    tools: (body.tools ?? []).map(marked),
    system: system.map(marked),
    messages: body.messages.map((m) => ({
      ...m,
      content: (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map(marked),
    })),
  };
}

/** The share of the run's input that an ideal cache would read (every prefix kept, none expired). */
export function cacheShareBound(bodies: readonly MessagesRequestBody[]): number {
  const cache = new PromptCache({ ttlMs: Number.POSITIVE_INFINITY, maxPrefixes: Number.MAX_SAFE_INTEGER });
  let read = 0;
  let all = 0;
  for (const body of bodies) {
    const u = cache.usageFor(everyBlockMarked(body));
    read += u.cache_read_input_tokens;
    all += u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  }
  return all > 0 ? read / all : 0;
}

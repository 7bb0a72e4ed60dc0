/**
 * A simulated prompt cache, so cache-read and cache-write tokens behave as in
 * a real multi-turn run. The prompt is cut into segments in the API's order
 * (tools, system, message blocks); a prefix ending at a `cache_control` mark is
 * written to the cache, and the longest prefix seen before (up to the last
 * mark) is read from it. Marks themselves are not part of a prefix's identity,
 * since a block marked in one turn is unmarked in the next.
 */
import { createHash } from 'node:crypto';
import type { Usage } from '../types.js';
import { estimateTokens } from '../usage.js';
import type { LooseBlock } from '../scripted/conversation.js';
import type { MessagesRequestBody } from './types.js';

interface Segment {
  text: string;
  marked: boolean;
}

type InputUsage = Omit<Usage, 'output_tokens'>;

export class PromptCache {
  readonly #seen = new Set<string>();

  /** The input side of a request's usage; remembers its marked prefixes. */
  usageFor(body: MessagesRequestBody): InputUsage {
    const segments = segmentsOf(body);
    let hash = '';
    let tokens = 0;
    let read = 0;
    let lastMarkTokens = 0;
    const written: string[] = [];
    const lastMark = segments.findLastIndex((s) => s.marked);
    for (const [i, segment] of segments.entries()) {
      hash = createHash('sha256').update(hash).update(segment.text).digest('hex');
      tokens += estimateTokens(segment.text);
      if (i > lastMark) continue;
      if (this.#seen.has(hash)) read = tokens;
      if (segment.marked) {
        written.push(hash);
        lastMarkTokens = tokens;
      }
    }
    for (const h of written) this.#seen.add(h);
    return {
      input_tokens: tokens - lastMarkTokens,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: lastMarkTokens - read,
    };
  }
}

function segmentsOf(body: MessagesRequestBody): Segment[] {
  const system: readonly LooseBlock[] =
    typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  const messageBlocks = body.messages.flatMap((m) =>
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content, role: m.role }]
      : m.content.map((b) => ({ ...b, role: m.role })),
  );
  return [...(body.tools ?? []), ...system, ...messageBlocks].map(segment);
}

function segment(block: LooseBlock): Segment {
  const { cache_control, ...rest } = block;
  return { text: JSON.stringify(rest), marked: cache_control !== undefined };
}

/**
 * A simulated prompt cache, so cache-read and cache-write tokens behave as in
 * a real multi-turn run. The prompt is cut into segments in the API's order
 * (tools, system, message blocks); a prefix ending at a `cache_control` mark is
 * written to the cache, and the longest prefix seen before (up to the last
 * mark) is read from it. Marks themselves are not part of a prefix's identity,
 * since a block marked in one turn is unmarked in the next. Like the API's
 * cache, a prefix lives five minutes from its last use, so a team that runs
 * for days keeps only its recent prefixes (every prefix ever seen was one
 * hash per model call: 100,000 messages, 100,000 hashes; issue 24).
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

/** The API's default (ephemeral) cache lifetime, refreshed by each read. */
export const PROMPT_CACHE_TTL_MS = 5 * 60_000;
/** A bound besides the lifetime, for a burst of distinct prompts within it. */
export const PROMPT_CACHE_MAX_PREFIXES = 10_000;

export interface PromptCacheOptions {
  now?: () => number;
  ttlMs?: number;
  maxPrefixes?: number;
}

export class PromptCache {
  /** Prefix hash → when it was last written or read, least recently used first. */
  readonly #seen = new Map<string, number>();
  readonly #now: () => number;
  readonly #ttlMs: number;
  readonly #max: number;

  constructor(options: PromptCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#ttlMs = options.ttlMs ?? PROMPT_CACHE_TTL_MS;
    this.#max = options.maxPrefixes ?? PROMPT_CACHE_MAX_PREFIXES;
  }

  /** How many prefixes the cache holds now. */
  get size(): number {
    return this.#seen.size;
  }

  /** The input side of a request's usage; remembers its marked prefixes. */
  usageFor(body: MessagesRequestBody): InputUsage {
    const segments = segmentsOf(body);
    let hash = '';
    let tokens = 0;
    let read = 0;
    let lastMarkTokens = 0;
    const written: string[] = [];
    const lastMark = segments.findLastIndex((s) => s.marked);
    const now = this.#now();
    this.#expire(now);
    for (const [i, segment] of segments.entries()) {
      hash = createHash('sha256').update(hash).update(segment.text).digest('hex');
      tokens += estimateTokens(segment.text);
      if (i > lastMark) continue;
      if (this.#seen.has(hash)) {
        read = tokens;
        written.push(hash); // a read refreshes the prefix's lifetime
      }
      if (segment.marked) {
        written.push(hash);
        lastMarkTokens = tokens;
      }
    }
    for (const h of written) this.#touch(h, now);
    return {
      input_tokens: tokens - lastMarkTokens,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: lastMarkTokens - read,
    };
  }

  #touch(hash: string, now: number): void {
    this.#seen.delete(hash); // re-inserted as the most recent
    this.#seen.set(hash, now);
    if (this.#seen.size > this.#max) this.#seen.delete(this.#seen.keys().next().value!);
  }

  /** Drops prefixes unused for the lifetime (the oldest come first, so this stops at the first live one). */
  #expire(now: number): void {
    for (const [hash, at] of this.#seen) {
      if (now - at < this.#ttlMs) return;
      this.#seen.delete(hash);
    }
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROMPT_CACHE_TTL_MS, PromptCache } from '../../src/model/fake-server/prompt-cache.js';
import type { MessagesRequestBody } from '../../src/model/fake-server/types.js';

/** A one-block prompt marked for the cache (each distinct text is one prefix). */
const prompt = (text: string): MessagesRequestBody => ({
  model: 'claude-test',
  max_tokens: 16,
  messages: [{ role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] }],
});

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

// Issue 24: the simulated cache kept every prefix it ever saw (one hash per model call, forever).
describe('the simulated prompt cache stays bounded', () => {
  it('forgets a prefix unused for the lifetime, and a read keeps it alive', () => {
    const c = clock();
    const cache = new PromptCache({ now: c.now });
    cache.usageFor(prompt('a'));
    c.advance(PROMPT_CACHE_TTL_MS - 1);
    expect(cache.usageFor(prompt('a')).cache_read_input_tokens).toBeGreaterThan(0); // read: refreshed
    c.advance(PROMPT_CACHE_TTL_MS - 1);
    expect(cache.usageFor(prompt('a')).cache_read_input_tokens).toBeGreaterThan(0);
    c.advance(PROMPT_CACHE_TTL_MS);
    expect(cache.usageFor(prompt('a')).cache_read_input_tokens).toBe(0); // expired: written again
  });

  it('holds only the prefixes of the last lifetime over a long run of distinct prompts', () => {
    const c = clock();
    const cache = new PromptCache({ now: c.now });
    for (let i = 0; i < 3_000; i++) {
      cache.usageFor(prompt(`message ${i}`));
      c.advance(1_000); // one call a second for 50 minutes
    }
    expect(cache.size).toBeLessThanOrEqual(PROMPT_CACHE_TTL_MS / 1_000 + 1);
  });

  it('never holds more than its bound, whatever the calls and their times', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.nat({ max: 2 * PROMPT_CACHE_TTL_MS })), { maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        (calls, max) => {
          const c = clock();
          const cache = new PromptCache({ now: c.now, maxPrefixes: max });
          for (const [text, wait] of calls) {
            c.advance(wait);
            cache.usageFor(prompt(text));
            expect(cache.size).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });
});

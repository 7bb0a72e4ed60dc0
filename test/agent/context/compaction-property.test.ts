/**
 * Compaction never splits a tool pair: over random valid histories, every
 * stage, both triggers and summaries that succeed or fail, the result is a
 * history the Messages API accepts, it starts with the task, and what it keeps
 * of the recent turns is unchanged.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compactHistory, SUMMARY_OPEN } from '../../../src/agent/context/compact.js';
import { DEFAULT_CONTEXT_OPTIONS } from '../../../src/agent/context/options.js';
import { estimateMessages } from '../../../src/agent/context/tokens.js';
import { historyProblems } from '../../../src/agent/context/turns.js';
import type { ContentBlock, ConversationMessage } from '../../../src/model/types.js';

const turnArb = fc.record({
  text: fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: undefined }),
  calls: fc.array(fc.nat({ max: 3000 }), { maxLength: 3 }),
  queued: fc.boolean(),
});

/** A valid history: the task, then turns whose tool_uses are all answered, ending with a user message. */
type Turn = { text: string | undefined; calls: number[]; queued: boolean };

function historyOf(turns: Turn[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'THE TASK' }] }];
  let id = 0;
  for (const turn of turns) {
    const ids = turn.calls.map(() => `toolu_${id++}`);
    const said: ContentBlock[] = turn.text === undefined ? [] : [{ type: 'text', text: turn.text }];
    const uses = ids.map((tid) => ({
      type: 'tool_use' as const,
      id: tid,
      name: 'read',
      input: { file_path: `${tid}.ts` },
    }));
    const content = [...said, ...uses];
    messages.push({
      role: 'assistant',
      content: content.length > 0 ? content : [{ type: 'text', text: '…' }],
    });
    const results = ids.map((tid, i) => ({
      type: 'tool_result' as const,
      tool_use_id: tid,
      content: 'x'.repeat(turn.calls[i]!) || 'ok',
    }));
    const extra: ContentBlock[] =
      turn.queued || results.length === 0 ? [{ type: 'text', text: 'more input' }] : [];
    messages.push({ role: 'user', content: [...results, ...extra] });
  }
  return messages;
}

const blocksOf = (m: ConversationMessage): ContentBlock[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

describe('compaction', () => {
  test('never separates a tool_use from its tool_result (property)', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('auto', 'prompt_too_long'),
        fc.boolean(),
        fc.boolean(),
        async (turns, keepRecentTurns, trigger, summaryWorks, inject) => {
          const messages = historyOf(turns);
          expect(historyProblems(messages)).toEqual([]);
          const result = await compactHistory({
            messages,
            options: {
              ...DEFAULT_CONTEXT_OPTIONS,
              windowTokens: 1_000,
              keepRecentTurns,
              clearToolResultsAt: 0.3,
              summariseAt: 0.5,
            },
            trigger,
            measure: estimateMessages,
            summarise: async (older) => (summaryWorks ? `## Goal\n${older.length} messages` : null),
            sessionContext: async () =>
              inject ? '<session_context>\nYou are "a".\n</session_context>' : null,
          });
          if (result === null) return;
          for (const stage of result.stages) seen.set(stage, (seen.get(stage) ?? 0) + 1);
          const out = result.messages;
          expect(historyProblems(out)).toEqual([]);
          expect(JSON.stringify(out[0])).toContain('THE TASK');
          // the kept tail is the input's tail, only ever with results cleared
          const tail = out.slice(1);
          const original = messages.slice(messages.length - tail.length);
          tail.forEach((m, i) => {
            expect(m.role).toBe(original[i]!.role);
            expect(blocksOf(m).map((b) => b.type)).toEqual(blocksOf(original[i]!).map((b) => b.type));
          });
          if (result.stages.includes('summarise') || result.stages.includes('truncate')) {
            expect(JSON.stringify(out[0])).toContain(SUMMARY_OPEN);
            expect(out[1]?.role ?? 'assistant').toBe('assistant');
          }
        },
      ),
      { numRuns: 300 },
    );
    // the property held through every stage, not only in runs where nothing happened
    expect([...seen.keys()].sort()).toEqual(['clear_tool_results', 'summarise', 'truncate']);
  });
});

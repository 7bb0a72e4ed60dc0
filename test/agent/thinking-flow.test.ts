import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { ContentBlock } from '../../src/model/types.js';
import { thinkingLine, TranscriptRenderer } from '../../src/observe/transcript-view.js';
import { countingTool } from './support/probe-tools.js';
import { invalidRequests, modelFixture } from './support/models.js';
import { collect, tempDir } from './support/workspace.js';

const thinkAndCount = (n: number) => ({
  content: [
    { type: 'thinking' as const, thinking: `Counting to ${n} next.` },
    { type: 'tool_use' as const, name: 'count', input: { to: n } },
  ],
});
const SUMMARY_RULE = {
  match: '<compaction_request>',
  times: 'always' as const,
  content: [{ type: 'text' as const, text: '## Goal\nCount.' }],
};
const thinkingOf = (blocks: unknown): ContentBlock[] =>
  (Array.isArray(blocks) ? (blocks as ContentBlock[]) : []).filter((b) => b.type === 'thinking');

describe('extended thinking in the agent loop (real SDK, fake server)', () => {
  test('every tool-use turn sends its thinking back unchanged, and the run succeeds', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture('fake-server', {
      steps: [
        thinkAndCount(2),
        thinkAndCount(3),
        {
          content: [
            { type: 'thinking', thinking: 'Done.' },
            { type: 'text', text: 'Counted.' },
          ],
        },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      thinking: { thinking: 'adaptive' },
    });
    const { result } = await collect(runtime.submitMessage('Count twice.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Counted.' });
    expect(invalidRequests(fixture)).toEqual([]);
    const bodies = fixture.server!.requests.map((r) => r.body!);
    expect(bodies.every((b) => (b.thinking as { type: string }).type === 'adaptive')).toBe(true);
    const sentBack = bodies[2]!.messages
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => thinkingOf(m.content));
    expect(sentBack.map((b) => (b.type === 'thinking' ? b.thinking : ''))).toEqual([
      'Counting to 2 next.',
      'Counting to 3 next.',
    ]);
    fixture.script.assertComplete();
  });

  test('compaction keeps the last turn whole: its thinking stays with its tool call', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture('fake-server', {
      rules: [SUMMARY_RULE],
      steps: [thinkAndCount(3), thinkAndCount(4), { content: [{ type: 'text', text: 'Recovered.' }] }],
    });
    fixture.server!.inject({ kind: 'prompt_too_long', match: { text: '^1 2 3 4$' } });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      thinking: { thinking: 'adaptive' },
    });
    const { result, events } = await collect(runtime.submitMessage('Count twice.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Recovered.' });
    expect(events.some((e) => e.type === 'system' && e.subtype === 'compact')).toBe(true);
    expect(invalidRequests(fixture)).toEqual([]);
    const kept = runtime.messages.filter((m) => m.role === 'assistant' && thinkingOf(m.content).length > 0);
    expect(kept.length).toBeGreaterThan(0);
    for (const m of kept) expect((m.content as ContentBlock[])[0]!.type).toBe('thinking');
  });

  test('logs and top show a thinking block collapsed to one line', () => {
    const renderer = new TranscriptRenderer({ color: false });
    const out = renderer.render({
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'a b c', signature: 's' },
          { type: 'redacted_thinking', data: 'x' },
          { type: 'text', text: 'Hi.' },
        ],
      },
    });
    expect(out.slice(0, 3)).toEqual(['∴ thinking (3 words, collapsed)', '∴ thinking (redacted)', 'Hi.']);
    expect(thinkingLine({ type: 'thinking', thinking: 'one' })).toBe('∴ thinking (1 word, collapsed)');
  });
});

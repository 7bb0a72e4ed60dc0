import { describe, expect, test } from 'vitest';
import { CONTINUE_PROMPT } from '../../../src/agent/context/steps.js';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import type { AgentEvent } from '../../../src/agent/types.js';
import { countingTool } from '../support/probe-tools.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from '../support/models.js';
import { collect, tempDir } from '../support/workspace.js';

const count = (id: string, to: number) => ({
  content: [{ type: 'tool_use' as const, id, name: 'count', input: { to } }],
});
const SUMMARY_RULE = {
  match: '<compaction_request>',
  times: 'always' as const,
  content: [{ type: 'text' as const, text: '## Goal\nCount.' }],
};
const notices = (events: AgentEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'system' && e.subtype === 'notice' ? [e.message] : []));

describe('prompt_too_long from the API (real SDK, fake server)', () => {
  test('triggers one compaction and a retry', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture('fake-server', {
      rules: [SUMMARY_RULE],
      steps: [count('toolu_1', 3), count('toolu_2', 4), { content: [{ type: 'text', text: 'Recovered.' }] }],
    });
    fixture.server!.inject({ kind: 'prompt_too_long', match: { text: '^1 2 3 4$' } });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, tools: [countingTool] });
    const { result, events } = await collect(runtime.submitMessage('Count twice.'));

    expect(result).toMatchObject({ subtype: 'success', result: 'Recovered.' });
    const compact = events.find((e) => e.type === 'system' && e.subtype === 'compact');
    expect(compact).toMatchObject({ trigger: 'prompt_too_long', stages: ['summarise'] });
    const outcomes = fixture.server!.requests.map((r) => r.outcome);
    expect(outcomes).toEqual(['answered', 'answered', 'fault:prompt_too_long', 'answered', 'answered']);
    expect(JSON.stringify(runtime.messages)).not.toContain('toolu_1');
    expect(invalidRequests(fixture)).toEqual([]);
    fixture.script.assertComplete();
  });

  test('a second prompt_too_long right after the retry ends the run with the model error', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture('fake-server', {
      rules: [SUMMARY_RULE],
      steps: [count('toolu_1', 3), count('toolu_2', 4)],
    });
    const tooLong = { kind: 'prompt_too_long' as const, match: { text: '^1 2 3 4$' } };
    fixture.server!.inject([tooLong, tooLong]);
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, tools: [countingTool] });
    const { result, events } = await collect(runtime.submitMessage('Count twice.'));
    expect(result).toMatchObject({
      subtype: 'error_during_execution',
      model_error: { kind: 'prompt_too_long' },
    });
    expect(events.filter((e) => e.type === 'system' && e.subtype === 'compact')).toHaveLength(1);
  });
});

describe.each(MODEL_KINDS)('an answer cut by max_tokens (%s)', (kind) => {
  test('is continued, a bounded number of times, and returned whole', async () => {
    await using dir = await tempDir();
    const piece = (text: string) => ({
      content: [{ type: 'text' as const, text }],
      stop_reason: 'max_tokens' as const,
    });
    await using fixture = await modelFixture(kind, {
      steps: [
        piece('The answer is'),
        { match: '<continuation>', ...piece(' forty') },
        { match: '<continuation>', ...piece('-two') },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [],
      context: { maxContinuations: 2 },
    });
    const { result, events } = await collect(runtime.submitMessage('What is the answer?'));
    expect(result).toMatchObject({ subtype: 'success', result: 'The answer is forty-two', num_turns: 3 });
    expect(notices(events).filter((n) => n.includes('max_tokens'))).toHaveLength(2);
    expect(JSON.stringify(runtime.messages).split(CONTINUE_PROMPT.slice(0, 20)).length - 1).toBe(2);
    expect(invalidRequests(fixture)).toEqual([]);
    fixture.script.assertComplete();
  });

  test('stops continuing after a completed tool turn resets the count', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'text', text: 'Part' }], stop_reason: 'max_tokens' },
        { match: '<continuation>', ...count('toolu_1', 2) },
        { afterTool: 'count', content: [{ type: 'text', text: 'Final.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, tools: [countingTool] });
    const { result } = await collect(runtime.submitMessage('Go.'));
    // the text cut before a tool turn is not glued to the final answer
    expect(result).toMatchObject({ subtype: 'success', result: 'Final.' });
    fixture.script.assertComplete();
  });
});

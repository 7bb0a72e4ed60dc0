import { describe, expect, test } from 'vitest';
import { SUMMARY_OPEN } from '../../../src/agent/context/compact.js';
import { historyProblems } from '../../../src/agent/context/turns.js';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import { loadTranscript } from '../../../src/agent/transcript.js';
import type { AgentEvent } from '../../../src/agent/types.js';
import type { ScriptInput } from '../../../src/model/scripted/schema.js';
import { countingTool } from '../support/probe-tools.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from '../support/models.js';
import { collect, tempDir } from '../support/workspace.js';

type CompactEvent = Extract<AgentEvent, { subtype: 'compact' }>;
const compactions = (events: AgentEvent[]): CompactEvent[] =>
  events.filter((e): e is CompactEvent => e.type === 'system' && e.subtype === 'compact');

const count = (id: string, to: number, usage?: { input_tokens: number }) => ({
  content: [{ type: 'tool_use' as const, id, name: 'count', input: { to } }],
  ...(usage ? { usage } : {}),
});

/** Three counting turns, the third reporting a nearly full window, then the answer. */
function script(summary: ScriptInput['rules']): ScriptInput {
  return {
    rules: summary,
    steps: [
      count('toolu_c1', 20),
      count('toolu_c2', 21),
      count('toolu_c3', 22, { input_tokens: 1_800 }),
      { content: [{ type: 'text', text: 'Done counting.' }] },
    ],
  };
}

const CONTEXT = { windowTokens: 2_000, clearToolResultsAt: 0.5, summariseAt: 0.7, keepRecentTurns: 1 };

describe.each(MODEL_KINDS)('compaction in a run (%s)', (kind) => {
  test('summarises older history, states identity and role again, keeps the last turn, and resumes from the transcript', async () => {
    await using dir = await tempDir();
    const summary =
      '## Goal\nCount three times.\n## Decisions\nCounted to 20 and 21.\n## Files touched\n(none)\n## Open questions\nNone.';
    await using fixture = await modelFixture(
      kind,
      script([
        { match: '<compaction_request>', times: 'always', content: [{ type: 'text', text: summary }] },
      ]),
    );
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      agentName: 'lead',
      role: 'You lead a team of three.',
      context: CONTEXT,
      transcriptDir: `${dir.path}/transcripts`,
    });
    const { result, events } = await collect(runtime.submitMessage('Count three times.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Done counting.', num_turns: 4 });

    const [compact] = compactions(events);
    expect(compact).toMatchObject({ trigger: 'auto', stages: ['summarise'] });
    expect(compact!.tokens_before).toBeGreaterThanOrEqual(1_800);
    expect(compact!.messages).toEqual(runtime.messages.slice(0, 3));

    const head = JSON.stringify(runtime.messages[0]);
    expect(head).toContain('<session_context>');
    expect(head).toContain('You are \\"lead\\"');
    expect(head).toContain('You lead a team of three.');
    expect(head).toContain('Count three times.');
    expect(head).toContain(SUMMARY_OPEN);
    expect(head).toContain('Counted to 20 and 21.');
    expect(runtime.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(JSON.stringify(runtime.messages)).not.toContain('toolu_c1');
    expect(JSON.stringify(runtime.messages[1])).toContain('toolu_c3');
    expect(historyProblems(runtime.messages)).toEqual([]);
    expect(invalidRequests(fixture)).toEqual([]);
    if (fixture.server) {
      const after = fixture.server.requests.at(-1)!.body!;
      expect(JSON.stringify(after.messages[0])).toContain('You lead a team of three.');
    }

    const loaded = await loadTranscript(`${dir.path}/transcripts`, runtime.sessionId);
    expect(loaded.ok && loaded.value.messages).toEqual(runtime.messages);
    fixture.script.assertComplete();
    await runtime.close();
  });

  test('when the summary call fails, the last resort keeps the task, a summary made without the model and the last turn', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(
      kind,
      script([{ match: '<compaction_request>', times: 'always', error: { kind: 'invalid_request' } }]),
    );
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      context: CONTEXT,
    });
    const { result, events } = await collect(runtime.submitMessage('Count three times.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Done counting.' });
    expect(compactions(events).map((e) => e.stages)).toEqual([['truncate']]);
    const head = JSON.stringify(runtime.messages[0]);
    expect(head).toContain('count ×2');
    expect(runtime.messages).toHaveLength(4);
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { AgentEvent } from '../../src/agent/types.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import { callbackTool } from './support/probe-tools.js';
import { collect, tempDir } from './support/workspace.js';

const textOfUser = (e: AgentEvent): string =>
  e.type === 'user' && Array.isArray(e.message.content)
    ? e.message.content
        .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? '[result]' : ''))
        .join('|')
    : '';

describe.each(MODEL_KINDS)('input queued with enqueue() (%s)', (kind) => {
  test('mail arriving during a tool call joins the tool results, before the run ends', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'tool_use', name: 'callback', input: { label: 'x' } }] },
        {
          match: 'callback x done[\\s\\S]*Mail from lead: update the README',
          content: [{ type: 'text', text: 'Noted the mail.' }],
        },
      ],
    });
    let runtime: AgentRuntime | null = null;
    const onCall = (): void => runtime?.enqueue({ text: 'Mail from lead: update the README', id: 'm-1' });
    runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [callbackTool],
      services: { onCall },
    });
    const { events, result } = await collect(runtime.submitMessage('Do the thing.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Noted the mail.', num_turns: 2 });
    const notice = events.findIndex((e) => e.type === 'system' && e.subtype === 'queued_input');
    expect(events[notice]).toMatchObject({ ids: ['m-1'] });
    expect(textOfUser(events[notice - 1]!)).toBe('[result]|Mail from lead: update the README');
    fixture.script.assertComplete();
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('mail arriving while the model answers keeps the run going instead of ending it', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'text', text: 'Working on it.' }] },
        { match: 'late mail', content: [{ type: 'text', text: 'Got the late mail.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, tools: [] });
    let sent = false;
    const onEvent = (e: AgentEvent): void => {
      if (e.type === 'stream_event' && !sent) runtime.enqueue('late mail');
      sent ||= e.type === 'stream_event';
    };
    const { result } = await collect(runtime.submitMessage('Start.'), onEvent);
    expect(result).toMatchObject({ subtype: 'success', result: 'Got the late mail.', num_turns: 2 });
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('mail enqueued while idle waits for the next run and goes in with its prompt', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [{ match: 'Hello[\\s\\S]*held mail', content: [{ type: 'text', text: 'Both seen.' }] }],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, tools: [] });
    runtime.enqueue({ text: 'held mail', id: 'm-2', meta: { from: 'lead' } });
    const { events, result } = await collect(runtime.submitMessage('Hello'));
    expect(result.result).toBe('Both seen.');
    expect(events.find((e) => e.type === 'system' && e.subtype === 'queued_input')).toMatchObject({
      ids: ['m-2'],
    });
  });
});

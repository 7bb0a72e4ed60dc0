import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { runAgent } from '../../src/agent/run.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { AnthropicModel } from '../../src/model/anthropic.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { AgentEvent } from '../../src/agent/types.js';
import { builtinTools } from '../../src/tools/index.js';
import { countingTool } from './support/probe-tools.js';
import { FAKE_MODEL_NAME, MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import { collect, tempDir } from './support/workspace.js';

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

const MILLION_INPUT = {
  input_tokens: 1_000_000,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

describe.each(MODEL_KINDS)('the agent loop (%s)', (kind) => {
  test('runs a multi-turn tool conversation and keeps it across submitMessage calls', async () => {
    await using dir = await tempDir();
    await writeFile(join(dir.path, 'notes.txt'), 'hello from notes\n');
    await using fixture = await modelFixture(kind, {
      steps: [
        {
          content: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'toolu_r1', name: 'read', input: { file_path: 'notes.txt' } },
          ],
        },
        {
          match: 'hello from notes',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_w1',
              name: 'write',
              input: { file_path: 'out.txt', content: 'copied: hello' },
            },
          ],
        },
        { afterTool: 'write', content: [{ type: 'text', text: 'Done: copied the note.' }] },
        { match: 'And now\\?', turn: 3, content: [{ type: 'text', text: 'Still here.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, parentId: 'task-1' });

    const first = await collect(runtime.submitMessage('Copy the note.'));
    expect(first.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Done: copied the note.',
      num_turns: 3,
    });
    expect(await readFile(join(dir.path, 'out.txt'), 'utf8')).toBe('copied: hello');
    const init = ofType(first.events, 'system')[0];
    expect(init).toMatchObject({
      subtype: 'init',
      model: FAKE_MODEL_NAME,
      cwd: dir.path,
      agent: 'agent',
      session_id: runtime.sessionId,
    });
    expect(init && 'tools' in init ? init.tools : []).toEqual(builtinTools().map((t) => t.name));
    expect(ofType(first.events, 'assistant')).toHaveLength(3);
    expect(
      ofType(first.events, 'stream_event')
        .map((e) => (e.event.type === 'text_delta' ? e.event.text : ''))
        .join(''),
    ).toContain('Reading.');
    expect(ofType(first.events, 'tool_use_summary').map((e) => [e.tool_use_id, e.is_error])).toEqual([
      ['toolu_r1', false],
      ['toolu_w1', false],
    ]);
    for (const event of first.events) {
      expect(event).toMatchObject({ session_id: runtime.sessionId, parent_id: 'task-1', depth: 0 });
      expect(event.uuid).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(new Set(first.events.map((e) => e.uuid)).size).toBe(first.events.length);
    expect(first.result.usage[FAKE_MODEL_NAME]?.output_tokens).toBeGreaterThan(0);

    const second = await collect(runtime.submitMessage('And now?'));
    expect(second.result).toMatchObject({ subtype: 'success', result: 'Still here.', num_turns: 1 });
    expect(ofType(second.events, 'system').filter((e) => e.subtype === 'init')).toHaveLength(0);
    expect(runtime.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    fixture.script.assertComplete();
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('stops at max turns with a result, leaving a history the API accepts', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      rules: [
        // the follow-up joins the last tool results in one user message: match it first
        { match: 'Go on', content: [{ type: 'text', text: 'Stopping now.' }] },
        { times: 'always', content: [{ type: 'tool_use', name: 'count', input: { to: 2 } }] },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      maxTurns: 3,
    });
    const { result } = await collect(runtime.submitMessage('Please count.'));
    expect(result).toMatchObject({ subtype: 'error_max_turns', is_error: true, num_turns: 3 });
    expect(result.error).toContain('3 turns');
    expect(runtime.messages.at(-1)?.role).toBe('user');
    const next = await collect(runtime.submitMessage('Go on'));
    expect(next.result.subtype).toBe('success');
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('stops when the budget is spent, from scripted usage and prices', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      rules: [
        {
          times: 'always',
          usage: MILLION_INPUT,
          content: [{ type: 'tool_use', name: 'count', input: { to: 1 } }],
        },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      maxBudgetUsd: 1.5,
      prices: { [FAKE_MODEL_NAME]: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
    });
    const { result } = await collect(runtime.submitMessage('Spend.'));
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', num_turns: 2, total_cost_usd: 2 });
    expect(result.usage[FAKE_MODEL_NAME]?.input_tokens).toBe(2_000_000);
  });

  test('a model failure ends the run with error_during_execution and the classified error', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [], error: { kind: 'overloaded', message: 'Overloaded' } },
        { content: [{ type: 'text', text: 'Back.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, tools: [] });
    const { result } = await collect(runtime.submitMessage('Hello?'));
    expect(result).toMatchObject({
      subtype: 'error_during_execution',
      is_error: true,
      model_error: { kind: 'overloaded' },
    });
    expect(result.error).toContain('overloaded');
    const again = await collect(runtime.submitMessage('Hello again?'));
    expect(again.result).toMatchObject({ subtype: 'success', result: 'Back.' });
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

test('runAgent answers with the final result; an aborted signal ends it as aborted', async () => {
  await using dir = await tempDir();
  const model = new ScriptedModel({ rules: [{ times: 'always', content: [{ type: 'text', text: 'Hi.' }] }] });
  expect(await runAgent('Hello', { model, cwd: dir.path, tools: [] })).toMatchObject({
    type: 'result',
    subtype: 'success',
    result: 'Hi.',
  });
  const aborted = await runAgent('Hello', { model, cwd: dir.path, tools: [], signal: AbortSignal.abort() });
  expect(aborted).toMatchObject({ subtype: 'aborted', num_turns: 0 });
});

test('a model retry (through the real SDK) shows as a system retry notice and the run goes on', async () => {
  await using dir = await tempDir();
  await using server = await startFakeAnthropicServer({
    script: { steps: [{ content: [{ type: 'text', text: 'Answered after a retry.' }] }] },
    faults: [{ kind: 'overloaded' }],
  });
  const model = new AnthropicModel({
    model: FAKE_MODEL_NAME,
    apiKey: 'test-key',
    baseURL: server.url,
    maxRetries: 2,
    backoff: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [] });
  const { events, result } = await collect(runtime.submitMessage('Hello'));
  expect(result).toMatchObject({ subtype: 'success', result: 'Answered after a retry.' });
  const retry = events.find((e) => e.type === 'system' && e.subtype === 'api_retry');
  expect(retry).toMatchObject({ attempt: 1, max_retries: 2, error_status: 529 });
  expect(retry && 'error' in retry ? retry.error : '').toContain('overloaded');
});

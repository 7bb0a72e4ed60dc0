import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { bashTool } from '../../src/tools/index.js';
import { HoldAfterToolUse, MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import {
  barrier,
  countingTool,
  explodingTool,
  exclusiveTool,
  probeTool,
  waitForAbortTool,
  type Timeline,
} from './support/probe-tools.js';
import { collect, resultText, tempDir, toolResults } from './support/workspace.js';

const BYPASS: PermissionPolicy = { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] };
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});
const done = { content: [{ type: 'text' as const, text: 'All done.' }] };

describe.each(MODEL_KINDS)('tool execution (%s)', (kind) => {
  test('concurrency-safe calls overlap, exclusive calls run alone, results keep the model order', async () => {
    await using dir = await tempDir();
    const timeline: Timeline = [];
    await using fixture = await modelFixture(kind, {
      steps: [
        {
          content: [
            use('t_a', 'probe', { label: 'a' }),
            use('t_b', 'probe', { label: 'b' }),
            use('t_c', 'probe', { label: 'c' }),
            use('t_w1', 'exclusive', { label: 'w1' }),
            use('t_w2', 'exclusive', { label: 'w2' }),
            use('t_d', 'probe', { label: 'd' }),
          ],
        },
        done,
      ],
    });
    const tools = [probeTool(timeline, barrier(3)), exclusiveTool(timeline)];
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools,
      permissionPolicy: BYPASS,
    });
    const { result } = await collect(runtime.submitMessage('Go.'));
    expect(result.subtype).toBe('success');

    // a, b and c each waited at a barrier only all three together could pass: they overlapped
    const results = toolResults(runtime.messages);
    for (const id of ['t_a', 't_b', 't_c']) expect(resultText(results.get(id))).toContain('met the others');
    const at = (entry: string): number => timeline.indexOf(entry);
    const probesEnded = Math.max(at('end a'), at('end b'), at('end c'));
    expect(at('start w1')).toBeGreaterThan(probesEnded);
    expect(timeline.slice(at('start w1'))).toEqual([
      'start w1',
      'end w1',
      'start w2',
      'end w2',
      'start d',
      'end d',
    ]);
    const userWithResults = runtime.messages[2]!;
    const order = Array.isArray(userWithResults.content)
      ? userWithResults.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []))
      : [];
    expect(order).toEqual(['t_a', 't_b', 't_c', 't_w1', 't_w2', 't_d']);
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('a failing bash call cancels its running siblings', async () => {
    await using dir = await tempDir();
    const timeline: Timeline = [];
    await using fixture = await modelFixture(kind, {
      steps: [
        {
          content: [
            use('t_wait', 'wait_for_abort', { label: 'slow' }),
            use('t_sleep', 'bash', { command: 'sleep 20' }),
            use('t_fail', 'bash', { command: 'ls /definitely/not/here' }),
          ],
        },
        done,
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [waitForAbortTool(timeline), bashTool],
      permissionPolicy: BYPASS,
    });
    const { result } = await collect(runtime.submitMessage('Go.'));
    expect(result.subtype).toBe('success');
    const results = toolResults(runtime.messages);
    expect(results.get('t_fail')).toMatchObject({ is_error: true });
    expect(resultText(results.get('t_fail'))).toMatch(/exit code [12]/);
    for (const id of ['t_wait', 't_sleep']) {
      expect(results.get(id)).toMatchObject({
        is_error: true,
        content: 'cancelled: a sibling bash command failed',
      });
    }
    expect(timeline).toEqual(['start slow', 'aborted slow']);
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('an error of another tool does not cancel its siblings', async () => {
    await using dir = await tempDir();
    const timeline: Timeline = [];
    await using fixture = await modelFixture(kind, {
      steps: [
        {
          content: [
            use('t_a', 'probe', { label: 'a' }),
            use('t_x', 'explode', {}),
            use('t_b', 'probe', { label: 'b' }),
          ],
        },
        done,
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [probeTool(timeline, barrier(2)), explodingTool],
    });
    await collect(runtime.submitMessage('Go.'));
    const results = toolResults(runtime.messages);
    expect(results.get('t_x')).toMatchObject({ is_error: true });
    expect(resultText(results.get('t_a'))).toContain('met the others');
    expect(resultText(results.get('t_b'))).toContain('met the others');
  });

  test('invalid input and a thrown error are different is_error results, and the loop goes on', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [use('t_bad', 'count', { to: 'three' }), use('t_boom', 'explode', {})] },
        { match: 'the disk is on fire', content: [use('t_ok', 'count', { to: 3 })] },
        { match: '1 2 3', content: [{ type: 'text', text: 'Counted.' }] },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool, explodingTool],
    });
    const { result, events } = await collect(runtime.submitMessage('Count.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Counted.', num_turns: 3 });
    const results = toolResults(runtime.messages);
    const invalid = resultText(results.get('t_bad'));
    expect(invalid).toContain('invalid input for tool "count" (field: to)');
    expect(invalid).toContain('did not run');
    const thrown = resultText(results.get('t_boom'));
    expect(thrown).toContain('failed while running: the disk is on fire');
    expect(thrown).toContain('not in your input');
    expect(results.get('t_bad')?.is_error && results.get('t_boom')?.is_error).toBe(true);
    const summaries = events.filter((e) => e.type === 'tool_use_summary');
    expect(summaries.map((s) => s.is_error)).toEqual([true, true, false]);
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

// Scripted only: the Messages API refuses a history whose tool_use names a tool
// missing from `tools`, so the fake server (rightly) cannot be asked to continue.
test('an unknown tool gets an is_error result listing the available tools', async () => {
  await using dir = await tempDir();
  const model = new ScriptedModel({
    steps: [
      { content: [use('t_x', 'frobnicate', { what: 1 })] },
      { match: 'Available tools: count, explode', ...done },
    ],
  });
  const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [countingTool, explodingTool] });
  const { result } = await collect(runtime.submitMessage('Go.'));
  expect(result.subtype).toBe('success');
  const text = resultText(toolResults(runtime.messages).get('t_x'));
  expect(text).toContain('there is no tool named "frobnicate"');
  model.assertComplete();
});

test('a tool starts as soon as its tool_use block is complete, before the stream ends', async () => {
  await using dir = await tempDir();
  const timeline: Timeline = [];
  const scripted = new ScriptedModel({
    steps: [
      {
        content: [
          use('t_a', 'probe', { label: 'early' }),
          { type: 'text', text: 'and more text after the call' },
        ],
      },
      done,
    ],
  });
  // the stream pauses after the tool_use until the tool has started (or 5 s pass)
  const model = new HoldAfterToolUse(scripted, timeline, 'start early');
  const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [probeTool(timeline, barrier(1))] });
  const { result } = await collect(runtime.submitMessage('Go.'));
  expect(result.subtype).toBe('success');
  expect(timeline).toContain('stream resumed');
  expect(timeline.indexOf('start early')).toBeLessThan(timeline.indexOf('stream resumed'));
});

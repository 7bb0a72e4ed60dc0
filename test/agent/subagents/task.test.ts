import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import type { AgentEvent, ResultEvent } from '../../../src/agent/types.js';
import { createHookRunner } from '../../../src/hooks/index.js';
import type { ScriptInput } from '../../../src/model/scripted/schema.js';
import { callbackTool, waitForAbortTool } from '../support/probe-tools.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from '../support/models.js';
import { collect, resultText, tempDir, toolResults, waitFor } from '../support/workspace.js';

const EXPLORER = `---
name: explorer
description: Finds things in the repository.
tools: Read, Grep
---
You explore and report briefly.
`;

const taskCall = (id: string, input: Record<string, unknown>) => ({
  content: [
    { type: 'tool_use' as const, id, name: 'task', input: { description: 'find the word', ...input } },
  ],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

async function workspace(dir: string): Promise<void> {
  await mkdir(join(dir, '.claude', 'agents'), { recursive: true });
  await writeFile(join(dir, '.claude', 'agents', 'explorer.md'), EXPLORER);
  await writeFile(join(dir, 'notes.txt'), 'INNER-FILE-CONTENT: the secret word is swordfish\n');
}

const byDepth = (events: AgentEvent[], depth: number) => events.filter((e) => e.depth === depth);

describe.each(MODEL_KINDS)('the task tool (%s)', (kind) => {
  test("runs a subagent whose inner messages stay out of the parent's; only its final text comes back", async () => {
    await using dir = await tempDir();
    await workspace(dir.path);
    const script: ScriptInput = {
      steps: [
        {
          agent: 'lead',
          ...taskCall('toolu_task', {
            prompt: 'What is the secret word in notes.txt?',
            subagent_type: 'explorer',
          }),
        },
        {
          agent: 'lead:explorer',
          content: [{ type: 'tool_use', id: 'toolu_inner', name: 'read', input: { file_path: 'notes.txt' } }],
        },
        { agent: 'lead:explorer', afterTool: 'read', ...say('The secret word is swordfish.') },
        { agent: 'lead', afterTool: 'task', ...say('The subagent says: swordfish.') },
      ],
    };
    await using fixture = await modelFixture(kind, script);
    const hookLog = (name: string) => `cat > ${join(dir.path, name)}`;
    const hooks = createHookRunner(
      {
        SubagentStart: [{ hooks: [{ type: 'command', command: hookLog('start.json') }] }],
        SubagentStop: [{ hooks: [{ type: 'command', command: hookLog('stop.json') }] }],
      },
      { cwd: dir.path },
    );
    const seen: AgentEvent[] = [];
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      agentName: 'lead',
      hooks,
      subagents: {},
      onEvent: (e) => seen.push(e),
    });
    const { result, events } = await collect(runtime.submitMessage('Ask a subagent for the secret word.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'The subagent says: swordfish.' });

    expect(resultText(toolResults(runtime.messages).get('toolu_task'))).toBe('The secret word is swordfish.');
    const parent = JSON.stringify(runtime.messages);
    expect(parent).not.toContain('INNER-FILE-CONTENT');
    expect(parent).not.toContain('toolu_inner');
    expect(byDepth(events, 1)).toEqual([]); // the parent's own stream carries its own events only

    const inner = byDepth(seen, 1);
    expect(inner.length).toBeGreaterThan(0);
    expect(inner.every((e) => e.parent_id === 'toolu_task')).toBe(true);
    const init = inner.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init && 'tools' in init ? init.tools : []).toEqual(['read', 'grep']);
    const sub = inner.find((e): e is ResultEvent => e.type === 'result')!;
    expect(sub).toMatchObject({ subtype: 'success' });
    // What the subagent spent is in the parent's result (so budgets and `teamd cost` see it).
    const out = (usage: ResultEvent['usage']) => Object.values(usage).reduce((n, u) => n + u.output_tokens, 0);
    const own = byDepth(events, 0).reduce((n, e) => n + (e.type === 'assistant' ? e.usage.output_tokens : 0), 0);
    expect(out(sub.usage)).toBeGreaterThan(0);
    expect(out(result.usage)).toBe(own + out(sub.usage));

    const start = JSON.parse(await readFile(join(dir.path, 'start.json'), 'utf8'));
    expect(start).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_type: 'explorer',
      agent_id: 'toolu_task',
    });
    const stop = JSON.parse(await readFile(join(dir.path, 'stop.json'), 'utf8'));
    expect(stop).toMatchObject({ hook_event_name: 'SubagentStop' });
    expect(invalidRequests(fixture)).toEqual([]);
    fixture.script.assertComplete();
    await runtime.close();
  });
});

describe('subagents', () => {
  test('a subagent has no task tool, so it cannot start another subagent', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture('scripted', {
      steps: [
        { agent: 'lead', ...taskCall('toolu_outer', { prompt: 'Delegate further.' }) },
        { agent: 'lead:general-purpose', ...taskCall('toolu_nested', { prompt: 'Go deeper.' }) },
        { agent: 'lead:general-purpose', match: 'no tool named "task"', ...say('I cannot delegate.') },
        { agent: 'lead', ...say('Done.') },
      ],
    });
    const seen: AgentEvent[] = [];
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      agentName: 'lead',
      subagents: {},
      onEvent: (e) => seen.push(e),
    });
    const { result } = await collect(runtime.submitMessage('Go.'));
    expect(result.subtype).toBe('success');
    const inits = seen.filter((e) => e.type === 'system' && e.subtype === 'init');
    expect(inits.map((e) => ('tools' in e ? e.tools.includes('task') : null))).toEqual([true, false]);
    expect(resultText(toolResults(runtime.messages).get('toolu_outer'))).toBe('I cannot delegate.');
    fixture.script.assertComplete();
  });

  test("a synchronous subagent shares the parent's abort", async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture('scripted', {
      steps: [
        { agent: 'lead', ...taskCall('toolu_task', { prompt: 'Wait.' }) },
        {
          agent: 'lead:general-purpose',
          content: [{ type: 'tool_use', name: 'wait_for_abort', input: { label: 'inner' } }],
        },
      ],
    });
    const timeline: string[] = [];
    const seen: AgentEvent[] = [];
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      agentName: 'lead',
      tools: [waitForAbortTool(timeline)],
      subagents: {},
      onEvent: (e) => seen.push(e),
    });
    const run = collect(runtime.submitMessage('Go.'));
    await waitFor(() => timeline.includes('start inner'), 'the subagent tool to start');
    runtime.interrupt();
    const { result } = await run;
    expect(result.subtype).toBe('aborted');
    expect(timeline).toContain('aborted inner');
    expect(seen.find((e) => e.type === 'result' && e.depth === 1)).toMatchObject({ subtype: 'aborted' });
  });

  test('a background subagent answers at once; its final text arrives later as one task_notification', async () => {
    await using dir = await tempDir();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await using fixture = await modelFixture('scripted', {
      steps: [
        { agent: 'lead', ...taskCall('toolu_bg', { prompt: 'Think slowly.', run_in_background: true }) },
        { agent: 'lead', afterTool: 'task', ...say('Started it; waiting.') },
        {
          agent: 'lead:general-purpose',
          content: [{ type: 'tool_use', name: 'callback', input: { label: 'inner' } }],
        },
        { agent: 'lead:general-purpose', afterTool: 'callback', ...say('BACKGROUND-ANSWER: 42') },
        { agent: 'lead', match: 'Report\\?[\\s\\S]*BACKGROUND-ANSWER: 42', ...say('It said 42.') },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      agentName: 'lead',
      tools: [callbackTool],
      subagents: {},
      services: { onCall: () => gate },
    });
    const first = await collect(runtime.submitMessage('Start a background subagent.'));
    expect(first.result.result).toBe('Started it; waiting.');
    expect(resultText(toolResults(runtime.messages).get('toolu_bg'))).toMatch(
      /^Started subagent subagent-1 \(general-purpose\) in the background/,
    );
    release();
    await waitFor(() => queued(runtime) > 0, 'the notification to be queued');
    const second = await collect(runtime.submitMessage('Report?'));
    expect(second.result.result).toBe('It said 42.');
    const text = JSON.stringify(runtime.messages);
    expect(text.split('<task_id>subagent-1</task_id>').length - 1).toBe(1);
    expect(text).toContain('<status>completed</status>');
    expect(text).not.toContain('callback inner done');
    fixture.script.assertComplete();
    await runtime.close();
  });
});

/** Input waiting in the runtime's queue (test access). */
function queued(runtime: AgentRuntime): number {
  return (runtime as unknown as { queue: { size: number } }).queue.size;
}

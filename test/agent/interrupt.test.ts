import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import type { AgentEvent } from '../../src/agent/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import {
  MODEL_KINDS,
  StallAfterFirstDelta,
  invalidRequests,
  modelFixture,
  type ModelKind,
} from './support/models.js';
import { collect, resultText, tempDir, toolResults, waitFor } from './support/workspace.js';

const BYPASS: PermissionPolicy = { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] };
const LONG_BASH = 'sleep 30 & echo $! > sleeper.pid; echo started; wait';

/** Alive = signalable and not a zombie waiting to be reaped. */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
}

async function stallingFixture(kind: ModelKind, script: ScriptInput) {
  const fixture = await modelFixture(kind, script);
  if (fixture.server) fixture.server.inject({ kind: 'stall_stream' });
  return { fixture, model: fixture.server ? fixture.model : new StallAfterFirstDelta(fixture.model) };
}

describe.each(MODEL_KINDS)('interrupt (%s)', (kind) => {
  test('in the middle of a model stream: the run ends aborted and the next call is accepted', async () => {
    await using dir = await tempDir();
    const { fixture, model } = await stallingFixture(kind, {
      steps: [
        {
          content: [
            { type: 'text', text: 'Let me look at the files first.' },
            { type: 'tool_use', name: 'bash', input: { command: 'ls' } },
          ],
        },
        { match: 'Start over', content: [{ type: 'text', text: 'Starting over.' }] },
      ],
    });
    await using _fixture = fixture;
    const runtime = new AgentRuntime({ model, cwd: dir.path, permissionPolicy: BYPASS });
    const onEvent = (e: AgentEvent): void => {
      if (e.type === 'stream_event') runtime.interrupt();
    };
    const first = await collect(runtime.submitMessage('Look around.'), onEvent);
    expect(first.result).toMatchObject({ subtype: 'aborted', is_error: true });
    expect(first.events.some((e) => e.type === 'stream_event')).toBe(true);
    expect(first.events.some((e) => e.type === 'tool_use_summary')).toBe(false);
    expect(runtime.isRunning).toBe(false);

    const second = await collect(runtime.submitMessage('Start over'));
    expect(second.result).toMatchObject({ subtype: 'success', result: 'Starting over.' });
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('in the middle of a long bash: the process group is killed, the call gets an interrupted result', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'tool_use', id: 'toolu_long', name: 'bash', input: { command: LONG_BASH } }] },
        { match: 'What happened', content: [{ type: 'text', text: 'You stopped me.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, permissionPolicy: BYPASS });
    const onEvent = (e: AgentEvent): void => {
      if (e.type === 'progress' && e.text.includes('started')) runtime.interrupt();
    };
    const first = await collect(runtime.submitMessage('Run the long job.'), onEvent);
    expect(first.result.subtype).toBe('aborted');
    const result = toolResults(runtime.messages).get('toolu_long');
    expect(result).toMatchObject({ is_error: true });
    expect(resultText(result)).toMatch(/^interrupted/);
    const pid = Number(await readFile(join(dir.path, 'sleeper.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await waitFor(async () => !(await isAlive(pid)), `the background sleep (pid ${pid}) to be gone`);

    const second = await collect(runtime.submitMessage('What happened?'));
    expect(second.result).toMatchObject({ subtype: 'success', result: 'You stopped me.' });
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('a caller that stops reading mid-tool aborts the run and leaves a valid history', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'tool_use', id: 'toolu_long', name: 'bash', input: { command: LONG_BASH } }] },
        { match: 'Again', content: [{ type: 'text', text: 'Here.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path, permissionPolicy: BYPASS });
    for await (const event of runtime.submitMessage('Run it.')) {
      if (event.type === 'progress' && event.text.includes('started')) break;
    }
    expect(runtime.isRunning).toBe(false);
    const pid = Number(await readFile(join(dir.path, 'sleeper.pid'), 'utf8'));
    await waitFor(async () => !(await isAlive(pid)), `the background sleep (pid ${pid}) to be gone`);
    const next = await collect(runtime.submitMessage('Again'));
    expect(next.result).toMatchObject({ subtype: 'success', result: 'Here.' });
    expect(resultText(toolResults(runtime.messages).get('toolu_long'))).toMatch(/^interrupted/);
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { ModelHost, type WorkerModelCall } from '../../src/lead/model-host.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import type { ModelRequest, ModelStreamEvent, ToolDefinition } from '../../src/model/types.js';
import { IpcModelClient } from '../../src/teammate/ipc-model.js';
import type { FromWorker } from '../../src/teammate/types.js';

/** A worker's client and the lead's host joined by plain function calls, as the ports would join them. */
function joined() {
  const seen: ModelRequest[] = [];
  const model = new ScriptedModel({ rules: [{ times: 'always', content: [{ type: 'text', text: 'ok' }] }] } as never);
  const recording = { model: model.model, stream: (r: ModelRequest) => (seen.push(r), model.stream(r)) };
  const host = new ModelHost(recording);
  const calls: WorkerModelCall[] = [];
  const worker = {
    postMessage: (m: { callId: string; events: ModelStreamEvent[] }) => client.receive(m.callId, m.events),
  };
  const client = new IpcModelClient('scripted', {
    postMessage: (m: FromWorker) => {
      if (m.type !== 'model_call') return;
      calls.push(m);
      host.call(worker, m);
    },
  });
  return { client, calls, seen };
}

const tool = (name: string): ToolDefinition => ({ name, description: `the ${name} tool`, input_schema: { type: 'object' } });

async function ask(client: IpcModelClient, tools: ToolDefinition[]): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  const request = { model: 'scripted', system: 's', tools, messages: [{ role: 'user' as const, content: 'hi' }], maxTokens: 100, signal: new AbortController().signal };
  for await (const e of client.stream(request)) events.push(e);
  return events;
}

describe('model calls through the lead', () => {
  it('sends each tool definition once and names it by reference after; the model still sees every tool', async () => {
    const { client, calls, seen } = joined();
    const [read, edit] = [tool('read'), tool('edit')];
    await ask(client, [read, edit]);
    await ask(client, [read, edit]);
    const third = await ask(client, [edit, tool('bash')]);
    expect(calls.map((c) => c.newTools.length)).toEqual([2, 0, 1]);
    expect(calls[1]!.toolIds).toEqual(calls[0]!.toolIds);
    expect(seen.map((r) => r.tools.map((t) => t.name))).toEqual([['read', 'edit'], ['read', 'edit'], ['edit', 'bash']]);
    expect(seen[1]!.tools[0]).toEqual(read);
    expect(third.at(-1)).toMatchObject({ type: 'done', stopReason: 'end_turn' });
  });

  it('answers a reference it was never sent with a clear error, not a hang', async () => {
    const host = new ModelHost({ model: 'm', stream: () => { throw new Error('not called'); } });
    const events: ModelStreamEvent[] = [];
    host.call({ postMessage: (m: { events: ModelStreamEvent[] }) => events.push(...m.events) }, { callId: 'c1', request: {}, toolIds: [7], newTools: [] });
    expect(events).toEqual([expect.objectContaining({ type: 'done', stopReason: 'error', error: expect.objectContaining({ message: expect.stringContaining('tool reference') }) })]);
  });
});

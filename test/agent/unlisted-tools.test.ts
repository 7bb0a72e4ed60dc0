import { expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../src/model/types.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { teamTools } from '../../src/teammate/tools/index.js';
import { toolDefinition } from '../../src/tools/index.js';
import { collect, tempDir } from './support/workspace.js';

/** Records the tools each request offers; the script may still call an unlisted one (a resumed transcript's old name). */
class SeesTools implements ModelClient {
  readonly offered: string[][] = [];
  constructor(private readonly inner: ScriptedModel, private readonly hidden: ModelRequest['tools']) {}
  get model(): string {
    return this.inner.model;
  }
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.offered.push(request.tools.map((t) => t.name));
    return this.inner.stream({ ...request, tools: [...request.tools, ...this.hidden] });
  }
}

test('an unlisted tool (an old team tool name) is never offered, yet a call to it runs', async () => {
  await using dir = await tempDir();
  const tasks = await TaskStore.open(dir.path);
  await tasks.create({ id: 'a', subject: 'do a' });
  const tools = teamTools('teammate');
  const scripted = new ScriptedModel({
    steps: [
      { content: [{ type: 'tool_use', name: 'task_get', input: { id: 'a' } }] },
      { match: '"subject": "do a"', content: [{ type: 'text', text: 'seen' }] },
    ],
  });
  const model = new SeesTools(scripted, tools.filter((t) => t.unlisted).map(toolDefinition));
  const runtime = new AgentRuntime({
    model,
    cwd: dir.path,
    tools,
    services: { team: { tasks, mailbox: null, roster: () => [], self: 'ann' } },
  });
  const { events, result } = await collect(runtime.submitMessage('Look at a.'));
  expect(result).toMatchObject({ subtype: 'success', result: 'seen' });
  expect(model.offered).toEqual([['team'], ['team']]);
  expect(events.find((e) => e.type === 'system' && e.subtype === 'init')).toMatchObject({ tools: ['team'] });
});

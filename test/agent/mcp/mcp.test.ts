import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { loadMcpTools } from '../../../src/agent/mcp/load.js';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import type { AgentEvent } from '../../../src/agent/types.js';
import { toolDefinition } from '../../../src/tools/index.js';
import { processAlive } from '../../../src/tools/process-group.js';
import { createToolContext } from '../../../src/tools/context.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from '../support/models.js';
import { collect, resultText, tempDir, toolResults, waitFor } from '../support/workspace.js';

const SERVER = fileURLToPath(new URL('./support/echo-server.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

async function writeConfig(dir: string, extra: Record<string, unknown> = {}): Promise<string> {
  const pidFile = join(dir, 'server.pids');
  const config = {
    mcpServers: {
      echo: { command: process.execPath, args: ['--import', TSX, SERVER], env: { PID_FILE: pidFile } },
      ...extra,
    },
  };
  await writeFile(join(dir, '.mcp.json'), JSON.stringify(config, null, 2));
  return pidFile;
}

const pidsIn = async (file: string): Promise<number[]> =>
  (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);

const notices = (events: AgentEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'system' && e.subtype === 'notice' ? [e.message] : []));

describe('loadMcpTools', () => {
  test('lists the tools of a real stdio server, calls them, and reports the servers it skipped', async () => {
    await using dir = await tempDir();
    const pidFile = await writeConfig(dir.path, {
      missing: { command: join(dir.path, 'no-such-server') },
      wrong: { type: 'websocket', url: 'ws://127.0.0.1:1/' },
    });
    const set = await loadMcpTools(dir.path);
    try {
      expect(set.servers).toEqual(['echo']);
      expect(set.tools.map((t) => t.name)).toEqual([
        'mcp__echo__echo',
        'mcp__echo__add',
        'mcp__echo__fail',
        'mcp__echo__die',
        'mcp__echo__picture',
      ]);
      expect(set.problems).toHaveLength(2);
      expect(set.problems.find((p) => p.includes('wrong'))).toMatch(
        /\.mcp\.json: mcpServers\.wrong\.type: "websocket" is not one of stdio, http, sse/,
      );
      expect(set.problems.find((p) => p.includes('missing'))).toMatch(
        /^MCP server "missing" failed to start/,
      );
      const add = set.tools.find((t) => t.name === 'mcp__echo__add')!;
      expect(toolDefinition(add).input_schema).toMatchObject({ type: 'object', required: ['a', 'b'] });
      expect(add.inputSchema.safeParse({ a: 'x', b: 1 }).success).toBe(false);
      const ctx = createToolContext({ root: dir.path });
      expect(await add.run({ a: 2, b: 40 }, ctx)).toMatchObject({ content: '42', isError: false });
      const fail = set.tools.find((t) => t.name === 'mcp__echo__fail')!;
      expect(await fail.run({}, ctx)).toMatchObject({ content: 'the tracker is down', isError: true });
    } finally {
      await set.close();
    }
    const [pid] = await pidsIn(pidFile);
    await waitFor(() => !processAlive(pid!), 'the server to stop after close()');
  });
});

describe.each(MODEL_KINDS)('MCP tools in a run (%s)', (kind) => {
  test('appear as mcp__<server>__<tool>, ask through the permission gate by default, and are called', async () => {
    await using dir = await tempDir();
    const pidFile = await writeConfig(dir.path, { missing: { command: join(dir.path, 'nope') } });
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [{ type: 'tool_use', id: 't_add', name: 'mcp__echo__add', input: { a: 2, b: 3 } }] },
        {
          afterTool: 'mcp__echo__add',
          content: [{ type: 'tool_use', id: 't_echo', name: 'mcp__echo__echo', input: { text: 'hi' } }],
        },
        { afterTool: 'mcp__echo__echo', content: [{ type: 'text', text: 'Both done.' }] },
      ],
    });
    const asked: string[] = [];
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [],
      mcp: true,
      canUseTool: async (name) => {
        asked.push(name);
        return name === 'mcp__echo__add' ? { behavior: 'allow' } : { behavior: 'deny', message: 'not echo' };
      },
    });
    const { result, events } = await collect(runtime.submitMessage('Add and echo.'));
    expect(result.subtype).toBe('success');
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init && 'tools' in init ? init.tools : []).toEqual([
      'mcp__echo__echo',
      'mcp__echo__add',
      'mcp__echo__fail',
      'mcp__echo__die',
      'mcp__echo__picture',
    ]);
    expect(notices(events).some((n) => n.startsWith('MCP server "missing" failed to start'))).toBe(true);
    expect(asked).toEqual(['mcp__echo__add', 'mcp__echo__echo']);
    expect(resultText(toolResults(runtime.messages).get('t_add'))).toBe('5');
    expect(result.permission_denials.map((d) => d.tool_name)).toEqual(['mcp__echo__echo']);
    expect(invalidRequests(fixture)).toEqual([]);
    fixture.script.assertComplete();
    await runtime.close();
    const [pid] = await pidsIn(pidFile);
    await waitFor(() => !processAlive(pid!), 'the server to stop with the runtime');
  });
});

describe('MCP servers named by a subagent role', () => {
  test('start for that subagent only (allowed by a rule) and stop when it ends', async () => {
    await using dir = await tempDir();
    const pidFile = await writeConfig(dir.path);
    await using fixture = await modelFixture('scripted', {
      steps: [
        {
          agent: 'lead',
          content: [
            {
              type: 'tool_use',
              id: 't_task',
              name: 'task',
              input: { description: 'ask tracker', prompt: 'Echo ping.', subagent_type: 'tracker' },
            },
          ],
        },
        {
          agent: 'lead:tracker',
          content: [{ type: 'tool_use', id: 't_inner', name: 'mcp__echo__echo', input: { text: 'ping' } }],
        },
        {
          agent: 'lead:tracker',
          afterTool: 'mcp__echo__echo',
          content: [{ type: 'text', text: 'The tracker said: echo: ping' }],
        },
        { agent: 'lead', afterTool: 'task', content: [{ type: 'text', text: 'Done.' }] },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      agentName: 'lead',
      permissionPolicy: { defaultMode: 'acceptEdits', allow: ['mcp__echo'], deny: [], ask: [] },
      subagents: {
        roles: [
          {
            name: 'tracker',
            description: 'Talks to the tracker.',
            prompt: 'Use the tracker.',
            tools: ['Read'],
            mcpServers: ['echo'],
          },
        ],
      },
    });
    const { result, events } = await collect(runtime.submitMessage('Ask the tracker.'));
    expect(result.subtype).toBe('success');
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init && 'tools' in init ? init.tools.filter((t) => t.startsWith('mcp__')) : ['?']).toEqual([]);
    expect(resultText(toolResults(runtime.messages).get('t_task'))).toBe('The tracker said: echo: ping');
    const [pid] = await pidsIn(pidFile);
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !processAlive(pid!), 'the role server to stop when the subagent ended');
    fixture.script.assertComplete();
    await runtime.close();
  });
});

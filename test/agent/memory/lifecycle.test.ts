import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { consolidateMemories } from '../../../src/agent/memory/consolidate.js';
import { extractMemories, markedFacts } from '../../../src/agent/memory/extract.js';
import { restoreMemorySnapshot } from '../../../src/agent/memory/snapshots.js';
import { listMemories, writeMemory } from '../../../src/agent/memory/store.js';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import { ScriptedModel } from '../../../src/model/scripted/scripted-model.js';
import type { ConversationMessage } from '../../../src/model/types.js';
import { collect, resultText, tempDir, toolResults } from '../support/workspace.js';

const conversation: ConversationMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: '<session_context>\n<remember>not this</remember>\n</session_context>' },
      { type: 'text', text: 'Fix the build. <remember>The build needs Node 20.</remember>' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Done.\nREMEMBER: run `npm ci` before the tests.' },
      { type: 'tool_use', id: 't1', name: 'read', input: {} },
    ],
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 't1', content: 'REMEMBER: not from a tool result' }],
  },
];

describe('end-of-session extraction', () => {
  test('finds only facts marked persistent, outside tool results and the session context', () => {
    expect(markedFacts(conversation)).toEqual(['The build needs Node 20.', 'run `npm ci` before the tests.']);
  });

  test('the model turns the marks into memories', async () => {
    await using dir = await tempDir();
    const entries = [
      {
        name: 'build-setup',
        description: 'What the build needs',
        type: 'project',
        content: '- Node 20\n- `npm ci` before tests',
      },
    ];
    const model = new ScriptedModel({
      steps: [
        {
          match: '<facts_to_remember>[\\s\\S]*Node 20',
          content: [{ type: 'text', text: JSON.stringify(entries) }],
        },
      ],
    });
    const result = await extractMemories({ messages: conversation }, model, { dir: dir.path });
    expect(result.problems).toEqual([]);
    expect(result.written.map((w) => w.entry.name)).toEqual(['build-setup']);
    expect((await listMemories(dir.path)).entries[0]).toMatchObject({
      name: 'build-setup',
      body: '- Node 20\n- `npm ci` before tests',
    });
    model.assertComplete();
  });

  test('without a usable answer each mark is kept as it is; nothing marked means no model call', async () => {
    await using dir = await tempDir();
    const garbled = new ScriptedModel({
      steps: [{ content: [{ type: 'text', text: 'Sure! Here you go.' }] }],
    });
    const result = await extractMemories(conversation, garbled, { dir: dir.path, defaultType: 'feedback' });
    expect(result.written.map((w) => [w.entry.name, w.entry.type])).toEqual([
      ['The-build-needs-Node-20', 'feedback'],
      ['run-npm-ci-before-the-tests', 'feedback'],
    ]);
    const strict = new ScriptedModel({ steps: [] }); // any call would fail the run
    const none = await extractMemories([{ role: 'user', content: 'nothing to keep' }], strict, {
      dir: dir.path,
    });
    expect(none).toEqual({ marked: [], written: [], problems: [] });
  });
});

describe('consolidation', () => {
  test('past the threshold, duplicates are merged after a snapshot, and the snapshot restores them', async () => {
    await using dir = await tempDir();
    const topics = [
      'database migrations',
      'logging format',
      'release branches',
      'docker images',
      'api tokens',
      'css themes',
    ];
    for (const [i, topic] of topics.entries()) {
      await writeMemory(dir.path, {
        name: `fact-${i}`,
        description: topic,
        type: 'project',
        body: `Notes on ${topic}.`,
      });
    }
    await writeMemory(dir.path, {
      name: 'test-cmd',
      description: 'how to run tests',
      type: 'project',
      body: 'Run npm test in the root.',
    });
    await writeMemory(dir.path, {
      name: 'Test_Cmd',
      description: 'running tests',
      type: 'project',
      body: 'Use the vitest reporter dot.',
    });
    await writeMemory(dir.path, {
      name: 'lint-rules',
      description: 'lint rules of the project code',
      type: 'project',
      body: 'Lint with eslint before commit always please',
    });
    await writeMemory(dir.path, {
      name: 'lint-notes',
      description: 'lint rules of the project code',
      type: 'project',
      body: 'Lint with eslint before commit always please',
    });

    expect((await consolidateMemories(dir.path, { threshold: 20 })).consolidated).toBe(false);
    const result = await consolidateMemories(dir.path, { threshold: 5 });
    expect(result).toMatchObject({ consolidated: true, before: 10, after: 8 });
    expect(result.merges.map((m) => [...m.from, m.into].length)).toEqual([2, 2]);
    const { entries } = await listMemories(dir.path);
    const tests = entries.find((e) => /test/i.test(e.name))!;
    expect(tests.body).toContain('Run npm test in the root.');
    expect(tests.body).toContain('Use the vitest reporter dot.');
    expect(await readdir(result.snapshot!)).toHaveLength(4);

    const restored = await restoreMemorySnapshot(dir.path, result.snapshot!);
    expect(restored.ok && restored.value.length).toBe(4);
    expect((await listMemories(dir.path)).entries).toHaveLength(10);
  });
});

describe('memory in a run', () => {
  test('MEMORY.md is injected at session start; memory_write asks unless allowed; memory_search finds by keyword', async () => {
    await using dir = await tempDir();
    const memoryDir = join(dir.path, '.memory');
    await writeMemory(memoryDir, {
      name: 'deploy',
      description: 'How to deploy the site',
      type: 'project',
      body: 'Run ./deploy.sh from main.',
    });
    const model = new ScriptedModel({
      steps: [
        {
          match: 'How to deploy the site',
          content: [{ type: 'tool_use', id: 't_s', name: 'memory_search', input: { query: 'deploy' } }],
        },
        {
          afterTool: 'memory_search',
          content: [
            {
              type: 'tool_use',
              id: 't_w',
              name: 'memory_write',
              input: { name: 'release day', description: 'When we release', content: 'Fridays.' },
            },
          ],
        },
        { afterTool: 'memory_write', content: [{ type: 'text', text: 'Noted.' }] },
      ],
    });
    const runtime = new AgentRuntime({
      model,
      cwd: dir.path,
      tools: [],
      memory: {},
      permissionPolicy: { defaultMode: 'acceptEdits', allow: ['MemoryWrite'], deny: [], ask: [] },
    });
    const { result, events } = await collect(runtime.submitMessage('What do you remember?'));
    expect(result.subtype).toBe('success');
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init');
    expect(init && 'tools' in init ? init.tools : []).toEqual(['memory_write', 'memory_search']);
    expect(JSON.stringify(runtime.messages[0])).toContain('<memory_index file=\\".memory/MEMORY.md\\">');
    expect(resultText(toolResults(runtime.messages).get('t_s'))).toContain('Run ./deploy.sh from main.');
    expect(await readFile(join(memoryDir, 'release-day.md'), 'utf8')).toContain('Fridays.');
    model.assertComplete();

    const asking = new AgentRuntime({
      model: new ScriptedModel({
        steps: [
          {
            content: [
              {
                type: 'tool_use',
                id: 't_w2',
                name: 'memory_write',
                input: { name: 'x', description: 'x', content: 'x' },
              },
            ],
          },
          { afterTool: 'memory_write', content: [{ type: 'text', text: 'ok' }] },
        ],
      }),
      cwd: dir.path,
      tools: [],
      memory: {},
    });
    const denied = await collect(asking.submitMessage('Write.'));
    expect(denied.result.permission_denials.map((d) => d.tool_name)).toEqual(['memory_write']);
  });

  test('memory_search asks the search model and falls back to keywords when its pick is unusable', async () => {
    await using dir = await tempDir();
    const memoryDir = join(dir.path, '.memory');
    await writeMemory(memoryDir, {
      name: 'alpha',
      description: 'First letter',
      type: 'reference',
      body: 'About a.',
    });
    await writeMemory(memoryDir, {
      name: 'beta',
      description: 'Second letter',
      type: 'reference',
      body: 'About b.',
    });
    const searchModel = new ScriptedModel({
      steps: [
        { match: '<memory_query>greek</memory_query>', content: [{ type: 'text', text: 'beta\nalpha' }] },
        { match: '<memory_query>letter', content: [{ type: 'text', text: 'no-such-memory' }] },
      ],
    });
    const model = new ScriptedModel({
      steps: [
        { content: [{ type: 'tool_use', id: 't1', name: 'memory_search', input: { query: 'greek' } }] },
        {
          afterTool: 'memory_search',
          turn: 1,
          content: [{ type: 'tool_use', id: 't2', name: 'memory_search', input: { query: 'letter second' } }],
        },
        { afterTool: 'memory_search', turn: 2, content: [{ type: 'text', text: 'Found.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [], memory: { searchModel } });
    await collect(runtime.submitMessage('Search.'));
    const first = resultText(toolResults(runtime.messages).get('t1'));
    expect(first.indexOf('## beta')).toBeLessThan(first.indexOf('## alpha'));
    const second = resultText(toolResults(runtime.messages).get('t2'));
    expect(second.startsWith('## beta')).toBe(true); // keyword fallback: "second" ranks beta first
    searchModel.assertComplete();
    model.assertComplete();
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { toolCallProblem } from '../../src/model/scripted/tool-check.js';
import type { ToolDefinition } from '../../src/model/types.js';
import { writeTool } from '../../src/tools/index.js';
import { collect, tempDir } from '../agent/support/workspace.js';

const WRITE: ToolDefinition = {
  name: 'write',
  description: 'write a file',
  input_schema: z.toJSONSchema(
    z.strictObject({ file_path: z.string(), content: z.string(), mode: z.enum(['a', 'b']).optional(), n: z.number().int().optional() }),
    { io: 'input' },
  ),
};
const use = (name: string, input: Record<string, unknown>) => [{ type: 'tool_use' as const, id: 't1', name, input }];

describe('toolCallProblem', () => {
  it('names the entry and the unknown tool, with the tools the agent has', () => {
    expect(toolCallProblem(use('write_file', { path: 'x' }), [WRITE], 's.json: steps[0]')).toBe(
      's.json: steps[0] calls the tool "write_file", which this agent does not have (its tools: write)',
    );
    expect(toolCallProblem(use('write', {}), [], 'r')).toMatch(/its tools: none/);
  });

  it('names the bad field of the input', () => {
    const where = 'steps[1]';
    expect(toolCallProblem(use('write', { path: 'x', content: '' }), [WRITE], where)).toBe(
      'steps[1] calls "write" with invalid input: input.file_path: required, missing',
    );
    expect(toolCallProblem(use('write', { file_path: 'x', content: '', path: 'y' }), [WRITE], where)).toBe(
      'steps[1] calls "write" with invalid input: input.path: not a field of this tool (its fields: file_path, content, mode, n)',
    );
    expect(toolCallProblem(use('write', { file_path: 3, content: '' }), [WRITE], where)).toMatch(
      /input\.file_path: must be string, got number/,
    );
    expect(toolCallProblem(use('write', { file_path: 'x', content: '', mode: 'c' }), [WRITE], where)).toMatch(/input\.mode: must be one of "a", "b"/);
    expect(toolCallProblem(use('write', { file_path: 'x', content: '', n: 1.5 }), [WRITE], where)).toMatch(/input\.n: must be integer/);
    expect(toolCallProblem(use('write', { file_path: 'x', content: 'y' }), [WRITE], where)).toBeUndefined();
    expect(toolCallProblem([{ type: 'text', text: 'no tools' }], [], where)).toBeUndefined();
  });
});

describe('a script file calling a tool that does not exist', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamd-scripted-tools-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails the run with a message naming the step, instead of finishing "successfully"', async () => {
    const file = join(dir, 'script.json');
    await writeFile(
      file,
      JSON.stringify({
        steps: [
          { name: 'write notes', content: use('write_file', { path: 'notes.md', content: '# notes' }) },
          { content: [{ type: 'text', text: 'Done.' }] },
        ],
      }),
    );
    await using work = await tempDir();
    const model = await ScriptedModel.fromFile(file);
    const runtime = new AgentRuntime({ model, cwd: work.path, tools: [writeTool] });
    const { result } = await collect(runtime.submitMessage('Write the notes.'));
    expect(result.subtype).not.toBe('success');
    expect(JSON.stringify(result)).toContain(
      `${file}: steps[0] \\"write notes\\" calls the tool \\"write_file\\", which this agent does not have (its tools: write)`,
    );
  });

  it('a script built in code keeps the old behaviour unless asked (tests of bad tool calls script them)', async () => {
    const script = { steps: [{ content: use('nope', {}) }] };
    const request = { system: '', messages: [{ role: 'user' as const, content: 'go' }], tools: [], maxTokens: 100, signal: new AbortController().signal };
    const events = [];
    for await (const e of new ScriptedModel(script).stream(request)) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'tool_use' });
    const strict = [];
    for await (const e of new ScriptedModel(script, { checkTools: true }).stream(request)) strict.push(e);
    expect(strict.at(-1)).toMatchObject({ type: 'done', stopReason: 'error', error: { kind: 'invalid_request' } });
  });
});

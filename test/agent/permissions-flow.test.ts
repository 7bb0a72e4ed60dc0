import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { CanUseTool, PermissionPolicy } from '../../src/agent/permissions/types.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import { collect, resultText, tempDir, toolResults } from './support/workspace.js';

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});
const policy = (p: Partial<PermissionPolicy>): PermissionPolicy => ({
  defaultMode: 'acceptEdits',
  allow: [],
  deny: [],
  ask: [],
  ...p,
});
const finish = { content: [{ type: 'text' as const, text: 'Finished.' }] };

describe.each(MODEL_KINDS)('the permission gate in the loop (%s)', (kind) => {
  test('a deny rule refuses the call, tells the model, and is recorded in permission_denials', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [use('t_w', 'write', { file_path: 'a.txt', content: 'hi' })] },
        { match: 'Permission denied', ...finish },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: policy({ deny: ['Write'] }),
    });
    const { result } = await collect(runtime.submitMessage('Write a.txt'));
    expect(result.subtype).toBe('success');
    expect(result.permission_denials).toEqual([
      {
        tool_name: 'write',
        tool_use_id: 't_w',
        tool_input: { file_path: 'a.txt', content: 'hi' },
        message: expect.any(String),
      },
    ]);
    expect(toolResults(runtime.messages).get('t_w')).toMatchObject({ is_error: true });
    await expect(readFile(join(dir.path, 'a.txt'))).rejects.toThrow(/ENOENT/);
    fixture.script.assertComplete();
  });

  test('an ask goes to canUseTool, which may rewrite the input or deny', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [use('t_1', 'write', { file_path: 'a.txt', content: 'from the model' })] },
        {
          afterTool: 'write',
          match: 'Wrote|wrote|Created|created',
          content: [use('t_2', 'write', { file_path: 'c.txt', content: 'nope' })],
        },
        { match: 'not today', ...finish },
      ],
    });
    const asked: { tool: string; input: unknown; id: string; hasSignal: boolean }[] = [];
    const canUseTool: CanUseTool = async (tool, input, opts) => {
      asked.push({ tool, input, id: opts.toolUseId, hasSignal: opts.signal instanceof AbortSignal });
      if (opts.toolUseId === 't_1')
        return { behavior: 'allow', updatedInput: { file_path: 'b.txt', content: 'rewritten' } };
      return { behavior: 'deny', message: 'not today' };
    };
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: policy({ defaultMode: 'default' }),
      canUseTool,
    });
    const { result } = await collect(runtime.submitMessage('Write files'));
    expect(result.subtype).toBe('success');
    expect(asked.map((a) => [a.tool, a.id, a.hasSignal])).toEqual([
      ['write', 't_1', true],
      ['write', 't_2', true],
    ]);
    expect(await readFile(join(dir.path, 'b.txt'), 'utf8')).toBe('rewritten');
    await expect(readFile(join(dir.path, 'a.txt'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(dir.path, 'c.txt'))).rejects.toThrow(/ENOENT/);
    expect(result.permission_denials.map((d) => [d.tool_use_id, d.message])).toEqual([['t_2', 'not today']]);
    fixture.script.assertComplete();
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('an ask with no approver is a denial that says so', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [{ content: [use('t_w', 'write', { file_path: 'a.txt', content: 'x' })] }, finish],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: policy({ defaultMode: 'default' }),
    });
    const { result } = await collect(runtime.submitMessage('Write'));
    expect(result.permission_denials.map((d) => d.tool_use_id)).toEqual(['t_w']);
    expect(resultText(toolResults(runtime.messages).get('t_w'))).toContain('no approver in this mode');
    await expect(readFile(join(dir.path, 'a.txt'))).rejects.toThrow(/ENOENT/);
  });

  test('a dangerous command is not run silently, even when permissions are bypassed', async () => {
    await using dir = await tempDir();
    await using fixture = await modelFixture(kind, {
      steps: [{ content: [use('t_push', 'bash', { command: 'git push --force origin main' })] }, finish],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: policy({ defaultMode: 'bypassPermissions' }),
    });
    const { result } = await collect(runtime.submitMessage('Push'));
    expect(result.permission_denials.map((d) => d.tool_use_id)).toEqual(['t_push']);
    expect(toolResults(runtime.messages).get('t_push')).toMatchObject({ is_error: true });
    expect(resultText(toolResults(runtime.messages).get('t_push'))).toMatch(/Permission denied/);
  });
});

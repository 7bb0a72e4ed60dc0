import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import { collect, resultText, tempDir, toolResults } from './support/workspace.js';

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});

describe.each(MODEL_KINDS)('file tools through the runtime (%s)', (kind) => {
  test('edit refuses an ambiguous old_string, then applies one with more context and returns a diff', async () => {
    await using dir = await tempDir();
    await writeFile(join(dir.path, 'app.js'), 'let a = 1;\nlet b = 1;\n');
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [use('t_read', 'read', { file_path: 'app.js' })] },
        {
          afterTool: 'read',
          content: [use('t_e1', 'edit', { file_path: 'app.js', old_string: '= 1;', new_string: '= 2;' })],
        },
        {
          match: 'occurs 2 times',
          content: [
            use('t_e2', 'edit', { file_path: 'app.js', old_string: 'let b = 1;', new_string: 'let b = 2;' }),
          ],
        },
        { afterTool: 'edit', match: 'Edited', content: [{ type: 'text', text: 'Changed b.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path });
    const { result } = await collect(runtime.submitMessage('Set b to 2.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Changed b.' });
    const results = toolResults(runtime.messages);
    expect(results.get('t_e1')).toMatchObject({ is_error: true });
    expect(resultText(results.get('t_e1'))).toContain('more surrounding context');
    expect(resultText(results.get('t_e2'))).toMatch(/-let b = 1;\n\+let b = 2;/);
    expect(await readFile(join(dir.path, 'app.js'), 'utf8')).toBe('let a = 1;\nlet b = 2;\n');
    fixture.script.assertComplete();
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('paths that leave the root through .. or a symlink are refused', async () => {
    await using outside = await tempDir('teamd-outside-');
    await using dir = await tempDir();
    await writeFile(join(outside.path, 'secret.txt'), 'the secret\n');
    await symlink(join(outside.path, 'secret.txt'), join(dir.path, 'link.txt'));
    await mkdir(join(dir.path, 'sub'));
    await symlink(outside.path, join(dir.path, 'sub', 'out'));
    const escape = `../${outside.path.split('/').pop()}/secret.txt`;
    await using fixture = await modelFixture(kind, {
      steps: [
        {
          content: [
            use('t_dots', 'read', { file_path: escape }),
            use('t_link', 'read', { file_path: 'link.txt' }),
            use('t_write', 'write', { file_path: 'sub/out/planted.txt', content: 'x' }),
          ],
        },
        { content: [{ type: 'text', text: 'Could not.' }] },
      ],
    });
    const runtime = new AgentRuntime({ model: fixture.model, cwd: dir.path });
    const { result } = await collect(runtime.submitMessage('Read the secret.'));
    expect(result.subtype).toBe('success');
    const results = toolResults(runtime.messages);
    for (const id of ['t_dots', 't_link', 't_write']) {
      expect(results.get(id)).toMatchObject({ is_error: true });
      expect(resultText(results.get(id))).toMatch(/outside/);
      expect(resultText(results.get(id))).not.toContain('the secret');
    }
    await expect(readFile(join(outside.path, 'planted.txt'))).rejects.toThrow(/ENOENT/);
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

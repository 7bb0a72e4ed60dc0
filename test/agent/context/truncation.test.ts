import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { trimToolResult } from '../../../src/agent/context/tool-output.js';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import { ScriptedModel } from '../../../src/model/scripted/scripted-model.js';
import { countingTool } from '../support/probe-tools.js';
import { collect, resultText, tempDir, toolResults } from '../support/workspace.js';
import { gitRepo } from './git-repo.js';

describe('oversized tool results', () => {
  test('are cut to head + tail with a note saying how much was cut and where the whole is', async () => {
    await using dir = await tempDir();
    const text = `HEAD-${'a'.repeat(5_000)}-${'b'.repeat(5_000)}-TAIL`;
    const block = { type: 'tool_result' as const, tool_use_id: 'toolu_big', content: text };
    const trimmed = await trimToolResult(block, {
      maxChars: 1_000,
      saveDir: join(dir.path, 'out'),
      prefix: 'sess-1',
    });
    const kept = resultText(trimmed);
    expect(kept.startsWith('HEAD-')).toBe(true);
    expect(kept.endsWith('-TAIL')).toBe(true);
    const saved = join(dir.path, 'out', 'sess-1-toolu_big.txt');
    expect(kept).toContain(
      `[… ${text.length - 1_000} characters cut from the middle of this tool result; the full output (${text.length} characters) is saved in ${saved} …]`,
    );
    expect(await readFile(saved, 'utf8')).toBe(text);
    const small = { ...block, content: 'short' };
    expect(await trimToolResult(small, { maxChars: 1_000, saveDir: dir.path, prefix: 'x' })).toBe(small);
  });

  test('in a worktree, the full output goes to .team/state/tool-output/ of the main working tree', async () => {
    await using repo = await gitRepo();
    await repo.file('README.md', 'hi\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'start');
    repo.git('worktree', 'add', '-q', '-b', 'task-1', join(repo.path, '.worktrees', 't1'));
    const model = new ScriptedModel({
      steps: [
        { content: [{ type: 'tool_use', id: 'toolu_count', name: 'count', input: { to: 5000 } }] },
        { afterTool: 'count', content: [{ type: 'text', text: 'Counted.' }] },
      ],
    });
    const runtime = new AgentRuntime({
      model,
      cwd: join(repo.path, '.worktrees', 't1'),
      tools: [countingTool],
      sessionId: 'sess-w',
      context: { toolResultMaxChars: 2_000 },
    });
    const { result } = await collect(runtime.submitMessage('Count.'));
    expect(result.subtype).toBe('success');
    const kept = resultText(toolResults(runtime.messages).get('toolu_count'));
    expect(kept.length).toBeLessThan(2_400);
    const saved = join(repo.path, '.team', 'state', 'tool-output', 'sess-w-toolu_count.txt');
    expect(kept).toContain(saved);
    expect(existsSync(saved)).toBe(true);
    expect((await readFile(saved, 'utf8')).endsWith('4999 5000')).toBe(true);
    model.assertComplete();
  });
});

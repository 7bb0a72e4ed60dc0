import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { createHookRunner } from '../../src/hooks/index.js';
import type { HookSettings } from '../../src/hooks/types.js';
import { MODEL_KINDS, invalidRequests, modelFixture } from './support/models.js';
import { collect, resultText, tempDir, toolResults } from './support/workspace.js';

const BYPASS: PermissionPolicy = { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] };
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/** A real executable hook script in `dir`. */
async function script(dir: string, name: string, body: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

const hooksOf = (cwd: string, settings: HookSettings) => createHookRunner(settings, { cwd });

describe.each(MODEL_KINDS)('hooks in the loop (%s)', (kind) => {
  test('a PreToolUse script that exits 2 blocks the call, its stderr reaches the model, the result lists the denial', async () => {
    await using dir = await tempDir();
    await writeFile(join(dir.path, 'important.txt'), 'keep me');
    const guard = await script(
      dir.path,
      'guard.sh',
      `input=$(cat)\nprintf '%s\\n' "$input" >> "${dir.path}/hook-input.jsonl"\ncase "$input" in *'"rm '*) echo "deleting files is not allowed here" >&2; exit 2;; esac\nexit 0`,
    );
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [use('t_rm', 'bash', { command: 'rm important.txt' })] },
        { match: 'not allowed here', content: [use('t_ls', 'bash', { command: 'ls' })] },
        { match: 'important.txt', ...say('The file is still there.') },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: BYPASS,
      hooks: hooksOf(dir.path, {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }],
      }),
    });
    const { result } = await collect(runtime.submitMessage('Clean up.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'The file is still there.' });
    const results = toolResults(runtime.messages);
    expect(results.get('t_rm')).toMatchObject({ is_error: true });
    expect(resultText(results.get('t_rm'))).toContain('deleting files is not allowed here');
    expect(result.permission_denials).toEqual([
      {
        tool_name: 'bash',
        tool_use_id: 't_rm',
        tool_input: { command: 'rm important.txt' },
        message: expect.stringContaining('deleting files is not allowed here'),
      },
    ]);
    expect(await readFile(join(dir.path, 'important.txt'), 'utf8')).toBe('keep me');
    const seen = (await readFile(join(dir.path, 'hook-input.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm important.txt' },
      tool_use_id: 't_rm',
      session_id: runtime.sessionId,
    });
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('a PreToolUse hook may rewrite the input; a blocking PostToolUse hook annotates the result', async () => {
    await using dir = await tempDir();
    const rewrite = await script(
      dir.path,
      'rewrite.sh',
      `cat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten by the hook"}}}'`,
    );
    const lint = await script(dir.path, 'lint.sh', 'cat > /dev/null\necho "lint: 2 problems" >&2\nexit 2');
    await using fixture = await modelFixture(kind, {
      steps: [
        { content: [use('t_echo', 'bash', { command: 'echo original' })] },
        { match: 'rewritten by the hook', ...say('ok') },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: BYPASS,
      hooks: hooksOf(dir.path, {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: rewrite }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: lint }] }],
      }),
    });
    const { result } = await collect(runtime.submitMessage('Echo.'));
    expect(result.subtype).toBe('success');
    const text = resultText(toolResults(runtime.messages).get('t_echo'));
    expect(text).toContain('rewritten by the hook');
    expect(text).not.toContain('original');
    expect(text).toContain('[PostToolUse hook] lint: 2 problems');
    fixture.script.assertComplete();
  });

  test('a blocking Stop hook sends the agent back to work, a bounded number of times', async () => {
    await using dir = await tempDir();
    const stop = await script(dir.path, 'stop.sh', 'cat > /dev/null\necho "run the tests too" >&2\nexit 2');
    await using fixture = await modelFixture(kind, { rules: [{ times: 'always', ...say('Done.') }] });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [],
      maxStopHookBlocks: 2,
      hooks: hooksOf(dir.path, { Stop: [{ hooks: [{ type: 'command', command: stop }] }] }),
    });
    const { result, events } = await collect(runtime.submitMessage('Work.'));
    expect(result).toMatchObject({ subtype: 'success', num_turns: 3 });
    expect(events.filter((e) => e.type === 'system' && e.subtype === 'hook')).toHaveLength(2);
    const users = runtime.messages.filter((m) => m.role === 'user');
    expect(JSON.stringify(users.at(-1))).toContain('run the tests too');
    expect(invalidRequests(fixture)).toEqual([]);
  });

  test('UserPromptSubmit: context is added to the prompt; a block ends the run before any model call', async () => {
    await using dir = await tempDir();
    const context = await script(
      dir.path,
      'context.sh',
      `input=$(cat)\ncase "$input" in *forbidden*) echo "that prompt is not allowed" >&2; exit 2;; esac\necho "Today is Tuesday."`,
    );
    await using fixture = await modelFixture(kind, {
      steps: [{ match: 'Which day[\\s\\S]*Today is Tuesday', ...say('Tuesday.') }],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [],
      hooks: hooksOf(dir.path, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: context }] }] }),
    });
    expect((await collect(runtime.submitMessage('Which day is it?'))).result.result).toBe('Tuesday.');
    const blocked = await collect(runtime.submitMessage('something forbidden'));
    expect(blocked.result).toMatchObject({ subtype: 'error_during_execution', num_turns: 0 });
    expect(blocked.result.error).toContain('that prompt is not allowed');
    fixture.script.assertComplete();
  });

  test('a hook answering continue:false stops the run after the call, with a valid history', async () => {
    await using dir = await tempDir();
    const halt = await script(
      dir.path,
      'halt.sh',
      `cat > /dev/null\necho '{"continue": false, "stopReason": "quota reached"}'`,
    );
    await using fixture = await modelFixture(kind, {
      steps: [{ content: [use('t_ls', 'bash', { command: 'ls' })] }, { match: 'Resume', ...say('Resumed.') }],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: BYPASS,
      hooks: hooksOf(dir.path, { PostToolUse: [{ hooks: [{ type: 'command', command: halt }] }] }),
    });
    const { result } = await collect(runtime.submitMessage('List.'));
    expect(result).toMatchObject({ subtype: 'error_during_execution', error: 'quota reached', num_turns: 1 });
    expect(toolResults(runtime.messages).has('t_ls')).toBe(true);
    expect((await collect(runtime.submitMessage('Resume'))).result.result).toBe('Resumed.');
    expect(invalidRequests(fixture)).toEqual([]);
  });
});

import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AgentRuntime } from '../../src/agent/runtime.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { createHookRunner } from '../../src/hooks/index.js';
import type { HookAsyncOutput } from '../../src/hooks/types.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { builtinTools } from '../../src/tools/index.js';
import { defineTool } from '../../src/tools/types.js';
import { collect, tempDir } from './support/workspace.js';

const BYPASS: PermissionPolicy = { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] };
const say = (text: string) => [{ type: 'text' as const, text }];

async function script(dir: string, name: string, body: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('background hooks in the loop', () => {
  test("an async hook's additionalContext and an asyncRewake hook's exit 2 reach the model on its next turn", async () => {
    await using dir = await tempDir();
    const lint = await script(
      dir.path,
      'lint.sh',
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint found 2 problems"}}'`,
    );
    const check = await script(dir.path, 'check.sh', 'cat >/dev/null\necho "the build is red" >&2\nexit 2');
    const model = new ScriptedModel({
      steps: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi' } }] },
        { afterTool: 'bash', content: say('done') },
        { match: 'lint found 2 problems[^]*the build is red|the build is red[^]*lint found 2 problems', content: say('seen both') },
      ],
    });
    const hooks = createHookRunner(
      {
        PostToolUse: [{ hooks: [{ type: 'command', command: lint, async: true }] }],
        Stop: [{ hooks: [{ type: 'command', command: check, asyncRewake: true }] }],
      },
      { cwd: dir.path },
    );
    const delivered: HookAsyncOutput[] = [];
    const both = new Promise<void>((resolve) =>
      hooks.onAsyncOutput!((o) => {
        delivered.push(o);
        if (delivered.length === 2) resolve();
      }),
    );
    const runtime = new AgentRuntime({ model, cwd: dir.path, permissionPolicy: BYPASS, hooks });
    const first = await collect(runtime.submitMessage('first'));
    expect(first.result).toMatchObject({ subtype: 'success', result: 'done' });
    await both;
    expect(delivered.map((o) => [o.event, o.rewake, o.text]).sort()).toEqual([
      ['PostToolUse', false, 'lint found 2 problems'],
      ['Stop', true, 'the build is red'],
    ]);
    const second = await collect(runtime.submitMessage('next'));
    expect(second.result).toMatchObject({ subtype: 'success', result: 'seen both' });
    const last = JSON.stringify(runtime.messages.filter((m) => m.role === 'user').at(-1));
    expect(last).toContain('The background PostToolUse hook');
    expect(last).toContain('lint found 2 problems');
    expect(last).toContain('the build is red');
    model.assertComplete();
    await runtime.close();
  });
});

describe('mcp_tool hooks in the loop', () => {
  test("call the session's own MCP tool with fields of the event; its JSON answer decides", async () => {
    await using dir = await tempDir();
    const seen: unknown[] = [];
    const judge = defineTool({
      name: 'mcp__policy__judge',
      description: 'judges (test tool)',
      inputSchema: z.object({ command: z.string() }),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      run: async (input) => {
        seen.push(input);
        return { content: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'policy says no' } }) };
      },
    });
    const model = new ScriptedModel({
      steps: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'rm -rf /tmp/x' } }] },
        { afterTool: 'bash', match: 'policy says no', content: say('refused') },
      ],
    });
    const hooks = createHookRunner(
      { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'policy', tool: 'judge', input: { command: '${tool_input.command}' } }] }] },
      { cwd: dir.path },
    );
    const runtime = new AgentRuntime({ model, cwd: dir.path, permissionPolicy: BYPASS, hooks, tools: [...builtinTools(), judge] });
    const { result } = await collect(runtime.submitMessage('go'));
    expect(result).toMatchObject({ subtype: 'success', result: 'refused' });
    expect(seen).toEqual([{ command: 'rm -rf /tmp/x' }]);
    model.assertComplete();
    await runtime.close();
  });
});

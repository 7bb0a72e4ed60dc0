import { describe, expect, it } from 'vitest';
import { interpolateEventFields } from '../../src/hooks/mcp-tool-hook.js';
import { parseHookSettings } from '../../src/hooks/parse.js';
import { createHookRunner } from '../../src/hooks/runner.js';
import type { HookMcpCall } from '../../src/hooks/types.js';

describe('hook handler types', () => {
  it('parses every type Claude Code 2.1.332 defines, and names the field of a bad one', () => {
    const loaded = parseHookSettings(
      {
        PreToolUse: [
          {
            matcher: 'Write|Edit',
            hooks: [
              { type: 'http', url: 'http://127.0.0.1:8080/h', headers: { A: '$T' }, allowedEnvVars: ['T'], timeout: 5 },
              { type: 'prompt', prompt: 'safe? $ARGUMENTS', model: 'haiku', continueOnBlock: true },
              { type: 'agent', prompt: 'verify', once: true },
              { type: 'mcp_tool', server: 'memory', tool: 'check', input: { path: '${tool_input.file_path}' } },
              { type: 'http', url: 'not a url' },
              { type: 'prompt' },
              { type: 'mcp_tool', server: 'memory' },
              { type: 'command', command: 'x', asyncRewake: true, shell: 'bash', onFailure: 'block' },
            ],
          },
        ],
        PermissionRequest: [{ hooks: [{ type: 'agent', prompt: 'ok?' }] }],
      },
      'settings',
    );
    expect(loaded.settings.PreToolUse?.[0]?.hooks).toEqual([
      { type: 'http', url: 'http://127.0.0.1:8080/h', headers: { A: '$T' }, allowedEnvVars: ['T'], timeout: 5 },
      { type: 'prompt', prompt: 'safe? $ARGUMENTS', model: 'haiku', continueOnBlock: true },
      { type: 'agent', prompt: 'verify', once: true },
      { type: 'mcp_tool', server: 'memory', tool: 'check', input: { path: '${tool_input.file_path}' } },
      { type: 'command', command: 'x', asyncRewake: true, shell: 'bash', onFailure: 'block' },
    ]);
    expect(loaded.settings.PermissionRequest).toBeUndefined();
    expect(loaded.problems).toEqual([
      expect.stringMatching(/^settings\.PreToolUse\[0\]\.hooks\[4\]\.url: must be a URL/),
      expect.stringMatching(/^settings\.PreToolUse\[0\]\.hooks\[5\]\.prompt: /),
      expect.stringMatching(/^settings\.PreToolUse\[0\]\.hooks\[6\]\.tool: /),
      'settings.PermissionRequest[0].hooks[0].type: "agent" hooks cannot answer PermissionRequest (Claude Code refuses them too); ignored',
    ]);
  });

  it('calls an mcp_tool hook with fields of the event, and reads its text like stdout', async () => {
    const calls: HookMcpCall[] = [];
    const runner = createHookRunner(
      { PostToolUse: [{ hooks: [{ type: 'mcp_tool', server: 'memory', tool: 'check', input: { file: '${tool_input.file_path}', n: 3, gone: '${nope.x}' } }] }] },
      {
        cwd: '/w',
        callMcpTool: async (call) => {
          calls.push(call);
          return { text: '{"decision":"block","reason":"fix the lint"}', isError: false };
        },
      },
    );
    const outcome = await runner.run('PostToolUse', { tool_name: 'write', tool_input: { file_path: '/w/a.ts' } });
    expect(calls.map((c) => [c.server, c.tool, c.input])).toEqual([['memory', 'check', { file: '/w/a.ts', n: 3, gone: '' }]]);
    expect(outcome).toMatchObject({ blocked: true, reason: 'fix the lint' });
    const none = await createHookRunner(runner.settings, { cwd: '/w' }).run('PostToolUse', {});
    expect(none.results[0]).toMatchObject({ exitCode: 1, notStarted: true });
  });

  it('runs a `once` hook a single time per runner', async () => {
    const runner = createHookRunner({ Stop: [{ hooks: [{ type: 'command', command: 'echo hi', once: true }] }] }, { cwd: '/tmp' });
    expect((await runner.run('Stop', {})).results).toHaveLength(1);
    expect((await runner.run('Stop', {})).results).toHaveLength(0);
  });

  it('interpolates event fields as text, objects as JSON', () => {
    expect(interpolateEventFields('${a.b}|${a}|${x.y.z}', { a: { b: 1 } })).toBe('1|{"b":1}|');
  });
});

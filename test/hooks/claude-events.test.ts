/**
 * Every event an agent run fires, with Claude Code's payload, seen by real
 * hook scripts: a recorder (sh) that appends each payload to a log, and a
 * node script that reads `transcript_path` the way Stop-loop scripts do.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { createHookRunner } from '../../src/hooks/index.js';
import { hookSession } from '../../src/hooks/session.js';
import type { HookCommand, HookEventName, HookSettings } from '../../src/hooks/types.js';
import { countingTool } from '../agent/support/probe-tools.js';
import { modelFixture } from '../agent/support/models.js';
import { collect, tempDir, toolResults } from '../agent/support/workspace.js';

const BYPASS: PermissionPolicy = { defaultMode: 'bypassPermissions', allow: [], deny: [], ask: [] };
const use = (id: string, name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, id, name, input }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

async function script(dir: string, name: string, body: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, body);
  await chmod(file, 0o755);
  return file;
}

/** A recorder for each event: appends the payload (one line) to log.jsonl. */
async function recordAll(dir: string, events: HookEventName[], more: HookSettings = {}): Promise<HookSettings> {
  const rec = await script(dir, 'rec.sh', `#!/bin/sh\n{ cat; echo; } >> "${dir}/log.jsonl"\n`);
  const hook: HookCommand = { type: 'command', command: rec };
  const settings: HookSettings = {};
  for (const e of events) settings[e] = [{ hooks: [hook] }, ...(more[e] ?? [])];
  return settings;
}

async function logged(dir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(dir, 'log.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The Stop-loop idiom: the last assistant line of the transcript, its text blocks joined. */
const LAST_ASSISTANT = `#!/usr/bin/env node
const fs = require('fs');
let raw = '';
process.stdin.on('data', (c) => (raw += c)).on('end', () => {
  const input = JSON.parse(raw);
  const lines = fs.readFileSync(input.transcript_path, 'utf8').trim().split('\\n').map((l) => JSON.parse(l));
  const last = lines.filter((l) => l.type === 'assistant').at(-1);
  const text = last.message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
  const tools = lines.flatMap((l) => l.type === 'assistant' ? l.message.content.filter((b) => b.type === 'tool_use').map((b) => b.name) : []);
  fs.writeFileSync(process.env.CLAUDE_PROJECT_DIR + '/from-transcript.json', JSON.stringify({ text, tools }));
});
`;

describe('Claude Code hook events in an agent run', () => {
  test('each event fires with the common fields, Claude Code tool shapes, and a transcript a script can read', async () => {
    await using dir = await tempDir();
    const reader = await script(dir.path, 'last.cjs', LAST_ASSISTANT);
    const settings = await recordAll(
      dir.path,
      ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd'],
      {
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo SESSION-CONTEXT-42' }] }],
        Stop: [{ hooks: [{ type: 'command', command: reader }] }],
      },
    );
    await using fixture = await modelFixture('scripted', {
      steps: [
        { match: 'SESSION-CONTEXT-42', ...use('t_w', 'write', { file_path: 'sub/a.txt', content: 'hello\n' }) },
        use('t_r', 'read', { file_path: 'missing.txt' }),
        say('All done here.'),
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: BYPASS,
      hooks: createHookRunner(settings, { cwd: dir.path }),
    });
    const { result } = await collect(runtime.submitMessage('Write the file.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'All done here.' });
    await runtime.close();
    fixture.script.assertComplete();

    const log = await logged(dir.path);
    const session = hookSession({ sessionId: runtime.sessionId });
    for (const p of log) {
      expect(p).toMatchObject({ ...session, cwd: dir.path });
      const sessionEdge = p.hook_event_name === 'SessionStart' || p.hook_event_name === 'SessionEnd';
      expect(p.permission_mode).toBe(sessionEdge ? undefined : 'bypassPermissions');
    }
    expect(log.map((p) => p.hook_event_name)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PreToolUse',
      'PostToolUseFailure',
      'Stop',
      'SessionEnd',
    ]);
    const abs = join(dir.path, 'sub/a.txt');
    expect(log[0]).toMatchObject({ source: 'startup' });
    expect(log[0]).not.toHaveProperty('model'); // Claude Code 2.1.332 sends none (test/interop)
    expect(log[1]).toMatchObject({ prompt: 'Write the file.' });
    expect(log[2]).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: abs, content: 'hello\n' },
      tool_use_id: 't_w',
    });
    expect(log[3]).toMatchObject({
      tool_name: 'Write',
      tool_response: { type: 'create', filePath: abs, content: 'hello\n' },
    });
    expect(log[5]).toMatchObject({
      tool_name: 'Read',
      tool_input: { file_path: join(dir.path, 'missing.txt') },
      error: expect.any(String),
      is_interrupt: false,
    });
    expect(log[6]).toMatchObject({ stop_hook_active: false, last_assistant_message: 'All done here.' });
    expect(log[7]).toMatchObject({ reason: 'other' });
    expect(JSON.parse(await readFile(join(dir.path, 'from-transcript.json'), 'utf8'))).toEqual({
      text: 'All done here.',
      tools: ['write', 'read'],
    });
  });

  test('PermissionRequest answers an ask; otherwise a permission_prompt Notification fires', async () => {
    await using dir = await tempDir();
    const settings = await recordAll(dir.path, ['Notification'], {});
    settings.PermissionRequest = [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: `case "$(cat)" in *'"touch yes.txt"'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';; esac`,
          },
        ],
      },
    ];
    await using fixture = await modelFixture('scripted', {
      steps: [
        use('t_yes', 'bash', { command: 'touch yes.txt' }),
        use('t_no', 'bash', { command: 'touch no.txt' }),
        say('ok'),
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: { defaultMode: 'default', allow: [], deny: [], ask: [] },
      hooks: createHookRunner(settings, { cwd: dir.path }),
    });
    await collect(runtime.submitMessage('Go.'));
    await runtime.close();
    const results = toolResults(runtime.messages);
    expect(results.get('t_yes')?.is_error).toBeUndefined();
    await readFile(join(dir.path, 'yes.txt'));
    expect(results.get('t_no')).toMatchObject({ is_error: true });
    const deadline = Date.now() + 10_000;
    let notes: Record<string, unknown>[] = [];
    while (Date.now() < deadline) {
      notes = await logged(dir.path).catch(() => []);
      if (notes.length > 0) break;
      await new Promise((r) => setImmediate(r));
    }
    expect(notes).toEqual([
      expect.objectContaining({
        hook_event_name: 'Notification',
        notification_type: 'permission_prompt',
        message: 'Claude needs your permission to use Bash',
      }),
    ]);
  });

  test('a subagent: SubagentStart and SubagentStop with agent_id, agent_type, its own transcript; the matcher is the agent type', async () => {
    await using dir = await tempDir();
    const settings = await recordAll(dir.path, ['SubagentStart']);
    const rec = `{ cat; echo; } >> "${dir.path}/log.jsonl"`;
    settings.SubagentStop = [
      { matcher: 'general-purpose', hooks: [{ type: 'command', command: rec }] },
      { matcher: 'other-agent', hooks: [{ type: 'command', command: 'echo never > never.txt' }] },
    ];
    await using fixture = await modelFixture('scripted', {
      steps: [
        { agent: 'lead', ...use('toolu_task', 'task', { description: 'look', prompt: 'Say hi.', subagent_type: 'general-purpose' }) },
        { agent: 'lead:general-purpose', ...say('hi from the subagent') },
        { agent: 'lead', ...say('Done.') },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      agentName: 'lead',
      permissionPolicy: BYPASS,
      subagents: {},
      hooks: createHookRunner(settings, { cwd: dir.path }),
    });
    await collect(runtime.submitMessage('Delegate.'));
    await runtime.close();
    const [start, stop] = await logged(dir.path);
    const parent = hookSession({ sessionId: runtime.sessionId });
    expect(start).toMatchObject({ ...parent, hook_event_name: 'SubagentStart', agent_id: 'toolu_task', agent_type: 'general-purpose' });
    expect(stop).toMatchObject({
      ...parent,
      hook_event_name: 'SubagentStop',
      agent_id: 'toolu_task',
      agent_type: 'general-purpose',
      stop_hook_active: false,
      last_assistant_message: 'hi from the subagent',
    });
    const own = await readFile(stop!.agent_transcript_path as string, 'utf8');
    expect(own).toContain('hi from the subagent');
    await expect(readFile(join(dir.path, 'never.txt'))).rejects.toThrow();
  });

  test('a compaction fires PreCompact (trigger auto) and then SessionStart (source compact), whose context the model gets', async () => {
    await using dir = await tempDir();
    const settings = await recordAll(dir.path, ['PreCompact', 'SessionStart'], {
      SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: 'echo AFTER-COMPACT-CONTEXT' }] }],
    });
    const count = (id: string, to: number, usage?: { input_tokens: number }) => ({
      content: [{ type: 'tool_use' as const, id, name: 'count', input: { to } }],
      ...(usage ? { usage } : {}),
    });
    await using fixture = await modelFixture('scripted', {
      rules: [{ match: '<compaction_request>', times: 'always', content: [{ type: 'text', text: '## Goal\nCount.' }] }],
      steps: [
        count('toolu_c1', 20),
        count('toolu_c2', 21),
        count('toolu_c3', 22, { input_tokens: 1_800 }),
        { match: 'AFTER-COMPACT-CONTEXT', content: [{ type: 'text', text: 'Done counting.' }] },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [countingTool],
      context: { windowTokens: 2_000, clearToolResultsAt: 0.5, summariseAt: 0.7, keepRecentTurns: 1 },
      hooks: createHookRunner(settings, { cwd: dir.path }),
    });
    const { result } = await collect(runtime.submitMessage('Count three times.'));
    await runtime.close();
    expect(result).toMatchObject({ subtype: 'success', result: 'Done counting.' });
    const log = await logged(dir.path);
    expect(log.map((p) => [p.hook_event_name, p.source ?? p.trigger])).toEqual([
      ['SessionStart', 'startup'],
      ['PreCompact', 'auto'],
      ['SessionStart', 'compact'],
    ]);
    expect(log[1]).toMatchObject({ custom_instructions: '' });
    fixture.script.assertComplete();
  });

  test("PreToolUse's additionalContext reaches the model with the tool's result", async () => {
    await using dir = await tempDir();
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'PRE-CONTEXT-7' } });
    await using fixture = await modelFixture('scripted', {
      steps: [use('t_ls', 'bash', { command: 'ls' }), { match: 'PRE-CONTEXT-7', ...say('seen') }],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      permissionPolicy: BYPASS,
      hooks: createHookRunner({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${json}'` }] }] }, { cwd: dir.path }),
    });
    const { result } = await collect(runtime.submitMessage('go'));
    await runtime.close();
    expect(result).toMatchObject({ subtype: 'success', result: 'seen' });
    fixture.script.assertComplete();
  });
});

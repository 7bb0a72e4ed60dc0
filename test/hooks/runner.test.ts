import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookRunner } from '../../src/hooks/runner.js';
import type { HookSettings } from '../../src/hooks/types.js';
import { processAlive } from '../../src/tools/process-group.js';

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-hooks-')));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

/** Writes an executable script into the temp folder and returns the command that runs it. */
async function script(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, body);
  await chmod(file, 0o755);
  return `"$CLAUDE_PROJECT_DIR"/${name}`;
}

const pre = (command: string, matcher?: string, timeout?: number): HookSettings => ({
  PreToolUse: [
    {
      ...(matcher === undefined ? {} : { matcher }),
      hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }],
    },
  ],
});
const runner = (settings: HookSettings) =>
  createHookRunner(settings, { cwd: dir, sessionId: 'sess-1', transcriptPath: '/t/sess-1.jsonl' });
const bashCall = { tool_name: 'bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'tu_1' };

describe('hook runner', () => {
  it('passes the event as JSON on stdin, in cwd, with CLAUDE_PROJECT_DIR, and Claude Code tool names', async () => {
    const cmd = await script(
      'record.sh',
      '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/payload.json"\npwd > "$CLAUDE_PROJECT_DIR/cwd.txt"\n',
    );
    const outcome = await runner(pre(cmd)).run('PreToolUse', bashCall, { matchValue: 'bash' });
    expect(outcome).toMatchObject({
      blocked: false,
      continue: true,
      results: [{ exitCode: 0, timedOut: false }],
    });
    expect(JSON.parse(await readFile(path.join(dir, 'payload.json'), 'utf8'))).toEqual({
      session_id: 'sess-1',
      transcript_path: '/t/sess-1.jsonl',
      cwd: dir,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      tool_use_id: 'tu_1',
    });
    expect((await readFile(path.join(dir, 'cwd.txt'), 'utf8')).trim()).toBe(dir);
  });

  it('exit 2 blocks, with stderr as the reason', async () => {
    const cmd = await script('block.sh', '#!/bin/sh\necho "use trash instead of rm" >&2\nexit 2\n');
    const outcome = await runner(pre(cmd)).run('PreToolUse', bashCall, { matchValue: 'bash' });
    expect(outcome.blocked).toBe(true);
    expect(outcome.reason).toBe('use trash instead of rm');
  });

  it('another non-zero exit is a recorded, non-blocking error', async () => {
    const cmd = await script('broken.sh', '#!/bin/sh\necho oops >&2\nexit 1\n');
    const outcome = await runner(pre(cmd)).run('PreToolUse', bashCall, { matchValue: 'bash' });
    expect(outcome.blocked).toBe(false);
    expect(outcome.results[0]).toMatchObject({ exitCode: 1, stderr: 'oops\n' });
  });

  it('an existing Claude Code validator script (node, reading stdin) works unchanged', async () => {
    const cmd = await script(
      'validator.mjs',
      [
        '#!/usr/bin/env node',
        "let raw = '';",
        "process.stdin.on('data', (c) => (raw += c)).on('end', () => {",
        '  const input = JSON.parse(raw);',
        "  if (input.tool_name === 'Bash' && /\\brm -rf\\b/.test(input.tool_input.command)) {",
        "    console.error('rm -rf is not allowed here');",
        '    process.exit(2);',
        '  }',
        '});',
      ].join('\n'),
    );
    const hooks = runner(pre(cmd, 'Bash'));
    expect(await hooks.run('PreToolUse', bashCall, { matchValue: 'bash' })).toMatchObject({
      blocked: true,
      reason: 'rm -rf is not allowed here',
    });
    const safe = await hooks.run(
      'PreToolUse',
      { ...bashCall, tool_input: { command: 'ls' } },
      { matchValue: 'bash' },
    );
    expect(safe.blocked).toBe(false);
  });

  it('JSON "decision": "block" blocks with its reason', async () => {
    const cmd = await script(
      'json-block.sh',
      `#!/bin/sh\necho '{"decision":"block","reason":"tests must pass first"}'\n`,
    );
    const outcome = await runner({ Stop: [{ hooks: [{ type: 'command', command: cmd }] }] }).run('Stop', {
      stop_hook_active: false,
    });
    expect(outcome).toMatchObject({ blocked: true, reason: 'tests must pass first' });
  });

  it('PreToolUse JSON may allow with a rewritten input, ask, or deny', async () => {
    const allow = await script(
      'allow.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe","updatedInput":{"command":"rm -rf build --dry-run"}}}'\n`,
    );
    expect(await runner(pre(allow)).run('PreToolUse', bashCall, { matchValue: 'bash' })).toMatchObject({
      blocked: false,
      permissionDecision: 'allow',
      reason: 'safe',
      updatedInput: { command: 'rm -rf build --dry-run' },
    });
    const ask = await script(
      'ask.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check with a person"}}'\n`,
    );
    expect(await runner(pre(ask)).run('PreToolUse', bashCall)).toMatchObject({
      blocked: false,
      permissionDecision: 'ask',
      reason: 'check with a person',
    });
    const deny = await script(
      'deny.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no deletes"}}'\n`,
    );
    expect(await runner(pre(deny)).run('PreToolUse', bashCall)).toMatchObject({
      blocked: true,
      permissionDecision: 'deny',
      reason: 'no deletes',
    });
  });

  it('"continue": false asks to stop the run', async () => {
    const cmd = await script(
      'stop.sh',
      `#!/bin/sh\necho '{"continue":false,"stopReason":"budget reached"}'\n`,
    );
    expect(
      await runner({ PostToolUse: [{ hooks: [{ type: 'command', command: cmd }] }] }).run(
        'PostToolUse',
        bashCall,
      ),
    ).toMatchObject({
      continue: false,
      stopReason: 'budget reached',
      blocked: false,
    });
  });

  it('plain stdout of UserPromptSubmit becomes context; JSON additionalContext too', async () => {
    const plain = await script('ctx.sh', '#!/bin/sh\necho "Today is release day."\n');
    const json = await script(
      'ctx-json.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"additionalContext":"Use pnpm."}}'\n`,
    );
    const settings: HookSettings = {
      UserPromptSubmit: [
        {
          hooks: [
            { type: 'command', command: plain },
            { type: 'command', command: json },
          ],
        },
      ],
    };
    const outcome = await runner(settings).run('UserPromptSubmit', { prompt: 'ship it' });
    expect(outcome.additionalContext).toBe('Today is release day.\n\nUse pnpm.');
  });

  it('runs only hooks whose matcher fits the tool', async () => {
    const cmd = (name: string) => `echo ${name} >> "$CLAUDE_PROJECT_DIR/ran.txt"`;
    const settings: HookSettings = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: cmd('bash') }] },
        { matcher: 'Edit|Write', hooks: [{ type: 'command', command: cmd('edits') }] },
        { matcher: 'mcp__github__.*', hooks: [{ type: 'command', command: cmd('github') }] },
        { matcher: '*', hooks: [{ type: 'command', command: cmd('star') }] },
        { hooks: [{ type: 'command', command: cmd('all') }] },
      ],
    };
    const hooks = runner(settings);
    const ran = async (tool: string): Promise<string[]> => {
      await rm(path.join(dir, 'ran.txt'), { force: true });
      await hooks.run('PreToolUse', { tool_name: tool, tool_input: {} }, { matchValue: tool });
      return (await readFile(path.join(dir, 'ran.txt'), 'utf8')).trim().split('\n').sort();
    };
    expect(await ran('bash')).toEqual(['all', 'bash', 'star']);
    expect(await ran('write')).toEqual(['all', 'edits', 'star']);
    expect(await ran('mcp__github__create_issue')).toEqual(['all', 'github', 'star']);
    expect(await ran('read')).toEqual(['all', 'star']);
  });

  it('runs the matching hooks of an event in parallel', async () => {
    // Each hook waits for the other's marker: run one after the other, the first would give up after 5 s.
    const waiter = (me: string, other: string) =>
      `touch "$CLAUDE_PROJECT_DIR/${me}"; i=0; while [ ! -e "$CLAUDE_PROJECT_DIR/${other}" ]; do i=$((i+1)); [ $i -gt 250 ] && exit 1; sleep 0.02; done`;
    const settings: HookSettings = {
      Stop: [
        { hooks: [{ type: 'command', command: waiter('a', 'b') }] },
        { hooks: [{ type: 'command', command: waiter('b', 'a') }] },
      ],
    };
    const outcome = await runner(settings).run('Stop', {});
    expect(outcome.results.map((r) => r.exitCode)).toEqual([0, 0]);
  });

  it('a hook past its timeout is killed with its children and does not block', async () => {
    const cmd = `sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/pid"; wait`;
    const started = Date.now();
    const outcome = await runner(pre(cmd, undefined, 0.3)).run('PreToolUse', bashCall);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome.blocked).toBe(false);
    expect(outcome.results[0]).toMatchObject({ timedOut: true, exitCode: null });
    const pid = Number(await readFile(path.join(dir, 'pid'), 'utf8'));
    const deadline = Date.now() + 5000;
    while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(processAlive(pid)).toBe(false);
  });

  it('an abort stops running hooks', async () => {
    const controller = new AbortController();
    const running = runner(pre('sleep 300')).run('PreToolUse', bashCall, { signal: controller.signal });
    controller.abort();
    const outcome = await running;
    expect(outcome.results[0]?.exitCode).toBeNull();
    expect(outcome.blocked).toBe(false);
  });

  it('merges several hooks: any block blocks, deny beats allow', async () => {
    const allow = `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`;
    const deny = `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}'`;
    const settings: HookSettings = {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: allow },
            { type: 'command', command: deny },
          ],
        },
      ],
    };
    expect(await runner(settings).run('PreToolUse', bashCall)).toMatchObject({
      blocked: true,
      permissionDecision: 'deny',
      reason: 'no',
    });
  });

  it('answers at once when no hook is configured', async () => {
    expect(await runner({}).run('Stop', {})).toEqual({ blocked: false, continue: true, results: [] });
  });
});

import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgePrompt } from '../../src/hooks/judge-hook.js';
import { createHookRunner } from '../../src/hooks/runner.js';
import type { HookFailure, HookSettings } from '../../src/hooks/types.js';
import { defaultModelFor } from '../../src/agent/subagents/model-choice.js';
import { ScriptedModel } from '../../src/model/scripted/scripted-model.js';

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-judge-')));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const text = (t: string) => [{ type: 'text' as const, text: t }];
const bashCall = { tool_name: 'bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'tu_1' };
const promptOn = (event: 'PreToolUse' | 'Stop', prompt: string, extra = {}): HookSettings => ({
  [event]: [{ hooks: [{ type: 'prompt', prompt, ...extra }] }],
});

describe('prompt hooks', () => {
  it('send the event JSON in place of $ARGUMENTS and block with the reason, ending the turn on PreToolUse', async () => {
    const model = new ScriptedModel({
      steps: [{ agent: 'hook', match: '"tool_name":"Bash".*rm -rf', content: text('{"ok": false, "reason": "no deleting"}') }],
    });
    const runner = createHookRunner(promptOn('PreToolUse', 'Is this safe? $ARGUMENTS'), { cwd: dir, model: () => model });
    const outcome = await runner.run('PreToolUse', bashCall);
    expect(outcome).toMatchObject({ blocked: true, continue: false, reason: '[Is this safe? $ARGUMENTS]: no deleting' });
    model.assertComplete();
  });

  it('keep the turn going with continueOnBlock, and on Stop a "not ok" means keep working', async () => {
    const model = new ScriptedModel({
      rules: [{ agent: 'hook', times: 2, content: text('```json\n{"ok": false, "reason": "tests not run"}\n```') }],
    });
    const pre = createHookRunner(promptOn('PreToolUse', 'check', { continueOnBlock: true }), { cwd: dir, model: () => model });
    expect(await pre.run('PreToolUse', bashCall)).toMatchObject({ blocked: true, continue: true });
    const stop = createHookRunner(promptOn('Stop', 'all done?'), { cwd: dir, model: () => model });
    expect(await stop.run('Stop', { stop_hook_active: false })).toMatchObject({
      blocked: true,
      continue: true,
      reason: '[all done?]: tests not run',
    });
    model.assertComplete();
  });

  it('pass on ok, and fail open (reported) on an unreadable answer, a model error or no model', async () => {
    const model = new ScriptedModel({
      steps: [
        { agent: 'hook', content: text('{"ok": true}') },
        { agent: 'hook', content: text('I think it is fine') },
        { agent: 'hook', error: { kind: 'invalid_request', message: 'bad' } },
      ],
    });
    const failures: HookFailure[] = [];
    const runner = createHookRunner(promptOn('PreToolUse', 'check'), {
      cwd: dir,
      model: () => model,
      onFailure: (f) => failures.push(f),
    });
    expect(await runner.run('PreToolUse', bashCall)).toMatchObject({ blocked: false, continue: true });
    expect(await runner.run('PreToolUse', bashCall)).toMatchObject({ blocked: false, continue: true });
    expect(await runner.run('PreToolUse', bashCall)).toMatchObject({ blocked: false, continue: true });
    const none = await createHookRunner(promptOn('PreToolUse', 'check'), { cwd: dir, onFailure: (f) => failures.push(f) }).run(
      'PreToolUse',
      bashCall,
    );
    expect(none.results[0]).toMatchObject({ notStarted: true });
    expect(failures.map((f) => f.message)).toEqual([
      expect.stringContaining('JSON validation failed'),
      expect.stringContaining('the model call failed'),
      expect.stringContaining('no model to judge'),
    ]);
    model.assertComplete();
  });

  it("take the hook's own model (a scripted session keeps its script), and report one that cannot be made", async () => {
    const scripted = new ScriptedModel({ steps: [{ agent: 'hook', content: text('{"ok": true}') }] });
    const named: (string | undefined)[] = [];
    const runner = createHookRunner(promptOn('PreToolUse', 'check', { model: 'haiku' }), {
      cwd: dir,
      model: (name) => (named.push(name), defaultModelFor(scripted, name)),
    });
    expect(await runner.run('PreToolUse', bashCall)).toMatchObject({ blocked: false });
    expect(named).toEqual(['haiku']);
    scripted.assertComplete();
    const failures: HookFailure[] = [];
    const broken = createHookRunner(promptOn('PreToolUse', 'check', { model: 'nope' }), {
      cwd: dir,
      model: () => Promise.reject(new Error('no such model')),
      onFailure: (f) => failures.push(f),
    });
    expect(await broken.run('PreToolUse', bashCall)).toMatchObject({ blocked: false });
    expect(failures[0]!.message).toContain('no such model');
  });

  it('append the event when the prompt has no $ARGUMENTS', () => {
    expect(judgePrompt('check', '{"a":1}')).toBe('check\n\n{"a":1}');
    expect(judgePrompt('a $ARGUMENTS b $ARGUMENTS', '{}')).toBe('a {} b {}');
  });
});

describe('agent hooks', () => {
  it('read files of the worktree with their tools, then answer through StructuredOutput', async () => {
    await writeFile(path.join(dir, 'TEST-RESULT.txt'), 'FAILED: 3 tests\n');
    const model = new ScriptedModel({
      steps: [
        { agent: 'hook', turn: 0, content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'TEST-RESULT.txt' } }] },
        { agent: 'hook', afterTool: 'Read', match: 'FAILED: 3 tests', content: [{ type: 'tool_use', name: 'StructuredOutput', input: { ok: false, reason: '3 tests fail' } }] },
      ],
    });
    const runner = createHookRunner({ Stop: [{ hooks: [{ type: 'agent', prompt: 'Did the tests pass?' }] }] }, {
      cwd: dir,
      model: () => model,
    });
    const outcome = await runner.run('Stop', { stop_hook_active: false });
    expect(outcome).toMatchObject({ blocked: true, continue: true, reason: '[Did the tests pass?]: 3 tests fail' });
    model.assertComplete();
  });

  it('cannot read outside the worktree', async () => {
    const model = new ScriptedModel({
      steps: [
        { agent: 'hook', turn: 0, content: [{ type: 'tool_use', name: 'Read', input: { file_path: '/etc/passwd' } }] },
        { agent: 'hook', afterTool: 'Read', match: 'outside the working directory', content: text('{"ok": true}') },
      ],
    });
    const runner = createHookRunner({ Stop: [{ hooks: [{ type: 'agent', prompt: 'check' }] }] }, { cwd: dir, model: () => model });
    expect(await runner.run('Stop', {})).toMatchObject({ blocked: false });
    model.assertComplete();
  });
});

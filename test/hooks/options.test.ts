/**
 * Handler options as Claude Code documents them — async, exec-form args,
 * timeout in seconds, if, ${CLAUDE_PROJECT_DIR} / ${CLAUDE_PLUGIN_ROOT} —
 * plugins' hooks/hooks.json, a hook that cannot start (reported), and the
 * Stop block cap. Real scripts, real processes.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopHookBlockCap } from '../../src/agent/hook-calls.js';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { createHookRunner } from '../../src/hooks/runner.js';
import { loadHookSettings } from '../../src/hooks/settings.js';
import type { HookFailure, HookSettings } from '../../src/hooks/types.js';
import { modelFixture } from '../agent/support/models.js';
import { collect } from '../agent/support/workspace.js';

let dir = '';
let project = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-hookopt-')));
  project = path.join(dir, 'repo');
  await mkdir(path.join(project, 'wt'), { recursive: true });
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function script(file: string, body: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, body);
  await chmod(file, 0o755);
  return file;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const on = (event: keyof HookSettings, hooks: NonNullable<HookSettings['Stop']>[number]['hooks'], matcher?: string): HookSettings => ({
  [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks }],
});
const runner = (settings: HookSettings, onFailure?: (f: HookFailure) => void) =>
  createHookRunner(settings, { cwd: path.join(project, 'wt'), projectDir: project, ...(onFailure ? { onFailure } : {}) });
const bash = (command: string) => ({ tool_name: 'bash', tool_input: { command } });

describe('handler options', () => {
  it('CLAUDE_PROJECT_DIR is the repository root while cwd is the worktree', async () => {
    const out = path.join(dir, 'where.txt');
    const r = runner(on('PreToolUse', [{ type: 'command', command: `echo "$CLAUDE_PROJECT_DIR $(pwd)" > ${out}` }]));
    await r.run('PreToolUse', bash('ls'), { matchValue: 'bash' });
    expect((await readFile(out, 'utf8')).trim()).toBe(`${project} ${path.join(project, 'wt')}`);
  });

  it('exec form: command + args spawned without a shell, ${CLAUDE_PROJECT_DIR} substituted in both', async () => {
    const prog = await script(path.join(project, 'bin', 'argv.sh'), '#!/bin/sh\nfor a in "$@"; do echo "[$a]"; done > "$CLAUDE_PROJECT_DIR/argv.txt"\n');
    const r = runner(
      on('PreToolUse', [{ type: 'command', command: '${CLAUDE_PROJECT_DIR}/bin/argv.sh', args: ['a b', '$(not expanded)', '${CLAUDE_PROJECT_DIR}/x'] }]),
    );
    expect(prog).toContain(project);
    const outcome = await r.run('PreToolUse', bash('ls'), { matchValue: 'bash' });
    expect(outcome.results[0]).toMatchObject({ exitCode: 0 });
    expect(await readFile(path.join(project, 'argv.txt'), 'utf8')).toBe(`[a b]\n[$(not expanded)]\n[${project}/x]\n`);
  });

  it('timeout is in seconds and kills the hook; the event goes on', async () => {
    const r = runner(on('PreToolUse', [{ type: 'command', command: 'sleep 30', timeout: 0.3 }]));
    const started = Date.now();
    const outcome = await r.run('PreToolUse', bash('ls'), { matchValue: 'bash' });
    expect(outcome).toMatchObject({ blocked: false, results: [{ timedOut: true }] });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('async: the event does not wait, the hook still runs, and it decides nothing', async () => {
    const flag = path.join(dir, 'async-done');
    const gate = path.join(dir, 'gate');
    const r = runner(
      on('PostToolUse', [
        { type: 'command', command: `while [ ! -f ${gate} ]; do sleep 0.02; done; touch ${flag}; exit 2`, async: true },
      ]),
    );
    const outcome = await r.run('PostToolUse', bash('ls'), { matchValue: 'bash' });
    expect(outcome).toEqual({ blocked: false, continue: true, results: [] });
    expect(existsSync(flag)).toBe(false);
    await writeFile(gate, '');
    await until(() => existsSync(flag), 'the async hook');
  });

  it('if: a permission rule picks the calls; on a non-tool event such a hook does not run', async () => {
    const log = path.join(dir, 'if.log');
    const rec = `cat >> ${log}; echo >> ${log}`;
    const settings: HookSettings = {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: rec, if: 'Bash(git *)' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'touch stop-ran', if: 'Bash(git *)' }] }],
    };
    const r = runner(settings);
    const fits = (command: string) => (rule: string) => rule === 'Bash(git *)' && command.startsWith('git ');
    await r.run('PreToolUse', bash('ls'), { matchValue: 'bash', ifFits: fits('ls') });
    await r.run('PreToolUse', bash('git status'), { matchValue: 'bash', ifFits: fits('git status') });
    await r.run('Stop', {}, {});
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { tool_input: { command: string } }).tool_input.command)).toEqual(['git status']);
    expect(existsSync(path.join(project, 'wt', 'stop-ran'))).toBe(false);
  });

  it('identical commands of one event run once', async () => {
    const log = path.join(dir, 'dedupe.log');
    const hook = { type: 'command' as const, command: `echo x >> ${log}` };
    const r = runner({ Stop: [{ hooks: [hook] }, { hooks: [hook] }] });
    await r.run('Stop', {});
    expect(await readFile(log, 'utf8')).toBe('x\n');
  });

  it('a hook that cannot start is reported (exit 127 and a spawn error), and blocks nothing', async () => {
    const failures: HookFailure[] = [];
    const r = runner(
      on('PreToolUse', [
        { type: 'command', command: 'definitely-not-a-program-teamd --x' },
        { type: 'command', command: path.join(dir, 'missing-binary'), args: [] },
      ]),
      (f) => failures.push(f),
    );
    const outcome = await r.run('PreToolUse', bash('ls'), { matchValue: 'bash' });
    expect(outcome.blocked).toBe(false);
    expect(outcome.results.map((x) => [x.exitCode, x.notStarted])).toEqual([
      [127, true],
      [127, true],
    ]);
    expect(failures.map((f) => f.message).sort()).toEqual([
      expect.stringMatching(/^PreToolUse hook `\/.*missing-binary` could not start \(exit 127\).*ENOENT/),
      expect.stringMatching(/^PreToolUse hook `definitely-not-a-program-teamd --x` could not start \(exit 127\)/),
    ]);
  });

  it('an agent run shows a hook that could not start as a system/hook event', async () => {
    await using fixture = await modelFixture('scripted', { steps: [{ content: [{ type: 'text', text: 'hi' }] }] });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: project,
      hooks: createHookRunner(on('UserPromptSubmit', [{ type: 'command', command: 'no-such-hook-program-xyz' }]), { cwd: project }),
    });
    const { events } = await collect(runtime.submitMessage('hello'));
    await runtime.close();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'system', subtype: 'hook', message: expect.stringContaining('could not start (exit 127)') }),
    );
  });
});

describe('plugins', () => {
  it("loads a plugin's hooks/hooks.json with CLAUDE_PLUGIN_ROOT set and substituted, and lists its agents", async () => {
    const root = path.join(project, '.claude', 'plugins', 'guard');
    await mkdir(path.join(root, 'agents'), { recursive: true });
    await mkdir(path.join(root, '.claude-plugin'), { recursive: true });
    await writeFile(path.join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'guard' }));
    await script(path.join(root, 'hooks', 'guard.sh'), '#!/bin/sh\necho "root=$CLAUDE_PLUGIN_ROOT" >&2\nexit 2\n');
    await writeFile(
      path.join(root, 'hooks', 'hooks.json'),
      JSON.stringify({
        description: 'a guard',
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh' }] }] },
      }),
    );
    const loaded = await loadHookSettings(project);
    expect(loaded.problems).toEqual([]);
    expect(loaded.plugins).toEqual([{ name: 'guard', root, hooks: expect.anything(), agentDirs: [path.join(root, 'agents')] }]);
    const outcome = await runner(loaded.settings).run('PreToolUse', bash('ls'), { matchValue: 'bash' });
    expect(outcome).toMatchObject({ blocked: true, reason: `root=${root}` });
  });
});

describe('the Stop block cap', () => {
  it('is 8 by default and CLAUDE_CODE_STOP_HOOK_BLOCK_CAP overrides it', () => {
    expect(stopHookBlockCap({})).toBe(8);
    expect(stopHookBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' })).toBe(2);
    expect(stopHookBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'lots' })).toBe(8);
  });

  it('a Stop hook that always blocks sends the agent back at most the cap, stop_hook_active set after the first', async () => {
    const log = path.join(dir, 'stop.log');
    const steps = Array.from({ length: 3 }, (_, i) => ({ content: [{ type: 'text' as const, text: `answer ${i}` }] }));
    await using fixture = await modelFixture('scripted', { steps });
    const before = process.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP;
    process.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP = '2';
    try {
      const runtime = new AgentRuntime({
        model: fixture.model,
        cwd: project,
        hooks: createHookRunner(on('Stop', [{ type: 'command', command: `{ cat; echo; } >> ${log}; echo "not yet" >&2; exit 2` }]), {
          cwd: project,
        }),
      });
      const { result } = await collect(runtime.submitMessage('go'));
      await runtime.close();
      expect(result).toMatchObject({ subtype: 'success', result: 'answer 2' });
    } finally {
      if (before === undefined) delete process.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP;
      else process.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP = before;
    }
    const seen = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(seen.map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([
      [false, 'answer 0'],
      [true, 'answer 1'],
    ]);
    fixture.script.assertComplete();
  });
});

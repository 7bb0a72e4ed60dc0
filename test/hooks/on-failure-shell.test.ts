/**
 * `onFailure` and `shell`, as Claude Code's settings schema (2.1.332)
 * defines them: a failed hook with `onFailure: "block"` blocks the action it
 * guards (as exit 2 would), except in the background and on Stop-like events;
 * `shell` picks the interpreter of a shell-form command. Real scripts, real
 * processes; bad values are problems naming the field.
 */
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellArgv } from '../../src/hooks/hook-shell.js';
import { parseHookSettings } from '../../src/hooks/parse.js';
import { createHookRunner } from '../../src/hooks/runner.js';
import type { HookEventName, HookFailure, HookHandler, HookSettings } from '../../src/hooks/types.js';

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-onfail-')));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function script(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, body);
  await chmod(file, 0o755);
  return file;
}

const on = (event: HookEventName, hooks: HookHandler[]): HookSettings => ({ [event]: [{ hooks }] });
const runner = (settings: HookSettings, failures: HookFailure[] = []) =>
  createHookRunner(settings, { cwd: dir, onFailure: (f) => failures.push(f) });
const bash = { tool_name: 'bash', tool_input: { command: 'ls' } };

describe('onFailure', () => {
  it('"block": a script exiting 1 blocks PreToolUse, the failure as the reason; still reported', async () => {
    const hook = await script('fail.sh', '#!/bin/sh\necho "lint crashed" >&2\nexit 1\n');
    const failures: HookFailure[] = [];
    const out = await runner(
      on('PreToolUse', [{ type: 'command', command: hook, onFailure: 'block' }]),
      failures,
    ).run('PreToolUse', bash);
    expect(out.blocked).toBe(true);
    expect(out.reason).toContain('exited 1: lint crashed');
    expect(out.reason).toContain('onFailure');
    expect(failures).toHaveLength(1);
  });

  it('"continue" and absent: the same failure lets the action go ahead', async () => {
    const hook = await script('fail.sh', '#!/bin/sh\nexit 1\n');
    for (const onFailure of ['continue', undefined] as const) {
      const h: HookHandler = { type: 'command', command: hook, ...(onFailure ? { onFailure } : {}) };
      expect((await runner(on('PreToolUse', [h])).run('PreToolUse', bash)).blocked).toBe(false);
    }
  });

  it('"block": a command that cannot start, a timeout and unparsable JSON all block UserPromptSubmit', async () => {
    const slow = await script('slow.sh', '#!/bin/sh\nsleep 30\n');
    const badJson = await script('bad.sh', '#!/bin/sh\necho "{not json"\n');
    const cases: HookHandler[] = [
      { type: 'command', command: path.join(dir, 'missing.sh'), onFailure: 'block' },
      { type: 'command', command: 'no-such-program-teamd', args: [], onFailure: 'block' },
      { type: 'command', command: slow, timeout: 0.3, onFailure: 'block' },
      { type: 'command', command: badJson, onFailure: 'block' },
    ];
    const reasons = ['could not start', 'could not start', 'timed out', 'JSON that does not parse'];
    for (const [i, hook] of cases.entries()) {
      const out = await runner(on('UserPromptSubmit', [hook])).run('UserPromptSubmit', { prompt: 'hi' });
      expect(out.blocked, reasons[i]).toBe(true);
      expect(out.reason).toContain(reasons[i]);
    }
  });

  it('"block": exit 0 and exit 2 are verdicts, not failures', async () => {
    const ok = await script(
      'ok.sh',
      '#!/bin/sh\necho \'{"hookSpecificOutput":{"additionalContext":"fine"}}\'\n',
    );
    const two = await script('two.sh', '#!/bin/sh\necho "no rm" >&2\nexit 2\n');
    const a = await runner(on('PreToolUse', [{ type: 'command', command: ok, onFailure: 'block' }])).run(
      'PreToolUse',
      bash,
    );
    expect(a.blocked).toBe(false);
    expect(a.additionalContext).toBe('fine');
    const b = await runner(on('PreToolUse', [{ type: 'command', command: two, onFailure: 'block' }])).run(
      'PreToolUse',
      bash,
    );
    expect(b.reason).toBe('no rm');
  });

  it('"block" is ignored on Stop-like events and for async hooks', async () => {
    const hook = await script('fail.sh', '#!/bin/sh\nexit 1\n');
    for (const event of ['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle'] as const) {
      const out = await runner(on(event, [{ type: 'command', command: hook, onFailure: 'block' }])).run(
        event,
        {},
      );
      expect(out.blocked, event).toBe(false);
    }
    const bg = runner(
      on('PreToolUse', [{ type: 'command', command: hook, async: true, onFailure: 'block' }]),
    );
    expect((await bg.run('PreToolUse', bash)).blocked).toBe(false);
  });

  it('"block" on an http hook whose server is not there blocks', async () => {
    const hook: HookHandler = {
      type: 'http',
      url: 'http://127.0.0.1:9/hook',
      timeout: 2,
      onFailure: 'block',
    };
    const out = await runner(on('PreToolUse', [hook])).run('PreToolUse', bash);
    expect(out.blocked).toBe(true);
  });

  it('settings: an unknown value is a problem naming the field; mcp_tool reads any non-"continue" as "block"', () => {
    const bad = parseHookSettings(
      { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', onFailure: 'stop' }] }] },
      'settings.json',
    );
    expect(bad.problems.join('\n')).toMatch(
      /settings\.json\.PreToolUse\[0\]\.hooks\[0\]\.onFailure: must be "continue" or "block"/,
    );
    const mcp = parseHookSettings(
      { PreToolUse: [{ hooks: [{ type: 'mcp_tool', server: 's', tool: 't', onFailure: 'halt' }] }] },
      'settings.json',
    );
    expect(mcp.problems).toEqual([]);
    expect(mcp.settings.PreToolUse?.[0]?.hooks[0]).toMatchObject({ onFailure: 'block' });
  });

  it('generated: whatever a failing script does, "block" blocks PreToolUse exactly when the result is a failure', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('', '{"continue":true}', '{oops', 'text'),
        async (code, stdout) => {
          const hook = await script(`gen-${code}.sh`, `#!/bin/sh\nprintf '%s' '${stdout}'\nexit ${code}\n`);
          const out = await runner(
            on('PreToolUse', [{ type: 'command', command: hook, onFailure: 'block' }]),
          ).run('PreToolUse', bash);
          const failure = (code !== 0 && code !== 2) || (code === 0 && stdout === '{oops');
          expect(out.blocked).toBe(failure || code === 2);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('shell', () => {
  it('absent or "bash": /bin/sh -c, whatever $SHELL says (as the real CLI 2.1.332 on Linux)', async () => {
    const out = path.join(dir, 'out.txt');
    for (const shell of [undefined, 'bash'] as const) {
      const hook: HookHandler = {
        type: 'command',
        command: `echo "$0" > ${out}`,
        ...(shell ? { shell } : {}),
      };
      await createHookRunner(on('PreToolUse', [hook]), { cwd: dir, env: { SHELL: '/bin/bash' } }).run(
        'PreToolUse',
        bash,
      );
      expect((await readFile(out, 'utf8')).trim()).toBe('/bin/sh');
    }
    expect(shellArgv('bash', 'x')).toEqual({ file: '/bin/sh', args: ['-c', 'x'] });
  });

  it('"powershell" runs pwsh -NoProfile -Command; without pwsh the hook could not start', async () => {
    expect(shellArgv('powershell', 'Write-Output 1')).toEqual({
      file: 'pwsh',
      args: ['-NoProfile', '-Command', 'Write-Output 1'],
    });
    const failures: HookFailure[] = [];
    const r = createHookRunner(
      on('PreToolUse', [{ type: 'command', command: 'Write-Output 1', shell: 'powershell' }]),
      {
        cwd: dir,
        env: { PATH: path.join(dir, 'empty') },
        onFailure: (f) => failures.push(f),
      },
    );
    const out = await r.run('PreToolUse', bash);
    expect(out.results[0]?.notStarted).toBe(true);
    expect(failures[0]?.message).toContain('could not start');
  });

  it('exec form ignores shell', async () => {
    const prog = await script('argv.sh', `#!/bin/sh\necho "$1" > ${path.join(dir, 'argv.txt')}\n`);
    await runner(
      on('PreToolUse', [{ type: 'command', command: prog, args: ['$HOME'], shell: 'powershell' }]),
    ).run('PreToolUse', bash);
    expect((await readFile(path.join(dir, 'argv.txt'), 'utf8')).trim()).toBe('$HOME');
  });

  it('settings: an unknown shell is a problem naming the field, and the hook is left out', () => {
    const bad = parseHookSettings(
      { Stop: [{ hooks: [{ type: 'command', command: 'x', shell: 'fish' }] }] },
      'settings.json',
    );
    expect(bad.problems.join('\n')).toMatch(
      /settings\.json\.Stop\[0\]\.hooks\[0\]\.shell: must be "bash" or "powershell"/,
    );
    expect(bad.settings.Stop).toBeUndefined();
  });
});

/**
 * Exit codes and JSON decisions per event, as Claude Code's hooks reference
 * gives them; generated matcher strings and hostile hook output never throw
 * and never block where they must not.
 */
import fc from 'fast-check';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verdictOf } from '../../src/hooks/hook-output.js';
import { HOOK_EVENTS } from '../../src/hooks/parse.js';
import { createHookRunner, matcherFits } from '../../src/hooks/runner.js';
import type { HookCommandResult, HookEventName } from '../../src/hooks/types.js';
import { toolNameVariants } from '../../src/tools/claude-names.js';

const result = (exitCode: number | null, stdout = '', stderr = ''): HookCommandResult => ({
  command: 'hook',
  exitCode,
  stdout,
  stderr,
  timedOut: false,
  durationMs: 1,
});

const BLOCKABLE: HookEventName[] = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
];

describe('exit codes per event', () => {
  it.each(HOOK_EVENTS)('%s: exit 2 blocks only where Claude Code says it can; stderr is the reason or a shown message', (event) => {
    const v = verdictOf(event, result(2, '', 'no way\n'));
    if (BLOCKABLE.includes(event)) expect(v).toMatchObject({ blocked: true, reason: 'no way' });
    else expect(v).toMatchObject({ blocked: false, systemMessage: 'no way' });
  });

  it.each(HOOK_EVENTS)('%s: exit 1 and a kill are non-blocking errors', (event) => {
    expect(verdictOf(event, result(1, '{"decision":"block"}', 'x')).blocked).toBe(false);
    expect(verdictOf(event, result(null)).blocked).toBe(false);
  });

  it('plain stdout is context on UserPromptSubmit and SessionStart only', () => {
    expect(verdictOf('UserPromptSubmit', result(0, 'ctx\n')).additionalContext).toBe('ctx');
    expect(verdictOf('SessionStart', result(0, 'ctx')).additionalContext).toBe('ctx');
    expect(verdictOf('PreToolUse', result(0, 'ctx')).additionalContext).toBeUndefined();
  });
});

describe('JSON decisions per event', () => {
  const json = (value: unknown) => result(0, JSON.stringify(value));
  it('PreToolUse: permissionDecision allow/deny/ask with reason and updatedInput; the deprecated approve/block', () => {
    const specific = (o: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });
    expect(verdictOf('PreToolUse', specific({ permissionDecision: 'deny', permissionDecisionReason: 'r' }))).toMatchObject({
      blocked: true,
      reason: 'r',
      permissionDecision: 'deny',
    });
    expect(verdictOf('PreToolUse', specific({ permissionDecision: 'allow', updatedInput: { command: 'ls' } }))).toMatchObject({
      blocked: false,
      permissionDecision: 'allow',
      updatedInput: { command: 'ls' },
    });
    expect(verdictOf('PreToolUse', specific({ permissionDecision: 'ask' })).permissionDecision).toBe('ask');
    expect(verdictOf('PreToolUse', json({ decision: 'approve' })).permissionDecision).toBe('allow');
    expect(verdictOf('PreToolUse', json({ decision: 'block', reason: 'r' }))).toMatchObject({ blocked: true, permissionDecision: 'deny' });
  });

  it('PermissionRequest: decision.behavior allow (with updatedInput) or deny (with message)', () => {
    const d = (decision: unknown) => json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
    expect(verdictOf('PermissionRequest', d({ behavior: 'allow', updatedInput: { a: 1 } }))).toMatchObject({
      permissionDecision: 'allow',
      updatedInput: { a: 1 },
    });
    expect(verdictOf('PermissionRequest', d({ behavior: 'deny', message: 'm' }))).toMatchObject({ blocked: true, reason: 'm' });
  });

  it.each(['UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop'] as const)(
    '%s: decision "block" with a reason blocks',
    (event) => {
      expect(verdictOf(event, json({ decision: 'block', reason: 'again' }))).toMatchObject({ blocked: true, reason: 'again' });
    },
  );

  it.each(['SessionStart', 'SessionEnd', 'Notification', 'PreCompact', 'SubagentStart'] as const)(
    '%s: decision "block" does not block',
    (event) => {
      expect(verdictOf(event, json({ decision: 'block', reason: 'x' })).blocked).toBe(false);
    },
  );

  it('continue false stops (with stopReason) on any event; systemMessage and additionalContext pass through', () => {
    for (const event of HOOK_EVENTS) {
      expect(verdictOf(event, json({ continue: false, stopReason: 's', systemMessage: 'm' }))).toMatchObject({
        continue: false,
        stopReason: 's',
        systemMessage: 'm',
      });
    }
    expect(
      verdictOf('SessionStart', json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' } })).additionalContext,
    ).toBe('c');
  });

  it('a wrongly typed field is ignored, the rest of the answer counts', () => {
    expect(verdictOf('Stop', json({ decision: 'block', reason: 42, hookSpecificOutput: 'nope', continue: 'yes' }))).toMatchObject({
      blocked: true,
      continue: true,
      reason: 'blocked by a hook',
    });
  });
});

describe('generated cases', () => {
  const events = fc.constantFrom(...HOOK_EVENTS);
  const jsonish = fc.oneof(
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.record({
      continue: fc.anything(),
      decision: fc.oneof(fc.constantFrom('block', 'approve', 'deny'), fc.anything()),
      reason: fc.anything(),
      hookSpecificOutput: fc.oneof(
        fc.anything(),
        fc.record({ permissionDecision: fc.anything(), updatedInput: fc.anything(), decision: fc.anything(), additionalContext: fc.anything() }),
      ),
    }).map((v) => JSON.stringify(v)),
    fc.string(),
    fc.constant('{'.repeat(5000)),
    fc.constant(`{"a":${'['.repeat(3000)}${']'.repeat(3000)}}`),
  );

  it('hostile hook output never throws, and only exit 2 or a decision can block', () => {
    fc.assert(
      fc.property(events, fc.constantFrom(0, 1, 2, 127), jsonish, fc.string(), (event, code, stdout, stderr) => {
        const v = verdictOf(event, result(code, stdout, stderr));
        expect(typeof v.blocked).toBe('boolean');
        if (code !== 0 && code !== 2) expect(v.blocked).toBe(false);
        if (v.blocked) expect(typeof v.reason).toBe('string');
      }),
      { numRuns: 400 },
    );
  });

  it('matcher strings never throw; a plain name list matches exactly', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (matcher, value) => {
        expect(typeof matcherFits(matcher, value)).toBe('boolean');
      }),
      { numRuns: 500 },
    );
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/);
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), name, (names, value) => {
        // our own names match through Claude Code's (`bash` → `Bash`)
        expect(matcherFits(names.join('|'), value)).toBe(toolNameVariants(value).some((v) => names.includes(v)));
      }),
    );
    expect(matcherFits('Write|Edit', 'edit')).toBe(true);
    expect(matcherFits('Write|Edit', 'bash')).toBe(false);
    expect(matcherFits('Bash', 'bash')).toBe(true);
    expect(matcherFits('mcp__memory__.*', 'mcp__memory__create_entities')).toBe(true);
    expect(matcherFits('mcp__memory__.*', 'mcp__github__x')).toBe(false);
    expect(matcherFits('Notebook.*', 'write')).toBe(false);
    expect(matcherFits('Task', 'task')).toBe(true);
    expect(matcherFits('Agent', 'task')).toBe(true);
  });

  describe('through real processes', () => {
    let dir = '';
    beforeAll(async () => {
      dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-hookgen-')));
    });
    afterAll(async () => rm(dir, { recursive: true, force: true }));

    it('a hook printing generated garbage (and exiting 0 or 2) never crashes the runner', async () => {
      const samples = fc.sample(jsonish, 12);
      for (const [i, out] of samples.entries()) {
        const file = path.join(dir, `out-${i}.txt`);
        await writeFile(file, out);
        const runner = createHookRunner(
          { PreToolUse: [{ hooks: [{ type: 'command', command: `cat >/dev/null; cat ${file}; exit ${i % 2 === 0 ? 0 : 2}` }] }] },
          { cwd: dir },
        );
        const outcome = await runner.run('PreToolUse', { tool_name: 'bash', tool_input: { command: 'ls' } }, { matchValue: 'bash' });
        expect(outcome.results).toHaveLength(1);
        if (i % 2 === 1) expect(outcome.blocked).toBe(true);
      }
    });
  });
});

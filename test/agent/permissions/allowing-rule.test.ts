/**
 * `allowingRule` when no rule names the call's tool: nothing can allow it, so
 * the command is not parsed at all (the first call's parse was ~3.5 ms of an
 * agent's first tool turn). Generated commands: the answer is the same as
 * with no rules, and the gate's decision the same as with an empty allow list.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPermissionGate } from '../../../src/agent/permissions/gate.js';
import { allowingRule } from '../../../src/agent/permissions/rule-match.js';
import { parseRule } from '../../../src/agent/permissions/rules.js';
import { viewCall } from '../../../src/agent/permissions/tool-call.js';
import type { PermissionRule } from '../../../src/agent/permissions/types.js';
import { bashTool } from '../../../src/tools/bash.js';

const place = { root: '/tmp', cwd: '/tmp' };
const OTHER_TOOLS = ['Read', 'Read(src/**)', 'Edit(//tmp/**)', 'WebFetch(domain:example.com)', 'Glob', 'mcp__srv__tool'];
const rule = (text: string): PermissionRule => {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

const WORDS = ['echo', 'ls', 'cat', 'rm', '-rf', '/', 'cd', '..', 'git', 'status', 'push', 'x.txt', '"a b"', '$(pwd)', '`id`', '~'];
const OPS = [' ', ' ', ' ', ' | ', ' && ', ' ; ', ' > ', ' >> ', ' || ', ' & '];
const command = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...OPS)), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.map(([w, op]) => w + op).join('').trim());

describe('allowingRule with no rule naming the tool', () => {
  it('allows nothing, whatever the command', () => {
    fc.assert(
      fc.property(command, fc.subarray(OTHER_TOOLS), (cmd, others) => {
        const view = viewCall(bashTool, { command: cmd }, place);
        expect(allowingRule(others.map(rule), view, place)).toBeNull();
        expect(allowingRule([], view, place)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("the gate's decision is the one it makes with an empty allow list", () => {
    const modes = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'] as const;
    fc.assert(
      fc.property(command, fc.constantFrom(...modes), (cmd, mode) => {
        const bare = createPermissionGate({ defaultMode: mode, allow: [], deny: [], ask: [] });
        const others = createPermissionGate({ defaultMode: mode, allow: OTHER_TOOLS, deny: [], ask: [] });
        expect(others.check(bashTool, { command: cmd }, place)).toEqual(bare.check(bashTool, { command: cmd }, place));
      }),
      { numRuns: 300 },
    );
  });

  it('a rule naming Bash still decides as before', () => {
    const view = viewCall(bashTool, { command: 'npm test && echo done' }, place);
    expect(allowingRule([rule('Bash(npm test:*)')], view, place)?.source).toBe('Bash(npm test:*)');
    expect(allowingRule([rule('Read'), rule('Bash')], view, place)?.source).toBe('Bash');
    const write = viewCall(bashTool, { command: 'npm test && rm x' }, place);
    expect(allowingRule([rule('Bash(npm test:*)')], write, place)).toBeNull();
  });
});

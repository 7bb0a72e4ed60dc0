import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePathGlob } from '../../../src/agent/permissions/path-glob.js';
import { parseRule } from '../../../src/agent/permissions/rules.js';

describe('parseRule', () => {
  it.each([
    ['Bash', { tool: 'Bash', content: null }],
    ['Bash(npm test:*)', { tool: 'Bash', content: 'npm test:*' }],
    ['Bash(git status)', { tool: 'Bash', content: 'git status' }],
    ['Edit(src/**)', { tool: 'Edit', content: 'src/**' }],
    ['  Read  ', { tool: 'Read', content: null }],
    ['mcp__github__create_issue', { tool: 'mcp__github__create_issue', content: null }],
    ['mcp__github__*', { tool: 'mcp__github__*', content: null }],
    ['WebFetch(domain:example.com)', { tool: 'WebFetch', content: 'domain:example.com' }],
    ['Bash(echo (a))', { tool: 'Bash', content: 'echo (a)' }],
  ])('%s', (rule, expected) => {
    expect(parseRule(rule)).toEqual({ ok: true, value: { ...expected, source: rule.trim() } });
  });

  it.each([
    ['', 'empty'],
    ['Bash(', 'must end with ")"'],
    ['Bash)', 'without a "("'],
    ['Bash()', 'parentheses are empty'],
    ['Bash(:*)', 'needs a command before ":*"'],
    ['Bash(npm:* test)', 'may only end the rule'],
    ['Ba sh', 'tool name'],
    ['(x)', 'not a tool name'],
  ])('refuses %j with a clear error', (rule, why) => {
    const parsed = parseRule(rule);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toContain(`invalid permission rule ${JSON.stringify(rule)}`);
      expect(parsed.error).toContain(why);
    }
  });
});

describe('path globs (gitignore style, relative to root)', () => {
  const root = '/repo';
  const check = (pattern: string, rel: string): boolean =>
    compilePathGlob(pattern).matches(path.join(root, rel), rel);
  it.each([
    ['src/**', 'src/a.ts', true],
    ['src/**', 'src/deep/a.ts', true],
    ['src/**', 'lib/src/a.ts', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/deep/a.ts', false],
    ['*.env', '.env', true],
    ['.env', '.env', true],
    ['.env', 'config/.env', true],
    ['*.env', 'config/prod.env', true],
    ['/build', 'build/out.js', true],
    ['/build', 'sub/build/out.js', false],
    ['build/', 'build/x/y', true],
    ['docs', 'docs/a/b.md', true],
    ['**/*.{ts,tsx}', 'a/b/c.tsx', true],
    ['**/*.{ts,tsx}', 'a/b/c.js', false],
    ['secrets/[a-c]*', 'secrets/b1', true],
    ['secrets/[!a-c]*', 'secrets/b1', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
  ])('%s on %s → %s', (pattern, rel, expected) => {
    expect(check(pattern, rel)).toBe(expected);
  });

  it('matches absolute (//) and home (~/) patterns against the absolute path, even outside root', () => {
    expect(compilePathGlob('//etc/**').matches('/etc/passwd', null)).toBe(true);
    expect(compilePathGlob('~/.ssh/**').matches(path.join(os.homedir(), '.ssh/id_rsa'), null)).toBe(true);
    expect(compilePathGlob('src/**').matches('/elsewhere/src/a', null)).toBe(false);
  });
});

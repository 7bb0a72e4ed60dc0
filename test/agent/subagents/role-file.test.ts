import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseFrontMatter } from '../../../src/agent/context/front-matter.js';
import { parseRoleFile } from '../../../src/agent/subagents/role-file.js';
import { loadRoles } from '../../../src/agent/subagents/roles.js';
import { tempDir } from '../support/workspace.js';

const CLAUDE_CODE_ROLE = `---
name: code-reviewer
description: "Reviews code: use after every change. Checks style, bugs and tests."
tools: Read, Grep, Glob, Bash
model: sonnet
---

You are a senior code reviewer.

Report problems by file and line.
`;

describe('role files (.claude/agents/*.md)', () => {
  test('reads Claude Code role files: name, description, comma-separated tools, model, the body as prompt', () => {
    const role = parseRoleFile(CLAUDE_CODE_ROLE, '/repo/.claude/agents/code-reviewer.md');
    expect(role).toEqual({
      ok: true,
      value: {
        name: 'code-reviewer',
        description: 'Reviews code: use after every change. Checks style, bugs and tests.',
        prompt: 'You are a senior code reviewer.\n\nReport problems by file and line.',
        tools: ['read', 'grep', 'glob', 'bash', 'bash_output', 'bash_kill'],
        model: 'sonnet',
        source: '/repo/.claude/agents/code-reviewer.md',
      },
    });
  });

  test('reads YAML lists, block scalars, comments, mcpServers and maxTurns; the name defaults to the file name', () => {
    const text = [
      '---',
      '# a comment',
      'description: >',
      '  Looks things up',
      '  in the tracker.',
      'tools:',
      '  - read',
      "  - 'grep'",
      'mcpServers: [tracker, "files"]',
      'maxTurns: 5',
      '---',
      'Find the issue.',
    ].join('\n');
    const role = parseRoleFile(text, '/r/.claude/agents/tracker-bot.md');
    expect(role.ok && role.value).toMatchObject({
      name: 'tracker-bot',
      description: 'Looks things up in the tracker.',
      tools: ['read', 'grep'],
      mcpServers: ['tracker', 'files'],
      maxTurns: 5,
      prompt: 'Find the issue.',
    });
    const literal = parseFrontMatter('---\nnote: |\n  line one\n  line two\n---\nbody', 'f.md');
    expect(literal.ok && literal.value.data.note).toBe('line one\nline two\n'); // YAML's clip: one final newline
  });

  test('bad files are errors naming the file and the field or line', () => {
    const noDescription = parseRoleFile('---\nname: x\n---\nPrompt.', '/r/a.md');
    expect(noDescription.ok ? '' : noDescription.error).toMatch(/^\/r\/a\.md: .*description/);
    const badName = parseRoleFile('---\nname: ../evil\ndescription: d\n---\nPrompt.', '/r/b.md');
    expect(badName.ok ? '' : badName.error).toMatch(/^\/r\/b\.md: .*name/);
    const unclosed = parseRoleFile('---\nname: x\n', '/r/c.md');
    expect(unclosed.ok ? '' : unclosed.error).toBe(
      '/r/c.md: the front matter opened on line 1 is never closed with ---',
    );
    const garbage = parseRoleFile('---\nname x\n---\n', '/r/d.md');
    expect(garbage.ok ? '' : garbage.error).toBe(
      '/r/d.md:2: the front matter must be "key: value" lines, not a single value',
    );
    const badYaml = parseRoleFile('---\nname: x\ntools: [Read\n---\nP', '/r/f.md');
    expect(badYaml.ok ? '' : badYaml.error).toMatch(/^\/r\/f\.md:\d+: not valid YAML \(\w+\)/);
    const noPrompt = parseRoleFile('---\nname: x\ndescription: d\n---\n', '/r/e.md');
    expect(noPrompt.ok ? '' : noPrompt.error).toMatch(/prompt/);
  });

  test('loadRoles: built-in general-purpose, role files (bad ones reported), option roles win', async () => {
    await using dir = await tempDir();
    const agents = join(dir.path, '.claude', 'agents');
    await mkdir(agents, { recursive: true });
    await writeFile(join(agents, 'code-reviewer.md'), CLAUDE_CODE_ROLE);
    await writeFile(join(agents, 'broken.md'), '---\nname: broken\n---\n');
    await writeFile(join(agents, 'notes.txt'), 'not a role');
    const { roles, problems } = await loadRoles(
      dir.path,
      [
        { name: 'code-reviewer', description: 'from the config', prompt: 'Review.' },
        { name: 'bad name!', description: 'x', prompt: 'y' },
      ],
      { userDir: null },
    );
    expect([...roles.keys()].sort()).toEqual(['code-reviewer', 'general-purpose']);
    expect(roles.get('code-reviewer')).toMatchObject({ description: 'from the config', source: 'options' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('broken.md');
    expect(problems[1]).toMatch(/^subagents\.roles\[1\]: .*name/);
  });
});

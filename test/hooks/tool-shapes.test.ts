/**
 * Tool calls as Claude Code hooks see them: absolute `file_path`, each
 * tool's `tool_response` keys, and `if` rules tested by teamd's permission
 * rule matcher against real tool definitions.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifRuleTest, toolResponse } from '../../src/agent/hook-calls.js';
import { claudeToolInput, claudeToolResponse } from '../../src/hooks/tool-shapes.js';
import { builtinTools, createToolContext } from '../../src/tools/index.js';
import { teamdToolName } from '../../src/tools/claude-names.js';

let dir = '';
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-shapes-')));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const tool = (name: string) => builtinTools().find((t) => t.name === name)!;
const place = () => ({ root: dir, cwd: path.join(dir, 'sub') });

describe('tool inputs', () => {
  it('file_path and notebook_path become absolute from the shell cwd; others are left alone', () => {
    expect(claudeToolInput({ file_path: 'a.ts', old_string: 'x' }, '/r/sub')).toEqual({ file_path: '/r/sub/a.ts', old_string: 'x' });
    expect(claudeToolInput({ file_path: '/abs/a.ts' }, '/r')).toEqual({ file_path: '/abs/a.ts' });
    expect(claudeToolInput({ notebook_path: 'n.ipynb' }, '/r')).toEqual({ notebook_path: '/r/n.ipynb' });
    expect(claudeToolInput({ pattern: '**/*.ts', path: 'src' }, '/r')).toEqual({ pattern: '**/*.ts', path: 'src' });
    expect(claudeToolInput('not an object', '/r')).toBe('not an object');
  });

  it('the reverse name map', () => {
    expect(teamdToolName('Bash')).toBe('bash');
    expect(teamdToolName('TodoWrite')).toBe('todo_write');
    expect(teamdToolName('Nope')).toBeUndefined();
  });
});

describe('tool_response per tool, from a real run of each tool', () => {
  it('Read, Write, Edit, Bash, Glob, Grep, TodoWrite keep Claude Code keys', async () => {
    const ctx = createToolContext({ root: dir });
    const run = async (name: string, input: Record<string, unknown>) => {
      const out = await tool(name).run(tool(name).inputSchema.parse(input), ctx);
      return toolResponse(tool(name), input, out.content, out.isError ?? false, { root: dir, cwd: dir }) as Record<string, unknown>;
    };
    const file = path.join(dir, 'f.txt');
    expect(await run('write', { file_path: 'f.txt', content: 'one\ntwo\n' })).toMatchObject({ type: 'create', filePath: file, content: 'one\ntwo\n' });
    expect(await run('write', { file_path: 'f.txt', content: 'one\ntwo\n' })).toMatchObject({ type: 'update' });
    expect(await run('read', { file_path: 'f.txt' })).toMatchObject({ type: 'text', file: { filePath: file, content: expect.stringMatching(/^one\ntwo/), startLine: 1 } });
    expect(await run('edit', { file_path: 'f.txt', old_string: 'two', new_string: 'three' })).toMatchObject({
      filePath: file,
      oldString: 'two',
      newString: 'three',
      replaceAll: false,
    });
    expect(await run('bash', { command: 'echo hi' })).toMatchObject({ stdout: expect.stringContaining('hi'), stderr: '', interrupted: false });
    await writeFile(path.join(dir, 'g.ts'), 'const three = 3;\n');
    expect(await run('glob', { pattern: '*.ts' })).toMatchObject({ filenames: [expect.stringContaining('g.ts')], numFiles: 1 });
    expect(await run('grep', { pattern: 'three' })).toMatchObject({ mode: 'files_with_matches', numFiles: 2 });
    const todos = [{ content: 'x', status: 'pending', activeForm: 'doing x' }];
    expect(await run('todo_write', { todos })).toMatchObject({ oldTodos: [], newTodos: todos });
  });

  it('an MCP tool gets its content blocks; an unknown tool its text', () => {
    expect(claudeToolResponse({ tool: 'mcp__memory__read', input: {}, content: 'x', isError: false })).toEqual([{ type: 'text', text: 'x' }]);
    expect(claudeToolResponse({ tool: 'send_message', input: {}, content: 'sent', isError: false })).toBe('sent');
  });
});

describe('if rules', () => {
  it('Bash(git *) matches git commands, also inside a compound line; Edit(src/**) matches paths under src', () => {
    const bash = (command: string) => ifRuleTest(tool('bash'), { command }, place());
    expect(bash('git status')('Bash(git *)')).toBe(true);
    expect(bash('ls && git push')('Bash(git *)')).toBe(true);
    expect(bash('ls -la')('Bash(git *)')).toBe(false);
    expect(bash('git status')('Bash(npm test:*)')).toBe(false);
    expect(bash('git status')('not a rule ((')).toBe(false);
    const edit = (file_path: string) => ifRuleTest(tool('edit'), { file_path, old_string: 'a', new_string: 'b' }, { root: dir, cwd: dir });
    expect(edit('src/a.ts')('Edit(src/**)')).toBe(true);
    expect(edit('docs/a.md')('Edit(src/**)')).toBe(false);
  });
});

/**
 * `teamd agent -p --add-dir` and `permissions.additionalDirectories`: the flag's
 * checks, the settings entries, and a whole run in which the model learns the
 * added directory from the session context and reads a file there.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runHeadless } from '../../src/agent/headless.js';
import { addedDirs, checkAddedDir } from '../../src/cli/add-dir.js';
import { headlessOptions } from '../../src/cli/agent.js';
import { checkClaudeFiles } from '../../src/cli/validate-claude.js';
import { formatProblem } from '../../src/store/problems.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { tempDir } from '../agent/support/workspace.js';

async function layout() {
  const dir = await tempDir('teamd-adddir-cli-');
  const repo = join(dir.path, 'repo');
  const lib = join(dir.path, 'lib');
  await mkdir(join(repo, '.claude'), { recursive: true });
  await mkdir(lib);
  await writeFile(join(lib, 'notes.txt'), 'needle in lib\n');
  await writeFile(join(dir.path, 'plain-file'), 'x');
  return { dir, repo, lib };
}

const READ_ADDED: ScriptInput = {
  steps: [
    {
      conversation: 'Additional working directories:\\n  - ([^\\n]+)',
      content: [{ type: 'tool_use', name: 'read', input: { file_path: '$1/notes.txt' } }],
    },
    { afterTool: 'read', match: 'needle in lib', content: [{ type: 'text', text: 'Found it.' }] },
  ],
};

async function runIn(repo: string, flags: Record<string, unknown>) {
  await writeFile(join(repo, 'script.json'), JSON.stringify(READ_ADDED));
  const printed: string[] = [];
  const out = { stdout: (t: string) => printed.push(t), stderr: (t: string) => printed.push(`stderr: ${t}`) };
  const options = await headlessOptions({ model: 'scripted:script.json', ...flags }, repo);
  const result = await runHeadless('Read the notes', options, 'text', out).result;
  return { result, printed, options };
}

describe('teamd agent --add-dir', () => {
  test('the model is told the added directory and reads a file in it', async () => {
    const { dir, repo, lib } = await layout();
    await using _ = dir;
    const { result, printed, options } = await runIn(repo, { addDir: ['../lib'] });
    expect(options.additionalDirectories).toEqual([lib]);
    expect(result.subtype).toBe('success');
    expect(printed).toEqual(['Found it.\n']);
  });

  test('a library caller’s permissionPolicy.additionalDirectories reaches the tools as the option does', async () => {
    const { dir, repo, lib } = await layout();
    await using _ = dir;
    await writeFile(join(repo, 'script.json'), JSON.stringify(READ_ADDED));
    const { additionalDirectories: _flag, ...base } = await headlessOptions({ model: 'scripted:script.json' }, repo);
    const options = { ...base, permissionPolicy: { ...base.permissionPolicy, additionalDirectories: [lib] } };
    const printed: string[] = [];
    const out = { stdout: (t: string) => printed.push(t), stderr: (t: string) => printed.push(`stderr: ${t}`) };
    const result = await runHeadless('Read the notes', options, 'text', out).result;
    expect(result.subtype).toBe('success');
    expect(printed).toEqual(['Found it.\n']);
  });

  test('without it the same read is refused and the script finds no directory named', async () => {
    const { dir, repo } = await layout();
    await using _ = dir;
    const { result } = await runIn(repo, {});
    expect(result.is_error).toBe(true);
  });

  test('permissions.additionalDirectories of .claude/settings.json is honoured', async () => {
    const { dir, repo, lib } = await layout();
    await using _ = dir;
    const settings = { permissions: { additionalDirectories: ['../lib', '../nowhere'] } };
    await writeFile(join(repo, '.claude', 'settings.json'), JSON.stringify(settings));
    const { result, options } = await runIn(repo, {});
    expect(options.additionalDirectories).toEqual([lib]);
    expect(result.subtype).toBe('success');
  });

  test('a missing directory or a file is an error naming the flag', async () => {
    const { dir, repo } = await layout();
    await using _ = dir;
    await writeFile(join(repo, 'x.json'), JSON.stringify(READ_ADDED));
    await expect(headlessOptions({ model: 'scripted:x.json', addDir: ['../nowhere'] }, repo)).rejects.toThrow(
      /--add-dir: \.\.\/nowhere does not exist/,
    );
    await expect(headlessOptions({ model: 'scripted:x.json', addDir: ['../plain-file'] }, repo)).rejects.toThrow(
      /--add-dir: \.\.\/plain-file is not a directory/,
    );
  });

  test('teamd validate names a permissions.additionalDirectories that is not a list of paths', async () => {
    const { dir, repo } = await layout();
    await using _ = dir;
    await writeFile(join(repo, '.claude', 'settings.json'), JSON.stringify({ permissions: { additionalDirectories: '../lib' } }));
    const { problems } = await checkClaudeFiles(repo);
    expect(problems.map(formatProblem)).toEqual([
      '.claude/settings.json: permissions.additionalDirectories: must be a list of directory paths',
    ]);
  });

  test('entries are deduplicated, the working directory left out, bad settings entries warned about', async () => {
    const { dir, repo, lib } = await layout();
    await using _ = dir;
    const got = addedDirs(['../lib', lib, '.'], [{ dir: '', source: '.claude/settings.json' }, { dir: '../lib/', source: 's' }], repo);
    expect(got.dirs).toEqual([lib]);
    expect(got.warnings).toEqual(['.claude/settings.json: permissions.additionalDirectories: an empty path; left out']);
    expect(checkAddedDir('a\0b', repo).ok).toBe(false);
  });
});

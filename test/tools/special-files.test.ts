/**
 * Paths a teammate can fill with a FIFO (which blocks a reader forever) or a
 * link to /dev/zero (which never ends), outside the team folders (issue 16):
 * the read tool, the in-process grep, the repository config check of the
 * read-only bash classifier, and the worktree pointer check answer at once.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { commonDirOf } from '../../src/git/worktree-pointer.js';
import { repositoryConfigRisk } from '../../src/tools/bash-strict/git-config-trust.js';
import { searchInProcess } from '../../src/tools/grep-search.js';
import { readTool } from '../../src/tools/read.js';
import { mkfifo } from '../store/hostile-entries.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

let t: TempRoot;
beforeEach(async () => {
  t = await createTempRoot();
});
afterEach(async () => t.close());

it('the read tool refuses a FIFO (and a device) instead of blocking on it', async () => {
  mkfifo(path.join(t.root, 'pipe'));
  const out = await t.run(readTool, { file_path: 'pipe' });
  expect(out.isError).toBe(true);
  expect(out.content).toMatch(/pipe is not a regular file/);
});

it('the in-process grep skips a FIFO and still finds the match beside it', async () => {
  mkdirSync(path.join(t.root, 'src'));
  mkfifo(path.join(t.root, 'src', 'pipe.ts'));
  writeFileSync(path.join(t.root, 'src', 'a.ts'), 'const needle = 1;\n');
  const found = await searchInProcess({
    pattern: 'needle',
    caseInsensitive: false,
    multiline: false,
    base: t.root,
    root: t.root,
    before: 0,
    after: 0,
    maxFiles: 10,
    signal: new AbortController().signal,
  });
  expect(JSON.stringify(found)).toContain('a.ts');
});

for (const kind of ['fifo', 'zero'] as const)
  it(`a repository config that is a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'} makes the config check refuse, at once`, () => {
    execFileSync('git', ['init', '-q', t.root]);
    const config = path.join(t.root, '.git', 'config');
    execFileSync('rm', [config]);
    if (kind === 'fifo') mkfifo(config);
    else symlinkSync('/dev/zero', config);
    expect(repositoryConfigRisk(t.root)).toMatch(/config could not be read/);
  });

for (const kind of ['fifo', 'zero'] as const)
  it(`a main checkout's .git pointer that is a ${kind === 'fifo' ? 'FIFO' : 'link to /dev/zero'} is an error, not a hang`, () => {
    const dotGit = path.join(t.root, '.git');
    if (kind === 'fifo') mkfifo(dotGit);
    else symlinkSync('/dev/zero', dotGit);
    expect(() => commonDirOf(t.root)).toThrow(/\.git/);
  });

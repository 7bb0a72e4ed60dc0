import { mkdir, symlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/tools/bash.js';
import { GLOB_LIMITS, globTool } from '../../src/tools/glob.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

describe('glob tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  const setAge = async (rel: string, secondsAgo: number): Promise<void> => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    await utimes(path.join(t.root, rel), when, when);
  };

  it('finds files by pattern, newest first, skipping .git and node_modules', async () => {
    for (const rel of [
      'src/old.ts',
      'src/deep/new.ts',
      'src/mid.ts',
      'src/readme.md',
      'node_modules/x/i.ts',
      '.git/hooks/h.ts',
    ])
      await t.file(rel, 'x');
    await setAge('src/old.ts', 300);
    await setAge('src/mid.ts', 200);
    await setAge('src/deep/new.ts', 100);
    const out = await t.run(globTool, { pattern: '**/*.ts' });
    expect(out.content).toBe(['src/deep/new.ts', 'src/mid.ts', 'src/old.ts'].join('\n'));
    const byName = await t.run(globTool, { pattern: '**/*.ts', sort: 'name' });
    expect(byName.content).toBe(['src/deep/new.ts', 'src/mid.ts', 'src/old.ts'].join('\n'));
  });

  it('searches a given folder and answers relative to the current directory', async () => {
    await t.file('a/one.json', '{}');
    await t.file('b/two.json', '{}');
    expect((await t.run(globTool, { pattern: '*.json', path: 'b' })).content).toBe('b/two.json');
    await t.run(bashTool, { command: 'cd a' });
    expect((await t.run(globTool, { pattern: '*.json' })).content).toBe('one.json');
  });

  it('caps the number of results and says how many were left out', async () => {
    await mkdir(path.join(t.root, 'many'));
    await Promise.all(
      Array.from({ length: GLOB_LIMITS.maxResults + 7 }, (_, i) => t.file(`many/f${i}.txt`, '')),
    );
    const out = await t.run(globTool, { pattern: 'many/*.txt' });
    expect(out.content.split('\n').filter((l) => l.endsWith('.txt'))).toHaveLength(GLOB_LIMITS.maxResults);
    expect(out.content).toContain('[7 more not shown');
  });

  it('stays inside root: no "..", no absolute pattern, no folder outside, no symlink out', async () => {
    await t.file('../outside/secret.ts', 'x');
    await symlink(path.join(path.dirname(t.root), 'outside'), path.join(t.root, 'link'));
    await t.file('inside.ts', 'x');
    expect((await t.run(globTool, { pattern: '../**/*.ts' })).isError).toBe(true);
    expect((await t.run(globTool, { pattern: '/etc/*' })).isError).toBe(true);
    expect((await t.run(globTool, { pattern: '*.ts', path: '..' })).content).toContain(
      'outside the working directory',
    );
    expect((await t.run(globTool, { pattern: '**/*.ts' })).content).toBe('inside.ts');
  });

  it('says when nothing matches', async () => {
    expect((await t.run(globTool, { pattern: '**/*.nothing' })).content).toBe(
      'No files match **/*.nothing in the current directory.',
    );
  });
});

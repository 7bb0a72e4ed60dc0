import { linkSync, statSync, symlinkSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { readTool } from '../../src/tools/read.js';
import { whyNotPlainFile, writeGuarded } from '../../src/tools/write-guard.js';
import { writeTool } from '../../src/tools/write.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

let t: TempRoot;
beforeEach(async () => {
  t = await createTempRoot();
});
afterEach(async () => t.close());

const GIT_PATHS = [
  '.git',
  '.git/config',
  '.GIT/config',
  '.Git/hooks/pre-commit',
  'sub/.git/config',
  '.git./x',
  'a/../.git/HEAD',
];

describe("write and edit stay out of git's data", () => {
  it.each(GIT_PATHS)('refuse %s, writing nothing', async (p) => {
    await t.file('.git', 'gitdir: /somewhere/real\n');
    const wrote = await t.run(writeTool, { file_path: p, content: 'gitdir: evil\n' });
    expect(wrote.isError).toBe(true);
    expect(wrote.content).toMatch(/inside git's own data \(\.git\)/);
    const edited = await t.run(editTool, { file_path: p, old_string: '', new_string: 'x' });
    expect(edited.isError).toBe(true);
    expect(await readFile(path.join(t.root, '.git'), 'utf8')).toBe('gitdir: /somewhere/real\n');
  });

  it('refuse a .git folder reached through a symlink', async () => {
    await t.file('.git/config', '[core]\n');
    symlinkSync(path.join(t.root, '.git'), path.join(t.root, 'innocent'));
    await t.run(readTool, { file_path: 'innocent/config' });
    const result = await t.run(editTool, {
      file_path: 'innocent/config',
      old_string: '[core]',
      new_string: '[core]\n\tfsmonitor = x',
    });
    expect(result.isError).toBe(true);
    expect(await readFile(path.join(t.root, '.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('allow names that only start like .git', async () => {
    for (const p of ['.gitignore', '.gitattributes', '.github/workflows/ci.yml', 'my.git/x', '.gitx']) {
      const result = await t.run(writeTool, { file_path: p, content: 'ok\n' });
      expect(result.isError, `${p}: ${result.content}`).toBeFalsy();
    }
  });
});

describe('write and edit never change a file through a hard link', () => {
  it('refuse a file inside the root hard-linked to one outside, which stays unchanged', async () => {
    const outside = path.join(path.dirname(t.root), 'outside.txt');
    await writeFile(outside, 'secret\n');
    linkSync(outside, path.join(t.root, 'linked.txt'));
    await t.run(readTool, { file_path: 'linked.txt' });

    const wrote = await t.run(writeTool, { file_path: 'linked.txt', content: 'changed\n' });
    expect(wrote.isError).toBe(true);
    expect(wrote.content).toMatch(/linked\.txt has 2 hard links/);
    const edited = await t.run(editTool, { file_path: 'linked.txt', old_string: 'secret', new_string: 'x' });
    expect(edited.isError).toBe(true);
    expect(await readFile(outside, 'utf8')).toBe('secret\n');
  });

  it('the open file is checked again: a link or symlink swapped in after the checks is refused', async () => {
    const rootDev = statSync(t.root).dev;
    const outside = path.join(path.dirname(t.root), 'outside.txt');
    await writeFile(outside, 'secret\n');
    linkSync(outside, path.join(t.root, 'hard.txt'));
    symlinkSync(outside, path.join(t.root, 'soft.txt'));
    expect(await writeGuarded(path.join(t.root, 'hard.txt'), 'x', rootDev, 'hard.txt')).toMatchObject({
      ok: false,
    });
    expect(await writeGuarded(path.join(t.root, 'soft.txt'), 'x', rootDev, 'soft.txt')).toMatchObject({
      ok: false,
    });
    expect(await readFile(outside, 'utf8')).toBe('secret\n');
  });

  it('refuse a file or folder on another device than the root', async () => {
    await mkdir(path.join(t.root, 'd'));
    const rootDev = statSync(t.root).dev;
    const elsewhere = statSync('/proc/self/status');
    expect(elsewhere.dev).not.toBe(rootDev);
    expect(whyNotPlainFile(elsewhere, rootDev, 'mnt/x')).toMatch(/another file system/);
    expect(whyNotPlainFile(statSync(path.join(t.root, 'd')), rootDev, 'd')).toBeNull();
  });
});

describe('write below a file', () => {
  it('says which part of the path is a file instead of throwing', async () => {
    await t.file('a', 'x');
    const result = await t.run(writeTool, { file_path: 'a/b/c.txt', content: 'y' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/a\/b\/c\.txt cannot be created: a is a file, not a folder/);
  });
});

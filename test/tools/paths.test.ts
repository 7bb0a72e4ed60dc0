import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInside } from '../../src/tools/paths.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

describe('resolveInside', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  it('resolves relative paths from cwd, and absolute paths inside root', async () => {
    await t.file('src/a.ts', 'x');
    const src = path.join(t.root, 'src');
    expect(resolveInside(t.root, src, 'a.ts')).toEqual({ ok: true, value: path.join(src, 'a.ts') });
    expect(resolveInside(t.root, t.root, path.join(src, 'a.ts'))).toEqual({
      ok: true,
      value: path.join(src, 'a.ts'),
    });
    expect(resolveInside(t.root, src, '../src/./a.ts')).toEqual({ ok: true, value: path.join(src, 'a.ts') });
  });

  it('accepts new files in new folders', () => {
    expect(resolveInside(t.root, t.root, 'new/deeper/file.txt')).toEqual({
      ok: true,
      value: path.join(t.root, 'new/deeper/file.txt'),
    });
  });

  it('refuses .. out of root and absolute paths elsewhere', () => {
    const up = resolveInside(t.root, t.root, '../outside.txt');
    expect(up.ok).toBe(false);
    if (!up.ok) expect(up.error).toContain('outside the working directory');
    expect(resolveInside(t.root, t.root, '/etc/passwd').ok).toBe(false);
    expect(resolveInside(t.root, path.join(t.root, 'a'), '../../x').ok).toBe(false);
    expect(resolveInside(t.root, t.root, '').ok).toBe(false);
  });

  it('refuses a symlink that points outside root', async () => {
    const outside = await t.file('../secret.txt', 'secret');
    await symlink(outside, path.join(t.root, 'link.txt'));
    const result = resolveInside(t.root, t.root, 'link.txt');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(`resolves to ${outside}`);
  });

  it('refuses a new file under a symlinked folder that leads outside', async () => {
    const outsideDir = path.join(path.dirname(t.root), 'elsewhere');
    await mkdir(outsideDir);
    await symlink(outsideDir, path.join(t.root, 'linked'));
    expect(resolveInside(t.root, t.root, 'linked/new/file.txt').ok).toBe(false);
  });

  it('refuses a dangling symlink (writing through it would create its target)', async () => {
    await symlink(path.join(path.dirname(t.root), 'not-yet'), path.join(t.root, 'dangling'));
    const result = resolveInside(t.root, t.root, 'dangling');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('symlink');
  });

  it('follows a symlink that stays inside root to its real path', async () => {
    const real = await t.file('real/target.txt', 'x');
    await symlink(path.join(t.root, 'real'), path.join(t.root, 'alias'));
    expect(resolveInside(t.root, t.root, 'alias/target.txt')).toEqual({ ok: true, value: real });
  });
});

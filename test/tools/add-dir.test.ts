/**
 * The file tools with added directories (`--add-dir`): real folders beside the
 * root, real symlinks. They reach the added directory and nothing else.
 */
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionGate } from '../../src/agent/permissions/gate.js';
import { classifyCommand } from '../../src/tools/bash-classify.js';
import { bashTool } from '../../src/tools/bash.js';
import { createToolContext } from '../../src/tools/context.js';
import { editTool } from '../../src/tools/edit.js';
import { globTool } from '../../src/tools/glob.js';
import { grepTool } from '../../src/tools/grep.js';
import { isInside, resolveInside } from '../../src/tools/paths.js';
import { readTool } from '../../src/tools/read.js';
import type { AnyTool, ToolContext } from '../../src/tools/types.js';
import { writeTool } from '../../src/tools/write.js';

let base: string;
let root: string;
let lib: string;
let secret: string;

async function put(abs: string, text: string): Promise<void> {
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, text);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-adddir-')));
  [root, lib, secret] = ['root', 'lib', 'secret'].map((d) => path.join(base, d)) as [string, string, string];
  await put(path.join(root, 'main.txt'), 'in the root\n');
  await put(path.join(lib, 'notes.txt'), 'needle in lib\n');
  await put(path.join(lib, 'sub/deep.txt'), 'deep needle\n');
  await put(path.join(secret, 'key.txt'), 'needle secret\n');
  // a sibling whose name starts like the added one: not inside it
  await put(path.join(base, 'lib2/other.txt'), 'needle lib2\n');
  await symlink(secret, path.join(lib, 'to-secret'));
  await symlink(path.join(secret, 'key.txt'), path.join(lib, 'key-link.txt'));
  await symlink(path.join(base, 'missing'), path.join(lib, 'dangling'));
  await symlink(lib, path.join(root, 'to-lib'));
  await mkdir(path.join(lib, '.git'));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

const ctxOf = (extra: string[] = [lib]): ToolContext => createToolContext({ root, extraRoots: extra });
const run = (tool: AnyTool, input: unknown, ctx = ctxOf()) => tool.run(tool.inputSchema.parse(input), ctx);

describe('file tools reach an added directory', () => {
  it('read by absolute and by relative path', async () => {
    const abs = await run(readTool, { file_path: path.join(lib, 'notes.txt') });
    expect(abs).toMatchObject({ content: '     1\tneedle in lib' });
    expect((await run(readTool, { file_path: '../lib/sub/deep.txt' })).content).toContain('deep needle');
  });

  it('without the added directory the same read is refused', async () => {
    const out = await run(readTool, { file_path: path.join(lib, 'notes.txt') }, ctxOf([]));
    expect(out.isError).toBe(true);
    expect(out.content).toContain('outside the working directory');
  });

  it('glob and grep list its files, never the symlinked secret', async () => {
    const globbed = await run(globTool, { pattern: '**/*.txt', path: lib });
    expect(globbed.content.split('\n').sort()).toEqual([path.join(lib, 'notes.txt'), path.join(lib, 'sub/deep.txt')]);
    const grepped = await run(grepTool, { pattern: 'needle', path: lib });
    expect(grepped.isError).toBeFalsy();
    expect(grepped.content).toContain('notes.txt');
    expect(grepped.content).not.toContain('secret');
  });

  it('write and edit a file there (read first), but not its .git', async () => {
    const file = path.join(lib, 'made.txt');
    expect((await run(writeTool, { file_path: file, content: 'one\n' })).isError).toBeFalsy();
    const ctx = ctxOf();
    await run(readTool, { file_path: file }, ctx);
    expect((await run(editTool, { file_path: file, old_string: 'one', new_string: 'two' }, ctx)).isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('two\n');
    const git = await run(writeTool, { file_path: path.join(lib, '.git/config'), content: 'x' });
    expect(git.isError).toBe(true);
  });

  it('refuses symlink escapes, dangling links, siblings and parents', async () => {
    for (const p of ['to-secret/key.txt', 'key-link.txt', 'dangling', '../lib2/other.txt', '..', '../secret/key.txt']) {
      const out = await run(readTool, { file_path: path.join(lib, p) });
      expect(out.isError, p).toBe(true);
    }
    const written = await run(writeTool, { file_path: path.join(lib, 'to-secret/new.txt'), content: 'x' });
    expect(written.isError).toBe(true);
    expect(existsSync(path.join(secret, 'new.txt'))).toBe(false);
  });

  it('bash may cd into it and stays there; a cd elsewhere resets to the root', async () => {
    const ctx = ctxOf();
    await run(bashTool, { command: `cd ${lib}/sub` }, ctx);
    expect((await run(bashTool, { command: 'cat deep.txt' }, ctx)).content).toContain('deep needle');
    const away = await run(bashTool, { command: `cd ${secret}` }, ctx);
    expect(away.content).toContain('the current directory was reset');
    expect((await run(bashTool, { command: 'pwd -P' }, ctx)).content).toContain(root);
  });

  it('a bash command writing into it is not writing outside; elsewhere it still is', () => {
    // the classifier is lexical, and the temp folder is always allowed: paths of no real folder
    const place = { root: '/srv/x/root', cwd: '/srv/x/root', extraRoots: ['/srv/x/lib'] };
    expect(classifyCommand('rm /srv/x/lib/made.txt', place).dangerous).toBeNull();
    expect(classifyCommand('echo x > ../lib/new.txt', place).dangerous).toBeNull();
    expect(classifyCommand('rm /srv/x/lib/made.txt', { root: place.root, cwd: place.root }).dangerous).not.toBeNull();
    expect(classifyCommand('rm /srv/x/secret/key.txt', place).dangerous).not.toBeNull();
    expect(classifyCommand('rm ../lib2/other.txt', place).dangerous).not.toBeNull();
  });

  it('the permission gate does not deny it as outside, and still denies the rest', () => {
    const gate = createPermissionGate({ defaultMode: 'acceptEdits', allow: [], deny: [], ask: [] });
    const where = { root, cwd: root, extraRoots: [lib] };
    const inLib = gate.check(readTool, { file_path: path.join(lib, 'notes.txt') }, where);
    expect(inLib.behavior).toBe('allow');
    const elsewhere = gate.check(readTool, { file_path: path.join(secret, 'key.txt') }, where);
    expect(elsewhere).toMatchObject({ behavior: 'deny' });
    expect((elsewhere as { message: string }).message).toContain('added directories');
  });
});

/** The real place a path leads to, computed with the JS realpath (the code under test uses the native one). */
function realTarget(abs: string): string | null {
  const missing: string[] = [];
  for (let p = abs; path.dirname(p) !== p; p = path.dirname(p)) {
    try {
      return path.join(realpathSync(p), ...missing.reverse());
    } catch {
      if (isLink(p)) return null; // dangling: where it leads does not exist
      missing.push(path.basename(p));
    }
  }
  return null;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

const SEGMENTS = ['..', '.', 'lib', 'lib2', 'secret', 'root', 'to-secret', 'to-lib', 'key-link.txt', 'sub', 'new', 'dangling'];

describe('confinement with added directories, generated paths', () => {
  it('accepts exactly the paths whose real target is inside the root or the added directory', () => {
    const roots = [root, lib];
    fc.assert(
      fc.property(
        fc.constantFrom(root, lib, base, secret),
        fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 }),
        (cwd, parts) => {
          const p = parts.join('/');
          const got = resolveInside(root, cwd, p, [lib]);
          const target = realTarget(path.resolve(cwd, p));
          if (got.ok) {
            expect(roots.some((r) => isInside(r, got.value))).toBe(true);
            expect(got.value).toBe(target);
          } else if (target !== null) {
            expect(roots.some((r) => isInside(r, target)), `${cwd} ${p}`).toBe(false);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

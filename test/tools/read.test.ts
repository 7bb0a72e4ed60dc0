import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_LIMITS, readTool } from '../../src/tools/read.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  it('numbers lines and records the read', async () => {
    const file = await t.file('a.txt', 'alpha\nbeta\n');
    const out = await t.run(readTool, { file_path: 'a.txt' });
    expect(out.isError).toBeFalsy();
    expect(out.content).toBe('     1\talpha\n     2\tbeta');
    expect(await t.ctx.fileState.checkWritable(file)).toBeNull();
  });

  it('reads a line range and says how to continue', async () => {
    await t.file('long.txt', lines(50));
    const out = await t.run(readTool, { file_path: 'long.txt', offset: 10, limit: 3 });
    expect(out.content.split('\n').slice(0, 3)).toEqual([
      '    10\tline 10',
      '    11\tline 11',
      '    12\tline 12',
    ]);
    expect(out.content).toContain('[lines 10-12 of 50; continue with offset=13]');
  });

  it('refuses an offset past the end', async () => {
    await t.file('short.txt', lines(3));
    const out = await t.run(readTool, { file_path: 'short.txt', offset: 9 });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('only 3 lines');
  });

  it('caps the answer size and cuts very long lines', async () => {
    const long = 'x'.repeat(READ_LIMITS.maxLineChars + 50);
    await t.file('wide.txt', Array.from({ length: 100 }, () => long).join('\n'));
    const out = await t.run(readTool, { file_path: 'wide.txt' });
    expect(out.content).toContain(`[line cut: ${long.length} characters]`);
    expect(out.content.length).toBeLessThan(READ_LIMITS.maxOutputChars + 200);
    expect(out.content).toMatch(/\[lines 1-\d+ of 100; continue with offset=\d+\]/);
  });

  it('explains missing files, folders, binary and empty files', async () => {
    await t.file('dir/inner.txt', 'x');
    await writeFile(path.join(t.root, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    await t.file('empty.txt', '');
    expect((await t.run(readTool, { file_path: 'nope.txt' })).content).toContain('does not exist');
    expect((await t.run(readTool, { file_path: 'dir' })).content).toContain('is a directory');
    expect((await t.run(readTool, { file_path: 'bin.dat' })).content).toContain('binary');
    expect((await t.run(readTool, { file_path: 'empty.txt' })).content).toContain('is empty');
  });

  it('refuses paths outside root', async () => {
    await t.file('../outside.txt', 'secret');
    const out = await t.run(readTool, { file_path: '../outside.txt' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('outside the working directory');
    expect(out.content).not.toContain('secret');
  });

  it('refuses a symlink that leads outside root', async () => {
    const outside = await t.file('../secret.txt', 'secret');
    await symlink(outside, path.join(t.root, 'innocent.txt'));
    const out = await t.run(readTool, { file_path: 'innocent.txt' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('outside the working directory');
    expect(out.content).not.toContain('\tsecret');
  });

  it('rejects bad input through its schema', () => {
    expect(readTool.inputSchema.safeParse({ file_path: 'a', offset: 0 }).success).toBe(false);
    expect(readTool.inputSchema.safeParse({ file_path: 'a', extra: 1 }).success).toBe(false);
  });
});

import { readFile, stat, chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit.js';
import { readTool } from '../../src/tools/read.js';
import { writeTool } from '../../src/tools/write.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

describe('write tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  it('creates a new file and its folders without a read', async () => {
    const out = await t.run(writeTool, { file_path: 'new/dir/a.txt', content: 'hello\n' });
    expect(out.isError).toBeFalsy();
    expect(out.content).toContain('Created new/dir/a.txt');
    expect(await readFile(path.join(t.root, 'new/dir/a.txt'), 'utf8')).toBe('hello\n');
  });

  it('refuses to overwrite an unread file, and allows it after a read', async () => {
    const file = await t.file('a.txt', 'old');
    const refused = await t.run(writeTool, { file_path: 'a.txt', content: 'new' });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain('has not been read');
    expect(await readFile(file, 'utf8')).toBe('old');
    await t.run(readTool, { file_path: 'a.txt' });
    expect((await t.run(writeTool, { file_path: 'a.txt', content: 'new' })).content).toContain(
      'Overwrote a.txt',
    );
    expect(await readFile(file, 'utf8')).toBe('new');
  });

  it('refuses a file changed on disk since the read', async () => {
    const file = await t.file('a.txt', 'old');
    await t.run(readTool, { file_path: 'a.txt' });
    await writeFile(file, 'someone else');
    const out = await t.run(writeTool, { file_path: 'a.txt', content: 'mine' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('changed on disk');
    expect(await readFile(file, 'utf8')).toBe('someone else');
  });

  it('keeps the mode of an executable it overwrites', async () => {
    const file = await t.file('run.sh', '#!/bin/sh\n');
    await chmod(file, 0o755);
    await t.run(readTool, { file_path: 'run.sh' });
    await t.run(writeTool, { file_path: 'run.sh', content: '#!/bin/sh\necho hi\n' });
    expect((await stat(file)).mode & 0o777).toBe(0o755);
  });

  it('refuses outside root', async () => {
    const out = await t.run(writeTool, { file_path: '../escape.txt', content: 'x' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('outside the working directory');
  });
});

describe('edit tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  const readFirst = async (rel: string, content: string): Promise<string> => {
    const file = await t.file(rel, content);
    await t.run(readTool, { file_path: rel });
    return file;
  };

  it('replaces a unique occurrence and returns a unified diff', async () => {
    const file = await readFirst('a.ts', 'const a = 1;\nconst b = 2;\n');
    const out = await t.run(editTool, { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(out.isError).toBeFalsy();
    expect(out.content).toContain(
      '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;',
    );
    expect(out.summary).toBe('edited a.ts (+1 -1)');
    expect(await readFile(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('refuses 0 occurrences, saying so', async () => {
    await readFirst('a.ts', 'abc\n');
    const out = await t.run(editTool, { file_path: 'a.ts', old_string: 'xyz', new_string: 'q' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('0 occurrences');
  });

  it('refuses 2 occurrences, saying how many and asking for context', async () => {
    const file = await readFirst('a.ts', 'x = 1;\nx = 1;\n');
    const out = await t.run(editTool, { file_path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('occurs 2 times');
    expect(out.content).toContain('more surrounding context');
    expect(await readFile(file, 'utf8')).toBe('x = 1;\nx = 1;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const file = await readFirst('a.ts', 'x = 1;\nx = 1;\ny = 1;\n');
    const out = await t.run(editTool, {
      file_path: 'a.ts',
      old_string: 'x = 1',
      new_string: 'x = 2',
      replace_all: true,
    });
    expect(out.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('x = 2;\nx = 2;\ny = 1;\n');
  });

  it('keeps $ patterns in new_string literal', async () => {
    const file = await readFirst('a.txt', 'price\n');
    await t.run(editTool, { file_path: 'a.txt', old_string: 'price', new_string: "$& $' $1" });
    expect(await readFile(file, 'utf8')).toBe("$& $' $1\n");
  });

  it('refuses an unread file and a file changed since the read', async () => {
    const file = await t.file('a.txt', 'one\n');
    expect(
      (await t.run(editTool, { file_path: 'a.txt', old_string: 'one', new_string: 'two' })).content,
    ).toContain('has not been read');
    await t.run(readTool, { file_path: 'a.txt' });
    await writeFile(file, 'one\nchanged\n');
    expect(
      (await t.run(editTool, { file_path: 'a.txt', old_string: 'one', new_string: 'two' })).content,
    ).toContain('changed on disk');
  });

  it('allows consecutive edits after its own write', async () => {
    const file = await readFirst('a.txt', 'a b c\n');
    await t.run(editTool, { file_path: 'a.txt', old_string: 'a', new_string: 'A' });
    const second = await t.run(editTool, { file_path: 'a.txt', old_string: 'b', new_string: 'B' });
    expect(second.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('A B c\n');
  });

  it('creates a missing file from an empty old_string, and refuses identical strings', async () => {
    const out = await t.run(editTool, { file_path: 'fresh.txt', old_string: '', new_string: 'new\n' });
    expect(out.isError).toBeFalsy();
    expect(await readFile(path.join(t.root, 'fresh.txt'), 'utf8')).toBe('new\n');
    expect(
      (await t.run(editTool, { file_path: 'fresh.txt', old_string: 'x', new_string: 'x' })).content,
    ).toContain('the same');
  });
});

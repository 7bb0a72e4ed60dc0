import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/tools/grep.js';
import { searchWithRipgrep } from '../../src/tools/grep-ripgrep.js';
import { findRipgrep, searchInProcess, type GrepQuery } from '../../src/tools/grep-search.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

async function fixture(t: TempRoot): Promise<void> {
  await t.file('src/a.ts', 'import x from "y";\nconst Foo = 1;\n// todo: fix foo\nexport {};\n');
  await t.file('src/b.js', 'function foo() {}\nfoo();\n');
  await t.file('docs/notes.md', 'nothing here\n');
  await t.file('node_modules/dep/index.js', 'foo\n');
  await writeFile(path.join(t.root, 'src/blob.bin'), Buffer.from('foo\0\0binary'));
}

describe('grep tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
    await fixture(t);
  });
  afterEach(async () => t.close());

  it('lists files with matches by default, skipping node_modules and binary files', async () => {
    const out = await t.run(grepTool, { pattern: 'foo' });
    expect(out.content).toBe('src/a.ts\nsrc/b.js');
  });

  it('shows matching lines with line numbers in content mode', async () => {
    const out = await t.run(grepTool, { pattern: 'foo', output_mode: 'content' });
    expect(out.content).toBe('src/a.ts:3:// todo: fix foo\nsrc/b.js:1:function foo() {}\nsrc/b.js:2:foo();');
    const plain = await t.run(grepTool, {
      pattern: 'foo\\(\\)',
      output_mode: 'content',
      '-n': false,
      path: 'src/b.js',
    });
    expect(plain.content).toBe('src/b.js:function foo() {}\nsrc/b.js:foo();');
  });

  it('is case-insensitive with -i, counts with count, filters with glob', async () => {
    expect((await t.run(grepTool, { pattern: 'foo', '-i': true, output_mode: 'count' })).content).toBe(
      'src/a.ts:2\nsrc/b.js:2',
    );
    expect((await t.run(grepTool, { pattern: 'foo', glob: '*.js' })).content).toBe('src/b.js');
    expect((await t.run(grepTool, { pattern: 'foo', glob: 'src/**/*.ts' })).content).toBe('src/a.ts');
  });

  it('adds context lines with separators', async () => {
    const out = await t.run(grepTool, {
      pattern: 'Foo|export',
      output_mode: 'content',
      '-C': 0,
      '-A': 1,
      path: 'src/a.ts',
    });
    expect(out.content).toBe('src/a.ts:2:const Foo = 1;\nsrc/a.ts-3-// todo: fix foo\nsrc/a.ts:4:export {};');
    const apart = await t.run(grepTool, {
      pattern: 'import|export',
      output_mode: 'content',
      path: 'src/a.ts',
    });
    expect(apart.content).toBe('src/a.ts:1:import x from "y";\n--\nsrc/a.ts:4:export {};');
  });

  it('matches across lines with multiline', async () => {
    const out = await t.run(grepTool, {
      pattern: 'Foo = 1;\\n// todo',
      multiline: true,
      output_mode: 'content',
    });
    expect(out.content).toBe('src/a.ts:2:const Foo = 1;\nsrc/a.ts:3:// todo: fix foo');
  });

  it('caps results with head_limit and says so', async () => {
    const out = await t.run(grepTool, { pattern: 'foo', output_mode: 'content', head_limit: 2 });
    expect(out.content.split('\n').slice(0, 2)).toEqual([
      'src/a.ts:3:// todo: fix foo',
      'src/b.js:1:function foo() {}',
    ]);
    expect(out.content).toContain('[results cut at 2');
  });

  it('reports no match, a bad pattern, and a path outside root', async () => {
    expect((await t.run(grepTool, { pattern: 'zzz' })).content).toBe('No matches for zzz.');
    expect((await t.run(grepTool, { pattern: '(unclosed' })).isError).toBe(true);
    expect((await t.run(grepTool, { pattern: 'x', path: '../..' })).content).toContain(
      'outside the working directory',
    );
    expect((await t.run(grepTool, { pattern: 'x', glob: '../*' })).isError).toBe(true);
  });
});

describe('grep engines agree', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
    await fixture(t);
  });
  afterEach(async () => t.close());

  const query = (over: Partial<GrepQuery>): GrepQuery => ({
    pattern: 'foo',
    caseInsensitive: false,
    multiline: false,
    base: t.root,
    root: t.root,
    before: 0,
    after: 0,
    maxFiles: 100,
    signal: new AbortController().signal,
    ...over,
  });

  it('ripgrep (when on PATH) returns what the in-process search returns; without it the tool uses the in-process search', async () => {
    const queries = [
      query({}),
      query({ caseInsensitive: true, before: 1, after: 1 }),
      query({ glob: '*.ts' }),
    ];
    const native = await Promise.all(queries.map(searchInProcess));
    expect(native[0]).toEqual({
      ok: true,
      value: [
        expect.objectContaining({ absPath: path.join(t.root, 'src/a.ts'), count: 1 }),
        expect.objectContaining({ count: 2 }),
      ],
    });
    const rg = await findRipgrep();
    if (rg === null) {
      expect((await t.run(grepTool, { pattern: 'foo' })).content).toBe('src/a.ts\nsrc/b.js');
      return;
    }
    const viaRipgrep = await Promise.all(queries.map((q) => searchWithRipgrep(rg, q)));
    expect(viaRipgrep).toEqual(native);
  });
});

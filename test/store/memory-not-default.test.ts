/**
 * The in-memory stores are for tests and embedding only: no command, daemon
 * or teammate code makes one (they live in src/store/ and are handed out by
 * `teamd/testing`). A scan of the sources, comments left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const MAKES_MEMORY_STORE = /\b(TaskStore|CronStore)\.inMemory\(|\bnew MemoryMailbox\(|\bMemoryTaskFiles\b/;

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

const code = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));

describe('the in-memory stores are never a default', () => {
  test('only src/store/ makes one', () => {
    const users = sources(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !f.startsWith('store/'))
      .filter((f) => code(join(SRC, f)).some((line) => MAKES_MEMORY_STORE.test(line)));
    expect(users).toEqual([]);
  });
});

/**
 * The shared corpus of real Claude Code files (`../shared/corpus/claude-code/`,
 * other people's files: read there, never copied). Looked for in `../shared`
 * of this checkout and of its parent folders (a worktree sits deeper than the
 * main checkout). Absent in a user's clone: the tests that read it skip.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function corpusDir(): string | null {
  for (let dir = ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, '..', 'shared', 'corpus', 'claude-code');
    if (existsSync(candidate)) return resolve(candidate);
    if (dirname(dir) === dir) return null;
  }
}

/** The files of one corpus folder (`agents`, `mcp`, `settings`), sorted; [] when absent. */
export function corpusFiles(kind: string): string[] {
  const dir = corpusDir();
  if (dir === null || !existsSync(join(dir, kind))) return [];
  return readdirSync(join(dir, kind))
    .sort()
    .map((name) => join(dir, kind, name));
}

export const CORPUS_SKIP_LINE =
  'skipped: ../shared/corpus/claude-code is absent (a clone without the shared corpus); the fixtures in test/fixtures/claude-code still run';
